/**
 * Loader for the plugin registration API (`pluginregistration`, the kubelet's plugin manager protocol), parsed
 * on first use only, with the CRI loader options (camelCase fields, defaults filled).
 */
import { loadProtoPackage } from '../load.ts';
import type { ProtoGrpcType } from './gen/api.ts';

/** Path of the proto relative to the include dir (the repo's `proto/` folder, or the compiled bundle's dir). */
export const PLUGIN_REGISTRATION_PROTO = 'pluginregistration/v1/api.proto';

/** The loaded grpc package (cached): `pkg.pluginregistration.Registration`. */
export const loadPluginRegistrationPackage = (): ProtoGrpcType => loadProtoPackage<ProtoGrpcType>(PLUGIN_REGISTRATION_PROTO);
