/** A recording StatsApi for route and stream tests: fixed containers and samples, counted watches. */
import type { CgroupStatus, MetricsPath, ProcessInfo, StatsApi, StatsContainer } from '@nodelet/core/kubelet';
import type { Summary, ContainerSample, MachineInfo } from '@nodelet/core/stats';

export const T0 = Date.UTC(2026, 0, 1);

export const sample = (time: number, cpuNs: number): ContainerSample => ({
  time,
  cpu: { usageNanoseconds: cpuNs, userNanoseconds: cpuNs / 2, systemNanoseconds: cpuNs / 2, periods: 0, throttledPeriods: 0, throttledNanoseconds: 0 },
  memory: { usageBytes: 100, workingSetBytes: 80, rssBytes: 50, cacheBytes: 20, mappedFileBytes: 0, swapBytes: 0, maxUsageBytes: 120, failcnt: 0, oomEvents: 0, oomKills: 0, pageFaults: 1, majorPageFaults: 0, limitBytes: -1 },
  processes: { processes: 1, threads: 2 },
});

export class FakeStats implements StatsApi {
  readonly watches = new Map<string, number>();
  readonly listeners = new Map<string, Set<(key: string, s: ContainerSample) => void>>();
  list: StatsContainer[] = [
    { key: '/', kind: 'node', labels: {} },
    { key: '/kubepods', kind: 'qos', parent: '/', labels: {} },
    { key: '/kubepods/podu', kind: 'pod', parent: '/kubepods', labels: { pod: 'p', namespace: 'ns' } },
    { key: '/kubepods/podu/c1', kind: 'container', parent: '/kubepods/podu', labels: { name: 'c1', image: 'img', pod: 'p', namespace: 'ns', container: 'app' }, spec: { cpuShares: 102, memoryLimit: 1000 } },
  ];
  samples: ContainerSample[] = [sample(T0, 1e9), sample(T0 + 1000, 1.5e9)];

  summary(opts: { onlyCpuAndMemory?: boolean } = {}): Promise<Summary> {
    return Promise.resolve({ node: { nodeName: opts.onlyCpuAndMemory ? 'only' : 'full', startTime: new Date(T0).toISOString() }, pods: [] });
  }
  podStats() {
    return Promise.resolve(undefined);
  }
  metrics(path: MetricsPath) {
    return Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: `# ${path}\n` });
  }
  /** The cadvisor page, "gzipped" as `gz:` + the text (the route only negotiates and labels it). */
  cadvisorPage(opts: { gzip: boolean }) {
    const text = Buffer.from('# cadvisor page\n');
    return Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', ...(opts.gzip ? { body: Buffer.concat([Buffer.from('gz:'), text]), contentEncoding: 'gzip' as const } : { body: text }) });
  }
  machineInfo(): MachineInfo {
    return { numCores: 2, numPhysicalCores: 2, numSockets: 1, cpuFrequencyKhz: 1, memoryCapacityBytes: 4096, swapCapacityBytes: 0, machineId: 'm', systemUuid: 's', bootId: 'b', kernelVersion: 'k', osImage: 'o', interfaces: [], filesystems: [] };
  }
  containers() {
    return this.list;
  }
  history(key: string) {
    return this.list.some((c) => c.key === key) ? this.samples : [];
  }
  watch(key: string, listener: (key: string, s: ContainerSample) => void) {
    this.watches.set(key, (this.watches.get(key) ?? 0) + 1);
    const set = this.listeners.get(key) ?? new Set();
    set.add(listener);
    this.listeners.set(key, set);
    return () => {
      this.watches.set(key, (this.watches.get(key) ?? 1) - 1);
      set.delete(listener);
    };
  }
  /** Resolves once `key` has at least `n` live watches (bounded wait: 10 s), as FakeKubelet.waitForSubscribers. */
  async waitForWatches(key: string, n: number): Promise<void> {
    for (let i = 0; i < 1000 && (this.watches.get(key) ?? 0) < n; i++) await new Promise((r) => setTimeout(r, 10));
    if ((this.watches.get(key) ?? 0) < n) throw new Error(`expected ${n} watches of ${key}, have ${this.watches.get(key) ?? 0}`);
  }
  emit(key: string, s: ContainerSample): void {
    for (const l of this.listeners.get(key) ?? []) l(key, s);
  }
  processes(): Promise<ProcessInfo[]> {
    return Promise.resolve([{ pid: 7, ppid: 1, uid: 0, user: 'root', cmd: 'sleep 1', cgroup: '/kubepods/podu/c1', threads: 1, rssBytes: 4096, virtualBytes: 8192, cpuNanoseconds: 0, kernelThread: false }]);
  }
  cgroups(): CgroupStatus {
    return { driver: 'v1', qosTree: true };
  }
  ooms() {
    return [];
  }
  oomKilled() {
    return undefined;
  }
}
