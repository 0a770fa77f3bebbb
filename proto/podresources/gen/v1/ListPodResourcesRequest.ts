// Original file: proto/podresources/v1/api.proto


export interface ListPodResourcesRequest {
}

export interface ListPodResourcesRequest__Output {
}
