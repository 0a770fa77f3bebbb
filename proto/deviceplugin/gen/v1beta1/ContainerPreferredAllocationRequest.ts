// Original file: proto/deviceplugin/v1beta1/api.proto


export interface ContainerPreferredAllocationRequest {
  'availableDeviceIDs'?: (string)[];
  'mustIncludeDeviceIDs'?: (string)[];
  'allocationSize'?: (number);
}

export interface ContainerPreferredAllocationRequest__Output {
  'availableDeviceIDs': (string)[];
  'mustIncludeDeviceIDs': (string)[];
  'allocationSize': (number);
}
