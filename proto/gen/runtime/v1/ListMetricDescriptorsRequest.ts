// Original file: proto/runtime/v1/api.proto


export interface ListMetricDescriptorsRequest {
}

export interface ListMetricDescriptorsRequest__Output {
}
