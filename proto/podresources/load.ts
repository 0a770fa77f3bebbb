/**
 * Loader for the pod resources API (`v1.PodResourcesLister`), parsed on first use only, with the CRI loader
 * options (camelCase fields, int64 as numbers, defaults filled).
 */
import { loadProtoPackage } from '../load.ts';
import type { ProtoGrpcType } from './gen/api.ts';

/** Path of the proto relative to the include dir (the repo's `proto/` folder, or the compiled bundle's dir). */
export const POD_RESOURCES_PROTO = 'podresources/v1/api.proto';

/** The loaded grpc package (cached): `pkg.v1.PodResourcesLister`. */
export const loadPodResourcesPackage = (): ProtoGrpcType => loadProtoPackage<ProtoGrpcType>(POD_RESOURCES_PROTO);
