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
