/**
 * One loader for the CRI proto, shared by the embedded runtime (server) and core's client, so both sides
 * see identical JS shapes: camelCase fields, int64 as numbers, enums as their string names, defaults filled.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType } from './gen/api.ts';

/** Absolute path of the CRI v1 proto file. */
export const CRI_PROTO_PATH: string = fileURLToPath(new URL('./runtime/v1/api.proto', import.meta.url));
/** Include dir for the proto (the `proto/` folder). */
export const CRI_PROTO_DIR: string = path.dirname(fileURLToPath(import.meta.url));

/** The proto-loader options every CRI peer in this repo must use (see contracts). */
export const CRI_LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

let cached: ProtoGrpcType | undefined;

/** The loaded `runtime.v1` grpc package (cached): `pkg.runtime.v1.RuntimeService`, `.ImageService`, ... */
export function loadCriPackage(): ProtoGrpcType {
  if (cached) return cached;
  const def = protoLoader.loadSync(CRI_PROTO_PATH, { ...CRI_LOADER_OPTIONS, includeDirs: [CRI_PROTO_DIR] });
  cached = grpc.loadPackageDefinition(def) as unknown as ProtoGrpcType;
  return cached;
}

/** The raw package definition, for callers that build their own services. */
export function loadCriPackageDefinition(): protoLoader.PackageDefinition {
  return protoLoader.loadSync(CRI_PROTO_PATH, { ...CRI_LOADER_OPTIONS, includeDirs: [CRI_PROTO_DIR] });
}

const packages = new Map<string, unknown>();

/** Another proto under this include dir (e.g. `podresources/v1/api.proto`) with the same loader options, parsed once. */
export function loadProtoPackage<T>(relPath: string): T {
  let pkg = packages.get(relPath);
  if (!pkg) {
    pkg = grpc.loadPackageDefinition(protoLoader.loadSync(relPath, { ...CRI_LOADER_OPTIONS, includeDirs: [CRI_PROTO_DIR] }));
    packages.set(relPath, pkg);
  }
  return pkg as T;
}
