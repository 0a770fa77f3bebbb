/**
 * Loaders for Nodelet's containerd protos (events service + event payloads). The grpc side goes through
 * @grpc/proto-loader with the CRI loader options, so shapes match the rest of the repo (camelCase, int64 as
 * numbers, defaults filled); event payloads inside `google.protobuf.Any` are decoded with protobufjs and the
 * same conversion options.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { CRI_LOADER_OPTIONS } from '../load.ts';
import type { ProtoGrpcType } from './gen/events.ts';

/** Include dir (the repo's `proto/` folder): imports read `containerd/...` and `google/protobuf/...`. */
export const CONTAINERD_PROTO_DIR: string = fileURLToPath(new URL('..', import.meta.url));
export const CONTAINERD_EVENTS_SERVICE_PROTO = 'containerd/services/events/v1/events.proto';
export const CONTAINERD_EVENT_PAYLOAD_PROTOS = ['containerd/events/task.proto', 'containerd/events/container.proto'];

/** gRPC metadata key naming the containerd namespace of a call. */
export const CONTAINERD_NAMESPACE_HEADER = 'containerd-namespace';

let grpcPkg: ProtoGrpcType | undefined;

/** The loaded grpc package (cached): `pkg.containerd.services.events.v1.Events`. */
export function loadContainerdEventsPackage(): ProtoGrpcType {
  if (grpcPkg) return grpcPkg;
  grpcPkg = grpc.loadPackageDefinition(loadContainerdEventsPackageDefinition()) as unknown as ProtoGrpcType;
  return grpcPkg;
}

/** The raw package definition (for test servers that implement the Events service). */
export function loadContainerdEventsPackageDefinition(): protoLoader.PackageDefinition {
  return protoLoader.loadSync(CONTAINERD_EVENTS_SERVICE_PROTO, {
    ...CRI_LOADER_OPTIONS,
    includeDirs: [CONTAINERD_PROTO_DIR],
  });
}

let payloadRoot: protobuf.Root | undefined;

/** A protobufjs Root holding the event payload messages (`containerd.events.TaskExit` ...), cached. */
export function loadContainerdEventsRoot(): protobuf.Root {
  if (payloadRoot) return payloadRoot;
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(CONTAINERD_PROTO_DIR, target);
  root.loadSync([...CONTAINERD_EVENT_PAYLOAD_PROTOS, CONTAINERD_EVENTS_SERVICE_PROTO]);
  root.resolveAll();
  payloadRoot = root;
  return root;
}

/** protobufjs toObject options equal to CRI_LOADER_OPTIONS. */
export const CONTAINERD_TO_OBJECT_OPTIONS: protobuf.IConversionOptions = {
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

/**
 * Decodes an Any payload by its type URL (`containerd.events.TaskExit`, also accepted with a
 * `type.googleapis.com/`-style prefix). Returns the full message name and the plain object, or null when the
 * type is not one of ours. Throws when the bytes do not parse.
 */
export function decodeContainerdAny(typeUrl: string, value: Uint8Array): { type: string; data: unknown } | null {
  const name = typeUrl.slice(typeUrl.lastIndexOf('/') + 1);
  if (!name.startsWith('containerd.')) return null;
  let type: protobuf.Type;
  try {
    type = loadContainerdEventsRoot().lookupType(name);
  } catch {
    return null;
  }
  return { type: name, data: type.toObject(type.decode(value), CONTAINERD_TO_OBJECT_OPTIONS) };
}
