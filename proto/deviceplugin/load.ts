/**
 * Loader for the device plugin API (`v1beta1`), loaded on first use only: agents without device plugins never
 * parse it. Same proto-loader options as the CRI (camelCase fields, int64 as numbers, defaults filled), so
 * the kubelet side and the test plugin see identical shapes. `containerAllocateResponseCodec()` encodes the
 * message as the kubelet stores it in its checkpoint (AllocResp: the marshalled ContainerAllocateResponse).
 */
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { CRI_LOADER_OPTIONS, CRI_PROTO_DIR } from '../load.ts';
import type { ProtoGrpcType } from './gen/api.ts';
import type { ContainerAllocateResponse, ContainerAllocateResponse__Output } from './gen/v1beta1/ContainerAllocateResponse.ts';

/** Path of the proto relative to the include dir (the repo's `proto/` folder). */
export const DEVICE_PLUGIN_PROTO = 'deviceplugin/v1beta1/api.proto';
export const DEVICE_PLUGIN_PROTO_PATH: string = fileURLToPath(new URL('./v1beta1/api.proto', import.meta.url));

let cached: ProtoGrpcType | undefined;

/** The loaded grpc package (cached): `pkg.v1beta1.Registration`, `pkg.v1beta1.DevicePlugin`. */
export function loadDevicePluginPackage(): ProtoGrpcType {
  if (cached) return cached;
  const def = protoLoader.loadSync(DEVICE_PLUGIN_PROTO, { ...CRI_LOADER_OPTIONS, includeDirs: [CRI_PROTO_DIR] });
  cached = grpc.loadPackageDefinition(def) as unknown as ProtoGrpcType;
  return cached;
}

export interface AllocateResponseCodec {
  encode(msg: ContainerAllocateResponse): Uint8Array;
  decode(bytes: Uint8Array): ContainerAllocateResponse__Output;
}

let codec: AllocateResponseCodec | undefined;

/** protobuf wire encoding of `v1beta1.ContainerAllocateResponse` (camelCase objects in and out). */
export function containerAllocateResponseCodec(): AllocateResponseCodec {
  if (codec) return codec;
  const root = protobuf.loadSync(DEVICE_PLUGIN_PROTO_PATH);
  const t = root.lookupType('v1beta1.ContainerAllocateResponse');
  codec = {
    encode: (msg) => t.encode(t.fromObject(msg)).finish(),
    decode: (bytes) => t.toObject(t.decode(bytes), { longs: Number, enums: String, defaults: true, arrays: true, objects: true }) as ContainerAllocateResponse__Output,
  };
  return codec;
}
