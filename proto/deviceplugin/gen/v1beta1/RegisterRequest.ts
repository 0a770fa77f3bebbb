// Original file: proto/deviceplugin/v1beta1/api.proto

import type { DevicePluginOptions as _v1beta1_DevicePluginOptions, DevicePluginOptions__Output as _v1beta1_DevicePluginOptions__Output } from '../v1beta1/DevicePluginOptions.ts';

export interface RegisterRequest {
  'version'?: (string);
  'endpoint'?: (string);
  'resourceName'?: (string);
  'options'?: (_v1beta1_DevicePluginOptions | null);
}

export interface RegisterRequest__Output {
  'version': (string);
  'endpoint': (string);
  'resourceName': (string);
  'options': (_v1beta1_DevicePluginOptions__Output | null);
}
