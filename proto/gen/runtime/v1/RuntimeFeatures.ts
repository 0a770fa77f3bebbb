// Original file: proto/runtime/v1/api.proto


export interface RuntimeFeatures {
  'supplementalGroupsPolicy'?: (boolean);
  'userNamespacesHostNetwork'?: (boolean);
  'mountOptions'?: (boolean);
}

export interface RuntimeFeatures__Output {
  'supplementalGroupsPolicy': (boolean);
  'userNamespacesHostNetwork': (boolean);
  'mountOptions': (boolean);
}
