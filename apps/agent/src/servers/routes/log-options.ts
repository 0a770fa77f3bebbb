/**
 * Query parameters of /containerLogs → ContainerLogOptions (the v1 PodLogOptions subset the kubelet honours). As the
 * kubelet (server.go getContainerLogs), the legacy `tail` parameter stands for tailLines, and `tail=all` for none.
 */
import type { ContainerLogOptions } from '@nodelet/core/kubelet';

export type LogOptionsResult = { ok: true; value: ContainerLogOptions } | { ok: false; reason: string };

const TRUE_WORDS = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False', '']);

export function parseLogOptions(query: URLSearchParams): LogOptionsResult {
  const out: ContainerLogOptions = {};
  const q = new URLSearchParams(query);
  const tail = q.get('tail');
  if (tail) {
    if (tail === 'all') q.delete('tailLines');
    else q.set('tailLines', tail);
  }
  for (const name of ['follow', 'previous', 'timestamps'] as const) {
    const v = q.get(name);
    if (v === null) continue;
    if (TRUE_WORDS.has(v)) out[name] = true;
    else if (FALSE_WORDS.has(v)) out[name] = false;
    else return { ok: false, reason: `${name}: Invalid value: "${v}": must be a boolean` };
  }
  const ints: Array<['tailLines' | 'sinceSeconds' | 'limitBytes', number]> = [['tailLines', 0], ['sinceSeconds', 1], ['limitBytes', 1]];
  for (const [name, min] of ints) {
    const v = q.get(name);
    if (v === null) continue;
    if (!/^-?\d+$/.test(v)) return { ok: false, reason: `${name}: Invalid value: "${v}": must be an integer` };
    const n = Number(v);
    if (n < min) {
      return { ok: false, reason: `${name}: Invalid value: ${n}: must be greater than ${min === 0 ? 'or equal to 0' : '0'}` };
    }
    out[name] = n;
  }
  const sinceTime = q.get('sinceTime');
  if (sinceTime !== null) {
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(sinceTime) || Number.isNaN(Date.parse(sinceTime))) {
      return { ok: false, reason: `sinceTime: Invalid value: "${sinceTime}": must be an RFC3339 time` };
    }
    out.sinceTime = sinceTime;
  }
  if (out.sinceTime !== undefined && out.sinceSeconds !== undefined) {
    return { ok: false, reason: 'at most one of `sinceTime` or `sinceSeconds` may be specified' };
  }
  return { ok: true, value: out };
}
