/**
 * Mock stats for the mock agent: a cgroup tree (node, QoS classes, pods, containers) with synthetic cumulative
 * samples every tick, ring buffers, reference-counted watches, machine info, processes and pod stats.
 */
import type { CgroupStatus, ProcessInfo, StatsContainer, PodStats, Summary, ContainerSample, MachineInfo } from '@nodelet/agent/types';

type Watch = (key: string, sample: ContainerSample) => void;

export interface MockStats {
  machine(): MachineInfo;
  cgroups(): CgroupStatus;
  containers(): StatsContainer[];
  history(key: string, sinceMs?: number, limit?: number): ContainerSample[];
  processes(key?: string): ProcessInfo[];
  podStats(namespace: string, name: string): PodStats | null;
  summary(): Summary;
  watch(key: string, l: Watch): () => void;
  /** Keys with at least one watcher (what the mock samples fast). */
  watched(): string[];
  sample(): void;
}

const GiB = 2 ** 30;
const MiB = 2 ** 20;
const PODS: Array<{ ns: string; name: string; uid: string; qos: 'besteffort' | 'burstable'; containers: string[] }> = [
  { ns: 'default', name: 'web', uid: 'uid-default-web', qos: 'burstable', containers: ['nginx', 'sidecar'] },
  { ns: 'default', name: 'crasher', uid: 'uid-default-crasher', qos: 'besteffort', containers: ['app'] },
  { ns: 'kube-system', name: 'static-web-mock-node-1', uid: 'uid-kube-system-static-web-mock-node-1', qos: 'besteffort', containers: ['web'] },
  { ns: 'default', name: 'init-demo', uid: 'uid-default-init-demo', qos: 'besteffort', containers: ['main'] },
];

function tree(t0: number): StatsContainer[] {
  const out: StatsContainer[] = [
    { key: '/', kind: 'node', labels: { name: '/' }, startTimeMs: t0 },
    { key: '/kubepods', kind: 'qos', parent: '/', labels: {} },
    { key: '/kubepods/burstable', kind: 'qos', parent: '/kubepods', labels: {} },
    { key: '/kubepods/besteffort', kind: 'qos', parent: '/kubepods', labels: {} },
    { key: '/system.slice', kind: 'system', parent: '/', labels: {} },
  ];
  for (const p of PODS) {
    const podKey = `/kubepods/${p.qos}/pod${p.uid}`;
    out.push({ key: podKey, kind: 'pod', parent: `/kubepods/${p.qos}`, labels: { pod: p.name, namespace: p.ns }, startTimeMs: t0, spec: { cpuShares: p.qos === 'burstable' ? 512 : 2, memoryLimit: p.qos === 'burstable' ? 512 * MiB : -1 } });
    for (const c of p.containers) {
      out.push({
        key: `${podKey}/${p.name}-${c}`, kind: 'container', parent: podKey, startTimeMs: t0,
        labels: { name: `${p.name}-${c}`, image: 'nodelet.local/host:latest', pod: p.name, namespace: p.ns, container: c },
        spec: p.qos === 'burstable' ? { cpuShares: 256, cpuQuota: 50_000, cpuPeriod: 100_000, memoryLimit: 256 * MiB } : { cpuShares: 2, cpuQuota: -1, cpuPeriod: 100_000, memoryLimit: -1 },
      });
    }
  }
  return out;
}

