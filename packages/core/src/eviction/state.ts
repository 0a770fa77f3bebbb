/** The eviction message (as the kubelet's evictionMessage) and the per-signal view the console shows. */
import { formatBytes } from '../util/quantity.ts';
import { signalResource, thresholdKey } from './signals.ts';
import { thresholdQuantity } from './thresholds.ts';
import { SIGNALS, type Observations, type Signal, type SignalState, type Threshold } from './types.ts';

const isBytes = (s: Signal): boolean => s.endsWith('.available') && s !== 'pid.available';

function formatAmount(signal: Signal, n: number): string {
  return isBytes(signal) ? formatBytes(Math.round(n)) : String(Math.round(n));
}

/** "The node was low on resource: memory. Threshold quantity: 100Mi, available: 72156Ki. " */
export function evictionMessage(t: Threshold, obs: Observations): string {
  const o = obs[t.signal];
  let msg = `The node was low on resource: ${signalResource(t.signal)}. `;
  if (o) {
    const q = 'quantity' in t.value ? t.value.raw : formatAmount(t.signal, thresholdQuantity(t.value, o.capacity));
    msg += `Threshold quantity: ${q}, available: ${formatAmount(t.signal, o.available)}. `;
  }
  return msg;
}

export function signalStates(
  thresholds: Threshold[],
  obs: Observations,
  met: Threshold[],
  firstObservedAt: ReadonlyMap<string, number>,
  now: number,
): SignalState[] {
  const metKeys = new Set(met.map(thresholdKey));
  return SIGNALS.filter((s) => obs[s] || thresholds.some((t) => t.signal === s)).map((signal) => {
    const o = obs[signal];
    const st: SignalState = {
      signal,
      thresholds: thresholds
        .filter((t) => t.signal === signal)
        .map((t) => {
          const first = firstObservedAt.get(thresholdKey(t));
          const isMet = metKeys.has(thresholdKey(t));
          return {
            kind: t.kind,
            quantity: o ? thresholdQuantity(t.value, o.capacity) : 'quantity' in t.value ? t.value.quantity : 0,
            raw: t.value.raw,
            gracePeriodMs: t.gracePeriodMs,
            met: isMet,
            ...(isMet && first !== undefined
              ? { graceRemainingMs: Math.max(0, t.gracePeriodMs - (now - first)), firstObservedAt: new Date(first).toISOString() }
              : {}),
          };
        }),
    };
    if (o) st.observed = o;
    return st;
  });
}
