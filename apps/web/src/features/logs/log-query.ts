/**
 * The logs viewer's form → the agent's GET /containerLogs URL (through the console's proxy), with the form's input
 * checked first so a wrong value is named beside the field rather than sent. Messages follow the kubelet's
 * (ValidatePodLogOptions: `tailLines: Invalid value: -1: must be greater than or equal to 0`). Timestamps are always
 * asked for: the view shows or hides them without asking again. Pure.
 */
export interface LogForm {
  container: string;
  previous: boolean;
  follow: boolean;
  /** Lines from the end ('' = all). */
  tailLines: string;
  /** A duration as kubectl's --since (`90s`, `5m`, `1h`, `2h30m`) or an RFC3339 time as --since-time; '' = all. */
  since: string;
}

export interface LogTarget {
  namespace: string;
  pod: string;
  /** The console's agent ('' or 'default' = the console's own). */
  agent?: string;
}

export type Checked = { ok: true; url: string } | { ok: false; field: 'tailLines' | 'since' | 'container'; message: string };

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const UNIT_SECONDS: Record<string, number> = { h: 3600, m: 60, s: 1 };

/** `2h30m` → 9000; null when it is not a duration of whole h/m/s parts. */
export function parseDuration(s: string): number | null {
  if (!/^(\d+[hms])+$/.test(s)) return null;
  let total = 0;
  for (const m of s.matchAll(/(\d+)([hms])/g)) total += Number(m[1]) * (UNIT_SECONDS[m[2] ?? 's'] ?? 1);
  return total;
}

export function logUrl(t: LogTarget, f: LogForm): Checked {
  if (!f.container) return { ok: false, field: 'container', message: 'container: Required value: pick a container' };
  const q = new URLSearchParams({ timestamps: 'true' });
  if (f.follow) q.set('follow', 'true');
  if (f.previous) q.set('previous', 'true');
  const tail = f.tailLines.trim();
  if (tail !== '') {
    if (!/^-?\d+$/.test(tail)) return { ok: false, field: 'tailLines', message: `tailLines: Invalid value: "${tail}": must be an integer` };
    const n = Number(tail);
    if (n < 0) return { ok: false, field: 'tailLines', message: `tailLines: Invalid value: ${n}: must be greater than or equal to 0` };
    q.set('tailLines', String(n));
  }
  const since = f.since.trim();
  if (since !== '') {
    const seconds = parseDuration(since);
    if (seconds !== null) {
      if (seconds < 1) return { ok: false, field: 'since', message: `sinceSeconds: Invalid value: ${seconds}: must be greater than 0` };
      q.set('sinceSeconds', String(seconds));
    } else if (RFC3339.test(since) && !Number.isNaN(Date.parse(since))) {
      q.set('sinceTime', since);
    } else {
      return { ok: false, field: 'since', message: `since: Invalid value: "${since}": a duration (90s, 5m, 1h) or an RFC3339 time (2026-01-02T15:04:05Z)` };
    }
  }
  const base = t.agent && t.agent !== 'default' ? `/agents/${encodeURIComponent(t.agent)}` : '';
  const path = [t.namespace, t.pod, f.container].map(encodeURIComponent).join('/');
  return { ok: true, url: `${base}/containerLogs/${path}?${q}` };
}

/** The download's file name: `<pod>_<container>[_previous].log`, safe as a file name. */
export function downloadName(pod: string, container: string, previous: boolean): string {
  return `${pod}_${container}${previous ? '_previous' : ''}.log`.replace(/[^A-Za-z0-9._-]/g, '_');
}

/**
 * The message of a refused log request: the agent answers plain text, the console `{"error": "..."}`, and an
 * unreachable agent `{"error": {"message": "..."}}` (tRPC's shape).
 */
export function refusalMessage(status: number, body: string): string {
  const text = body.trim();
  try {
    const e = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof e === 'string' && e) return e;
    if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string') return (e as { message: string }).message;
  } catch {
    // plain text (the agent's answer)
  }
  return text || `the agent answered ${status}`;
}
