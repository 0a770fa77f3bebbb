/**
 * `<root-dir>/cpu_manager_state` in the kubelet's checkpoint v2 JSON (cpumanager/state/checkpoint.go v1.28):
 * {"policyName":"static","defaultCpuSet":"0,2-3","entries":{"<pod uid>":{"<container>":"1"}},"checksum":n}
 * ("entries" left out when empty). The checksum is checkpointmanager/checksum: FNV-32a of the checkpoint
 * (checksum 0) printed by go-spew `%#v` with sorted map keys (hashutil.DeepHashObject), so a file written here
 * is accepted by a real kubelet and the other way round. A checksum of 0 is accepted unverified, as upstream.
 */
import { fnv32a } from '../../util/hash.ts';

export type CpuEntries = Record<string, Record<string, string>>;

export interface CpuCheckpoint {
  policyName: string;
  defaultCpuSet: string;
  entries: CpuEntries;
}

/** checkpointmanager/errors ErrCorruptCheckpoint. */
export const ERR_CORRUPT_CHECKPOINT = 'checkpoint is corrupted';

const sortedKeys = (m: Record<string, unknown>) => Object.keys(m).sort();

/** go-spew `%#v` of *state.CPUManagerCheckpoint: types on struct fields, none inside maps; strings unquoted. */
export function spewCheckpoint(cp: CpuCheckpoint, entriesType = 'map[string]map[string]string'): string {
  const inner = (m: Record<string, string>) => `map[${sortedKeys(m).map((k) => `${k}:${m[k]}`).join(' ')}]`;
  const entries = `map[${sortedKeys(cp.entries).map((k) => `${k}:${inner(cp.entries[k]!)}`).join(' ')}]`;
  return (
    `(*state.CPUManagerCheckpoint){PolicyName:(string)${cp.policyName} DefaultCPUSet:(string)${cp.defaultCpuSet} ` +
    `Entries:(${entriesType})${entries} Checksum:(checksum.Checksum)0}`
  );
}

export function checkpointChecksum(cp: CpuCheckpoint): number {
  return parseInt(fnv32a(spewCheckpoint(cp)), 16);
}

/** The checksum a v1 checkpoint (entries keyed by container id, map[string]string) carries. */
function v1Checksum(cp: CpuCheckpoint): number {
  return parseInt(fnv32a(spewCheckpoint(cp, 'map[string]string')), 16);
}

/** MarshalCheckpoint: the file's bytes (json.Marshal field order, map keys sorted, entries omitted when empty). */
export function encodeCpuCheckpoint(cp: CpuCheckpoint): string {
  const entries: CpuEntries = {};
  for (const pod of sortedKeys(cp.entries)) {
    const m = cp.entries[pod]!;
    entries[pod] = Object.fromEntries(sortedKeys(m).map((c) => [c, m[c]!]));
  }
  const out: Record<string, unknown> = { policyName: cp.policyName, defaultCpuSet: cp.defaultCpuSet };
  if (Object.keys(entries).length > 0) out['entries'] = entries;
  out['checksum'] = checkpointChecksum(cp);
  return JSON.stringify(out);
}

/**
 * UnmarshalCheckpoint + VerifyChecksum; throws ERR_CORRUPT_CHECKPOINT (or the JSON error) on a bad file. Keys
 * match case-insensitively, as Go's encoding/json ("defaultCPUSet" fills defaultCpuSet). A v1 file without
 * entries (its checksum taken over the v1 type) is read as the kubelet's v1 → v2 migration reads it; v1 entries
 * (keyed by container id) are refused as corrupt.
 */
export function decodeCpuCheckpoint(text: string): CpuCheckpoint {
  const raw = JSON.parse(text) as unknown;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) bad();
  const o = raw as Record<string, unknown>;
  const field = (name: string) => o[Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name];
  const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : bad());
  const entries: CpuEntries = {};
  const rawEntries = field('entries') ?? {};
  if (typeof rawEntries !== 'object' || Array.isArray(rawEntries)) bad();
  for (const [pod, containers] of Object.entries(rawEntries as Record<string, unknown>)) {
    if (!containers || typeof containers !== 'object' || Array.isArray(containers)) bad();
    entries[pod] = Object.fromEntries(Object.entries(containers as Record<string, unknown>).map(([c, v]) => [c, str(v)]));
  }
  const cp: CpuCheckpoint = { policyName: str(field('policyName')), defaultCpuSet: str(field('defaultCpuSet')), entries };
  const checksum = field('checksum') ?? 0;
  if (typeof checksum !== 'number') bad();
  const v1 = Object.keys(entries).length === 0 && checksum === v1Checksum(cp);
  if (checksum !== 0 && checksum !== checkpointChecksum(cp) && !v1) bad();
  return cp;
}

function bad(): never {
  throw new Error(ERR_CORRUPT_CHECKPOINT);
}
