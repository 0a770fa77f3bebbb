// Original file: proto/pluginregistration/v1/api.proto


export interface RegistrationStatusResponse {
}

export interface RegistrationStatusResponse__Output {
}
