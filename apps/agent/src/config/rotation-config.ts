/**
 * Certificate rotation settings (API-server mode; without --kubeconfig they do nothing, as in the kubelet):
 * rotateCertificates / --rotate-certificates renews the client certificate through the CSR API; serverTLSBootstrap
 * (also the kubelet's deprecated --rotate-server-certificates flag) requests and renews the serving certificate.
 * Both default to false.
 */
import type { FlagSpec } from './flag-spec.ts';

export interface RotationAgentConfig {
  rotateCertificates: boolean;
  serverTLSBootstrap: boolean;
}

export const ROTATION_DEFAULTS: RotationAgentConfig = { rotateCertificates: false, serverTLSBootstrap: false };

export const ROTATION_FLAG_SPECS: FlagSpec<keyof RotationAgentConfig>[] = [
  {
    name: 'rotate-certificates',
    kind: 'bool',
    key: 'rotateCertificates',
    help: 'Auto rotate the kubelet client certificates by requesting new certificates from the API server as the current one nears expiration.',
    defaultText: 'false',
  },
  {
    name: 'rotate-server-certificates',
    kind: 'bool',
    key: 'serverTLSBootstrap',
    help: 'Request the serving certificate from the API server (signer kubernetes.io/kubelet-serving) and rotate it as it nears expiration (serverTLSBootstrap).',
    defaultText: 'false',
  },
];

export const ROTATION_FILE_FIELDS = [
  { path: 'rotateCertificates', key: 'rotateCertificates', kind: 'bool' },
  { path: 'serverTLSBootstrap', key: 'serverTLSBootstrap', kind: 'bool' },
] as const;
