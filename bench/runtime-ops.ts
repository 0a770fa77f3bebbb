// The agent's CRI calls over a window, from its own kubelet_runtime_operations_total (the kubelet's metric): which
// operations a steady state makes, per minute. bench/footprint.ts prints it beside each measured window.

/** operation_type → count, from a Prometheus text page. */
export function runtimeOperations(metricsText: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of metricsText.matchAll(/^kubelet_runtime_operations_total\{operation_type="([^"]+)"\} (\S+)$/gm)) out.set(m[1] as string, Number(m[2]));
  return out;
}

/** Rows [operation, calls, per minute] of what changed between two readings `seconds` apart, most first. */
export function operationRates(before: Map<string, number>, after: Map<string, number>, seconds: number): string[][] {
  return [...after]
    .map(([op, n]) => [op, n - (before.get(op) ?? 0)] as const)
    .filter(([, d]) => d > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([op, d]) => [op, String(d), ((d * 60) / seconds).toFixed(1)]);
}

/** operation_type → { seconds, count } of kubelet_runtime_operations_duration_seconds (the histogram's _sum, _count). */
export function operationDurations(metricsText: string): Map<string, { seconds: number; count: number }> {
  const out = new Map<string, { seconds: number; count: number }>();
  for (const m of metricsText.matchAll(/^kubelet_runtime_operations_duration_seconds_(sum|count)\{operation_type="([^"]+)"\} (\S+)$/gm)) {
    const e = out.get(m[2] as string) ?? { seconds: 0, count: 0 };
    if (m[1] === 'sum') e.seconds = Number(m[3]);
    else e.count = Number(m[3]);
    out.set(m[2] as string, e);
  }
  return out;
}

/** Rows [operation, calls per start, ms per start] of the CRI time between two readings, over `starts` pod starts. */
export function perStart(before: Map<string, { seconds: number; count: number }>, after: Map<string, { seconds: number; count: number }>, starts: number): string[][] {
  return [...after]
    .map(([op, a]) => {
      const b = before.get(op) ?? { seconds: 0, count: 0 };
      return [op, (a.count - b.count) / starts, ((a.seconds - b.seconds) * 1000) / starts] as const;
    })
    .filter(([, n]) => n > 0)
    .sort((x, y) => y[2] - x[2])
    .map(([op, n, ms]) => [op, n.toFixed(1), ms.toFixed(1)]);
}
