import { readFileSync } from 'node:fs';
import type { NetworkInterfaceUsage } from '../../../../proto/gen/runtime/v1/NetworkInterfaceUsage.ts';
import type { PodSandboxStats } from '../../../../proto/gen/runtime/v1/PodSandboxStats.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { SandboxRecord } from '../state/types.ts';
import { descendantsOf } from '../util/proc.ts';
import { nowNs } from '../util/time.ts';
import { toContainerStats } from './convert.ts';

/** Per-interface counters of a network namespace, from /proc/<pid>/net/dev (loopback skipped unless alone). */
export function parseNetDev(text: string): NetworkInterfaceUsage[] {
  const out: NetworkInterfaceUsage[] = [];
  for (const line of text.split('\n').slice(2)) {
    const m = /^\s*([^:]+):\s*(.*)$/.exec(line);
    if (!m) continue;
    const f = m[2]!.trim().split(/\s+/).map(Number);
    out.push({
      name: m[1]!.trim(),
      rxBytes: { value: f[0] ?? 0 }, rxErrors: { value: f[2] ?? 0 },
      txBytes: { value: f[8] ?? 0 }, txErrors: { value: f[10] ?? 0 },
    });
  }
  return out;
}

/** CRI PodSandboxStats: container stats summed, network from the sandbox's namespace, process count. */
export function podSandboxStats(rt: Runtime, sb: SandboxRecord): PodSandboxStats {
  const ts = nowNs();
  const running = rt.ctx.store.containersOf(sb.id).filter((c) => c.state === 'CONTAINER_RUNNING');
  const samples = running.map((c) => ({ c, s: rt.stats.sample(c) }));
  const sum = (f: (s: NonNullable<(typeof samples)[number]['s']>) => number) => samples.reduce((a, { s }) => a + (s ? f(s) : 0), 0);
  let interfaces: NetworkInterfaceUsage[] = [];
  if (sb.pausePid && sb.state === 'SANDBOX_READY') {
    try {
      interfaces = parseNetDev(readFileSync(`/proc/${sb.pausePid}/net/dev`, 'utf8'));
    } catch {
      /* holder gone */
    }
  }
  const nonLo = interfaces.filter((i) => i.name !== 'lo');
  const processes = running.reduce((n, c) => n + (c.pid ? 1 + descendantsOf(c.pid).length : 0), 0);
  const rate = samples.every(({ s }) => s?.usageNanoCores !== undefined) && samples.length > 0;
  return {
    attributes: { id: sb.id, metadata: sb.config.metadata, labels: sb.config.labels, annotations: sb.config.annotations },
    linux: {
      cpu: {
        timestamp: ts, usageCoreNanoSeconds: { value: sum((s) => s.cpuUsageNs) },
        ...(rate ? { usageNanoCores: { value: sum((s) => s.usageNanoCores ?? 0) } } : {}),
      },
      memory: {
        timestamp: ts, workingSetBytes: { value: sum((s) => s.workingSetBytes) }, usageBytes: { value: sum((s) => s.memoryUsageBytes) },
        rssBytes: { value: sum((s) => s.rssBytes) }, pageFaults: { value: sum((s) => s.pageFaults) },
        majorPageFaults: { value: sum((s) => s.majorPageFaults) },
      },
      network: { timestamp: ts, defaultInterface: nonLo[0] ?? interfaces[0] ?? null, interfaces },
      process: { timestamp: ts, processCount: { value: processes } },
      containers: samples.map(({ c, s }) => toContainerStats(c, s)),
    },
  };
}
