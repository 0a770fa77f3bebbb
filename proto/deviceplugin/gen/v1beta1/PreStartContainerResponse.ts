// Original file: proto/deviceplugin/v1beta1/api.proto


export interface PreStartContainerResponse {
}

export interface PreStartContainerResponse__Output {
}
