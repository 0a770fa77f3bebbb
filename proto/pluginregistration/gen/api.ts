import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { InfoRequest as _pluginregistration_InfoRequest, InfoRequest__Output as _pluginregistration_InfoRequest__Output } from './pluginregistration/InfoRequest.ts';
import type { PluginInfo as _pluginregistration_PluginInfo, PluginInfo__Output as _pluginregistration_PluginInfo__Output } from './pluginregistration/PluginInfo.ts';
import type { RegistrationClient as _pluginregistration_RegistrationClient, RegistrationDefinition as _pluginregistration_RegistrationDefinition } from './pluginregistration/Registration.ts';
import type { RegistrationStatus as _pluginregistration_RegistrationStatus, RegistrationStatus__Output as _pluginregistration_RegistrationStatus__Output } from './pluginregistration/RegistrationStatus.ts';
import type { RegistrationStatusResponse as _pluginregistration_RegistrationStatusResponse, RegistrationStatusResponse__Output as _pluginregistration_RegistrationStatusResponse__Output } from './pluginregistration/RegistrationStatusResponse.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  pluginregistration: {
    InfoRequest: MessageTypeDefinition<_pluginregistration_InfoRequest, _pluginregistration_InfoRequest__Output>
    PluginInfo: MessageTypeDefinition<_pluginregistration_PluginInfo, _pluginregistration_PluginInfo__Output>
    Registration: SubtypeConstructor<typeof grpc.Client, _pluginregistration_RegistrationClient> & { service: _pluginregistration_RegistrationDefinition }
    RegistrationStatus: MessageTypeDefinition<_pluginregistration_RegistrationStatus, _pluginregistration_RegistrationStatus__Output>
    RegistrationStatusResponse: MessageTypeDefinition<_pluginregistration_RegistrationStatusResponse, _pluginregistration_RegistrationStatusResponse__Output>
  }
}

