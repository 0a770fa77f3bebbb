/**
 * A sandbox's or container's CRI config as containerd's verbose status shows it (`info.config` in PodSandboxStatus
 * and ContainerStatus with verbose set): the proto message marshalled by Go's encoding/json, so field names are
 * the proto's snake_case names, map keys (labels, annotations, sysctls, cgroup v2 unified) stay as given, and bytes
 * (KeyValue.value) are base64; one difference: enums are written by name (Go writes their numbers, and leaves out
 * the zero one). `crictl inspectp` / `inspect` print it; bench/pod-start.ts replays it as its floor (floor-config.ts).
 */
const MAPS = new Set(['labels', 'annotations', 'sysctls', 'unified']);

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function goJson(v: unknown): unknown {
  if (Buffer.isBuffer(v)) return v.toString('base64');
  if (Array.isArray(v)) return v.map(goJson);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    // Go's omitempty: zero values are left out.
    if (x === null || x === undefined || x === '' || x === 0 || x === false || (Array.isArray(x) && x.length === 0)) continue;
    out[snake(k)] = MAPS.has(k) && typeof x === 'object' ? { ...(x as object) } : goJson(x);
  }
  return out;
}