export function createMockStats(now: () => number = Date.now): MockStats {
  const t0 = now() - 3600_000;
  const list = tree(t0);
  const rings = new Map<string, ContainerSample[]>(list.map((c) => [c.key, []]));
  const cum = new Map<string, { cpu: number; rx: number; tx: number }>(list.map((c) => [c.key, { cpu: 0, rx: 0, tx: 0 }]));
  const watches = new Map<string, Set<Watch>>();
  let n = 0;

  let lastTime = now() - 250_000;
  function next(c: StatsContainer, time: number, dtS: number): ContainerSample {
    const weight = c.kind === 'node' ? 8 : c.kind === 'qos' ? 4 : c.kind === 'pod' ? 2 : 1;
    const phase = (c.key.length % 7) + n / 6;
    const cores = Math.max(0.01, (0.03 + 0.02 * Math.sin(phase)) * weight);
    const acc = cum.get(c.key)!;
    acc.cpu += cores * dtS * 1e9;
    acc.rx += (20_000 + 15_000 * Math.sin(phase * 1.3)) * weight * dtS;
    acc.tx += (8_000 + 6_000 * Math.cos(phase)) * weight * dtS;
    const ws = (40 + 10 * Math.sin(phase / 2)) * MiB * weight;
    return {
      time,
      cpu: { usageNanoseconds: acc.cpu, userNanoseconds: acc.cpu * 0.7, systemNanoseconds: acc.cpu * 0.3, periods: n * 100, throttledPeriods: c.spec?.cpuQuota && c.spec.cpuQuota > 0 ? n * 3 : 0, throttledNanoseconds: 0 },
      memory: {
        usageBytes: ws * 1.4, workingSetBytes: ws, rssBytes: ws * 0.8, cacheBytes: ws * 0.6, mappedFileBytes: 0, swapBytes: 0, maxUsageBytes: ws * 1.6,
        failcnt: 0, oomEvents: 0, oomKills: 0, pageFaults: n * 50, majorPageFaults: 0, limitBytes: c.spec?.memoryLimit ?? -1,
      },
      processes: { processes: weight * 2, threads: weight * 3 },
      network: c.kind === 'container' || c.kind === 'qos' ? undefined : [
        { name: 'lo', rxBytes: acc.rx * 3, txBytes: acc.rx * 3, rxPackets: 0, rxErrors: 0, rxDropped: 0, txPackets: 0, txErrors: 0, txDropped: 0 },
        { name: 'eth0', rxBytes: acc.rx, txBytes: acc.tx, rxPackets: n * 40, rxErrors: 0, rxDropped: 0, txPackets: n * 30, txErrors: 0, txDropped: 0 },
      ],
    };
  }

  function sampleAll(time: number, emit: boolean): void {
    n += 1;
    const dtS = Math.max(0.001, (time - lastTime) / 1000);
    lastTime = time;
    for (const c of list) {
      const s = next(c, time, dtS);
      const ring = rings.get(c.key)!;
      ring.push(s);
      if (ring.length > 360) ring.shift();
      if (emit) for (const l of watches.get(c.key) ?? []) l(c.key, s);
    }
  }
  for (let i = 24; i > 0; i--) sampleAll(now() - i * 10_000, false);

  const fs = (used: number) => ({ time: new Date(now()).toISOString(), capacityBytes: 250 * GiB, availableBytes: 250 * GiB - used, usedBytes: used, inodes: 16_777_216, inodesFree: 16_000_000, inodesUsed: 777_216 });

  return {
    machine: () => ({
      numCores: 2, numPhysicalCores: 2, numSockets: 1, cpuFrequencyKhz: 2_445_430, memoryCapacityBytes: 24 * GiB, swapCapacityBytes: 0,
      machineId: '3d1219c7c4c5404aaa1f6d2a48adfda4', systemUuid: '', bootId: '00f3417e-9c3a-4d87-b9df-d632ad054ff0',
      kernelVersion: '6.1.0-mock', osImage: 'Debian GNU/Linux 12 (bookworm)',
      interfaces: [{ name: 'eth0', macAddress: '02:fc:00:00:00:01', mtu: 1500, speedMbps: 10000 }],
      filesystems: [{ device: '/dev/vda', mountPoint: '/', type: 'ext4', capacityBytes: 250 * GiB, inodes: 16_777_216 }],
    }),
    cgroups: () => ({ driver: 'v1', mode: 'hybrid', qosTree: true, allocatable: { cpuMilli: 2000, memoryBytes: 23.9 * GiB, ephemeralStorageBytes: 225 * GiB, pods: 110 } }),
    containers: () => list.map((c) => ({ ...c })),
    history: (key, sinceMs, limit) => (rings.get(key) ?? []).filter((s) => sinceMs === undefined || s.time > sinceMs).slice(-(limit ?? 360)),
    processes: (key = '/') => list
      .filter((c) => c.kind === 'container' && (key === '/' || c.key === key || c.key.startsWith(`${key}/`)))
      .flatMap((c, i) => [
        { pid: 1000 + i * 10, ppid: 900, uid: 0, user: 'root', cmd: `/bin/sh -c run-${c.labels.container}`, cgroup: c.key, threads: 1, rssBytes: 2 * MiB, virtualBytes: 4 * MiB, cpuNanoseconds: (now() - t0) * 1e4, kernelThread: false },
        { pid: 1001 + i * 10, ppid: 1000 + i * 10, uid: 65534, user: 'nobody', cmd: `${c.labels.container} --serve`, cgroup: c.key, threads: 4, rssBytes: (20 + i) * MiB, virtualBytes: 120 * MiB, cpuNanoseconds: (now() - t0) * 1e5 * (i + 1), kernelThread: false },
      ]),
    podStats: (ns, name) => {
      const p = PODS.find((x) => x.ns === ns && x.name === name);
      if (!p) return null;
      const t = new Date(now()).toISOString();
      return {
        podRef: { namespace: ns, name, uid: p.uid }, startTime: new Date(t0).toISOString(),
        containers: p.containers.map((c) => ({ name: c, startTime: new Date(t0).toISOString(), rootfs: fs((12 + n / 10) * MiB), logs: fs(64 * 1024) })),
        'ephemeral-storage': fs((30 + n / 5) * MiB),
        cpu: { time: t, usageCoreNanoSeconds: 1e9, usageNanoCores: 1e8 },
      };
    },
    summary: () => ({ node: { nodeName: 'mock-node-1', startTime: new Date(t0).toISOString(), fs: fs(160 * GiB + n * MiB) }, pods: [] }),
    watch(key, l) {
      const set = watches.get(key) ?? new Set<Watch>();
      set.add(l);
      watches.set(key, set);
      return () => {
        set.delete(l);
        if (set.size === 0) watches.delete(key);
      };
    },
    watched: () => [...watches.keys()],
    sample: () => sampleAll(now(), true),
  };
}
