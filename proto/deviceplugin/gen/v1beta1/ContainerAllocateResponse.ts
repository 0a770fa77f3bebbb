// Original file: proto/deviceplugin/v1beta1/api.proto

import type { Mount as _v1beta1_Mount, Mount__Output as _v1beta1_Mount__Output } from '../v1beta1/Mount.ts';
import type { DeviceSpec as _v1beta1_DeviceSpec, DeviceSpec__Output as _v1beta1_DeviceSpec__Output } from '../v1beta1/DeviceSpec.ts';
import type { CDIDevice as _v1beta1_CDIDevice, CDIDevice__Output as _v1beta1_CDIDevice__Output } from '../v1beta1/CDIDevice.ts';

export interface ContainerAllocateResponse {
  'envs'?: ({[key: string]: string});
  'mounts'?: (_v1beta1_Mount)[];
  'devices'?: (_v1beta1_DeviceSpec)[];
  'annotations'?: ({[key: string]: string});
  'cdiDevices'?: (_v1beta1_CDIDevice)[];
}

export interface ContainerAllocateResponse__Output {
  'envs': ({[key: string]: string});
  'mounts': (_v1beta1_Mount__Output)[];
  'devices': (_v1beta1_DeviceSpec__Output)[];
  'annotations': ({[key: string]: string});
  'cdiDevices': (_v1beta1_CDIDevice__Output)[];
}
