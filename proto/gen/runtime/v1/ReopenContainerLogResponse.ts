// Original file: proto/runtime/v1/api.proto


export interface ReopenContainerLogResponse {
}

export interface ReopenContainerLogResponse__Output {
}
