/**
 * Payloads of the API-data volumes, as the kubelet's configmap, secret, downward-api and projected plugins
 * collect them: every key (or the listed items) with defaultMode / per-item mode, `optional` sources and keys,
 * serviceAccountToken files from the token manager.
 */
import type { V1ConfigMap, V1DownwardAPIVolumeFile, V1KeyToPath, V1Pod, V1Secret, V1Volume, V1VolumeProjection } from '@kubernetes/client-node';
import type { PodObjectSource, TokenSource } from '../podobjects/types.ts';
import { DEFAULT_EXPIRATION_SECONDS } from '../podobjects/token-manager.ts';
import type { Payload } from './atomic-writer.ts';
import { resourceValue, volumeFieldValue, type NodeAllocatable } from './downward-api.ts';

export const DEFAULT_MODE = 0o644;

export interface ProjectionDeps {
  objects: PodObjectSource;
  tokens: TokenSource;
  allocatable?: NodeAllocatable;
}

export type PayloadResult = { ok: true; payload: Payload } | { ok: false; message: string };

type Kv = Map<string, Buffer>;

function configMapData(cm: V1ConfigMap): Kv {
  const out: Kv = new Map();
  for (const [k, v] of Object.entries(cm.data ?? {})) out.set(k, Buffer.from(v, 'utf8'));
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) out.set(k, Buffer.from(v, 'base64'));
  return out;
}

function secretData(s: V1Secret): Kv {
  const out: Kv = new Map();
  for (const [k, v] of Object.entries(s.data ?? {})) out.set(k, Buffer.from(v, 'base64'));
  return out;
}

/** Keys (or items) of one object into `payload`; a missing non-optional item key is an error. */
function addKeys(payload: Payload, data: Kv, items: V1KeyToPath[] | undefined, mode: number, optional: boolean, what: string): string | undefined {
  if (!items || items.length === 0) {
    for (const [k, v] of data) payload.set(k, { data: v, mode });
    return undefined;
  }
  for (const it of items) {
    const v = data.get(it.key);
    if (v === undefined) {
      if (optional) continue;
      return what === 'secret' ? `references non-existent secret key: ${it.key}` : `configmap references non-existent config key: ${it.key}`;
    }
    payload.set(it.path, { data: v, mode: it.mode ?? mode });
  }
  return undefined;
}

function addDownward(payload: Payload, pod: V1Pod, items: V1DownwardAPIVolumeFile[], mode: number, alloc: NodeAllocatable | undefined): string | undefined {
  for (const it of items) {
    const r = it.fieldRef ? volumeFieldValue(pod, it.fieldRef.fieldPath) : it.resourceFieldRef ? resourceValue(pod, it.resourceFieldRef, alloc) : undefined;
    if (!r) continue;
    if (!r.ok) return r.message;
    payload.set(it.path, { data: Buffer.from(r.value, 'utf8'), mode: it.mode ?? mode });
  }
  return undefined;
}

type SourceKind = 'configMap' | 'secret';

async function addObject(deps: ProjectionDeps, pod: V1Pod, payload: Payload, kind: SourceKind, name: string, items: V1KeyToPath[] | undefined, mode: number, optional: boolean): Promise<string | undefined> {
  const r = kind === 'configMap' ? await deps.objects.getConfigMap(pod, name) : await deps.objects.getSecret(pod, name);
  if (!r.ok) return r.notFound && optional ? undefined : r.message;
  const data = kind === 'configMap' ? configMapData(r.object as V1ConfigMap) : secretData(r.object as V1Secret);
  return addKeys(payload, data, items, mode, optional, kind === 'configMap' ? 'configMap' : 'secret');
}

async function addProjection(deps: ProjectionDeps, pod: V1Pod, payload: Payload, src: V1VolumeProjection, mode: number): Promise<string | undefined> {
  if (src.configMap) return addObject(deps, pod, payload, 'configMap', src.configMap.name ?? '', src.configMap.items, mode, src.configMap.optional ?? false);
  if (src.secret) return addObject(deps, pod, payload, 'secret', src.secret.name ?? '', src.secret.items, mode, src.secret.optional ?? false);
  if (src.downwardAPI) return addDownward(payload, pod, src.downwardAPI.items ?? [], mode, deps.allocatable);
  if (src.serviceAccountToken) {
    const t = src.serviceAccountToken;
    const r = await deps.tokens.getServiceAccountToken(pod, {
      audiences: t.audience ? [t.audience] : [],
      expirationSeconds: t.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS,
    });
    if (!r.ok) return r.message;
    payload.set(t.path, { data: Buffer.from(r.object.token, 'utf8'), mode });
    return undefined;
  }
  if (src.clusterTrustBundle) return 'clusterTrustBundle projections are not supported';
  return undefined;
}

/** The payload of an API-data volume, or undefined for volume types that are not written by the atomic writer. */
export async function volumePayload(deps: ProjectionDeps, pod: V1Pod, v: V1Volume): Promise<PayloadResult | undefined> {
  const payload: Payload = new Map();
  let err: string | undefined;
  if (v.configMap) {
    const s = v.configMap;
    err = await addObject(deps, pod, payload, 'configMap', s.name ?? '', s.items, s.defaultMode ?? DEFAULT_MODE, s.optional ?? false);
  } else if (v.secret) {
    const s = v.secret;
    err = await addObject(deps, pod, payload, 'secret', s.secretName ?? '', s.items, s.defaultMode ?? DEFAULT_MODE, s.optional ?? false);
  } else if (v.downwardAPI) {
    err = addDownward(payload, pod, v.downwardAPI.items ?? [], v.downwardAPI.defaultMode ?? DEFAULT_MODE, deps.allocatable);
  } else if (v.projected) {
    const mode = v.projected.defaultMode ?? DEFAULT_MODE;
    const errs: string[] = [];
    for (const src of v.projected.sources ?? []) {
      const e = await addProjection(deps, pod, payload, src, mode);
      if (e) errs.push(e);
    }
    if (errs.length) err = errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
  } else return undefined;
  return err ? { ok: false, message: err } : { ok: true, payload };
}
