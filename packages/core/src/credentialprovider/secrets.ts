/**
 * Pull secrets to a keyring (the kubelet's credentialprovider/secrets MakeDockerKeyring): every Secret of type
 * `kubernetes.io/dockerconfigjson` with a non-empty `.dockerconfigjson`, or `kubernetes.io/dockercfg` with a
 * non-empty `.dockercfg`, goes into one keyring put before the node's; other Secrets are ignored. A secret whose
 * JSON does not parse fails the whole pull (the kubelet returns the error from PullImage: ErrImagePull).
 */
import type { V1Secret } from '@kubernetes/client-node';
import { parseDockercfg, parseDockerConfigJson } from './config.ts';
import { BasicDockerKeyring, UnionDockerKeyring, type DockerKeyring } from './keyring.ts';

export const SECRET_TYPE_DOCKER_CONFIG_JSON = 'kubernetes.io/dockerconfigjson';
export const SECRET_TYPE_DOCKERCFG = 'kubernetes.io/dockercfg';
export const DOCKER_CONFIG_JSON_KEY = '.dockerconfigjson';
export const DOCKERCFG_KEY = '.dockercfg';

export type KeyringResult = { ok: true; keyring: DockerKeyring | undefined } | { ok: false; message: string };

export function makeDockerKeyring(secrets: readonly V1Secret[], nodeKeyring: DockerKeyring | undefined): KeyringResult {
  const fromSecrets = new BasicDockerKeyring();
  let found = 0;
  for (const s of secrets) {
    const json = s.data?.[DOCKER_CONFIG_JSON_KEY];
    const cfg = s.data?.[DOCKERCFG_KEY];
    let parsed;
    if (s.type === SECRET_TYPE_DOCKER_CONFIG_JSON && json) parsed = parseDockerConfigJson(Buffer.from(json, 'base64').toString('utf8'));
    else if (s.type === SECRET_TYPE_DOCKERCFG && cfg) parsed = parseDockercfg(Buffer.from(cfg, 'base64').toString('utf8'));
    else continue;
    if (!parsed.ok) return parsed;
    fromSecrets.add(parsed.config);
    found++;
  }
  if (found === 0) return { ok: true, keyring: nodeKeyring };
  return { ok: true, keyring: new UnionDockerKeyring([fromSecrets, nodeKeyring]) };
}
