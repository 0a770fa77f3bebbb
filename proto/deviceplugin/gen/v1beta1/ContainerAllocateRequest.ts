// Original file: proto/deviceplugin/v1beta1/api.proto


export interface ContainerAllocateRequest {
  'devicesIds'?: (string)[];
}

export interface ContainerAllocateRequest__Output {
  'devicesIds': (string)[];
}
