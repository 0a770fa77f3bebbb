// Original file: proto/podresources/v1/api.proto


export interface GetPodResourcesRequest {
  'podName'?: (string);
  'podNamespace'?: (string);
}

export interface GetPodResourcesRequest__Output {
  'podName': (string);
  'podNamespace': (string);
}
