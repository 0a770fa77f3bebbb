/** Rates from two consecutive cumulative samples. */
import type { ContainerSample } from './types.ts';

/** CPU usage in nanocores (ns of CPU per s of wall time) between two samples; undefined if not computable. */
export function usageNanoCores(prev: ContainerSample | undefined, cur: ContainerSample | undefined): number | undefined {
  if (!prev?.cpu || !cur?.cpu) return undefined;
  const dtMs = cur.time - prev.time;
  const dUsage = cur.cpu.usageNanoseconds - prev.cpu.usageNanoseconds;
  if (dtMs <= 0 || dUsage < 0) return undefined;
  return Math.round((dUsage * 1000) / dtMs);
}

/** Per-second rate of a cumulative counter picked from samples. */
export function ratePerSecond(prev: ContainerSample | undefined, cur: ContainerSample | undefined, pick: (s: ContainerSample) => number | undefined): number | undefined {
  if (!prev || !cur) return undefined;
  const a = pick(prev);
  const b = pick(cur);
  const dtMs = cur.time - prev.time;
  if (a === undefined || b === undefined || dtMs <= 0 || b < a) return undefined;
  return ((b - a) * 1000) / dtMs;
}
