/** Pure formatting helpers (no React, no Next). Timestamps arrive as ISO strings over JSON even where the
 * @kubernetes/client-node types say Date. */

export type TimeLike = Date | string | number | undefined | null;

export function toMillis(t: TimeLike): number | undefined {
  if (t === undefined || t === null || t === '') return undefined;
  const ms = t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t);
  return Number.isFinite(ms) ? ms : undefined;
}

/** kubectl-style age: 45s, 12m, 5h, 3d. */
export function formatAge(from: TimeLike, nowMs: number): string {
  const start = toMillis(from);
  if (start === undefined) return '-';
  const s = Math.max(0, Math.floor((nowMs - start) / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.floor(h / 24)}d`;
}

/** Clock time of an event, UTC, with milliseconds: 14:03:07.120. */
export function formatClock(t: TimeLike): string {
  const ms = toMillis(t);
  if (ms === undefined) return '-';
  return new Date(ms).toISOString().slice(11, 23);
}

/** Full UTC timestamp without the T: 2026-11-22 14:03:07Z. */
export function formatTimestamp(t: TimeLike): string {
  const ms = toMillis(t);
  if (ms === undefined) return '-';
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

/** Runtime container IDs are long: keep the scheme and 12 characters. */
export function shortContainerId(id: string | undefined): string {
  if (!id) return '-';
  const i = id.indexOf('://');
  const scheme = i >= 0 ? id.slice(0, i + 3) : '';
  const rest = i >= 0 ? id.slice(i + 3) : id;
  return scheme + rest.slice(0, 12);
}

/** Binary byte sizes: 512 B, 1.5 KiB, 12.0 MiB, 3.25 GiB. */
export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = Math.abs(n);
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const sign = n < 0 ? '-' : '';
  if (i === 0) return `${sign}${Math.round(v)} B`;
  return `${sign}${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${units[i]}`;
}

/** CPU in cores: 1.25 cores, 350m (millicores under one core), 0.40m (fractions under 10m). */
export function formatCores(cores: number | undefined): string {
  if (cores === undefined || !Number.isFinite(cores)) return '-';
  if (cores === 0) return '0';
  if (cores < 0.01) return `${(cores * 1000).toFixed(2)}m`;
  if (cores < 1) return `${Math.round(cores * 1000)}m`;
  return `${cores.toFixed(2)} cores`;
}
