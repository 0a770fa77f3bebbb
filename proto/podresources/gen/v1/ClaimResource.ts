// Original file: proto/podresources/v1/api.proto

import type { CDIDevice as _v1_CDIDevice, CDIDevice__Output as _v1_CDIDevice__Output } from '../v1/CDIDevice.ts';

export interface ClaimResource {
  'cdiDevices'?: (_v1_CDIDevice)[];
}

export interface ClaimResource__Output {
  'cdiDevices': (_v1_CDIDevice__Output)[];
}
