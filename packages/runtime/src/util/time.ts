/** Wall-clock time with nanosecond resolution (wall base + monotonic offset). */
const baseWallNs = BigInt(Date.now()) * 1_000_000n;
const baseHr = process.hrtime.bigint();

export function nowNsBig(): bigint {
  return baseWallNs + (process.hrtime.bigint() - baseHr);
}

/** Nanoseconds since the epoch as a JS number (CRI int64 fields are numbers with longs: Number). */
export function nowNs(): number {
  return Number(nowNsBig());
}

/** RFC3339Nano with exactly nine fraction digits, as containerd writes in CRI logs. */
export function rfc3339Nano(ns: bigint): string {
  const ms = Number(ns / 1_000_000n);
  const iso = new Date(ms).toISOString(); // 2026-11-22T01:21:14.170Z
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return `${iso.slice(0, 19)}.${frac}Z`;
}
