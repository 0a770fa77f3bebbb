// Original file: proto/runtime/v1/api.proto


export interface ImageFsInfoRequest {
}

export interface ImageFsInfoRequest__Output {
}
