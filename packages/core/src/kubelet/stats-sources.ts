/**
 * Pure mapping from the kubelet's pods and the runtime status cache to what stats needs: the tracked cgroups
 * (QoS tree, pods, running containers, system containers), the Summary's pod sources, and the console list.
 * Container cgroups are `<pod cgroup>/<container id>` (cgroupfs layout, as containerd and the embedded runtime).
 */
import type { V1Container, V1Pod, V1Volume } from '@kubernetes/client-node';
import { milliCpuToQuota, milliCpuToShares, qosCgroupName, QUOTA_PERIOD } from '../cm/cgroup-name.ts';
import { resourceConfigForPod } from '../cm/pod-resources.ts';
import type { ContainerStatus, PodStatus } from '../container/types.ts';
import type { SummaryPodSource } from '../stats/summary-builder.ts';
import type { TrackedContainer } from '../stats/types.ts';
import { tryParseQuantity } from '../util/quantity.ts';
import type { StatsContainer } from './stats-api.ts';

export interface StatsSourceInput {
  pods: V1Pod[];
  status: (uid: string) => PodStatus | undefined;
  podCgroup: (pod: V1Pod) => string;
  podLogsDir: string;
  cgroupRoot?: string;
  /** QoS tree in use (track kubepods and the QoS cgroups). */
  perQos: boolean;
  system?: { name: 'kubelet' | 'runtime' | 'pods' | 'misc'; cgroup: string; startTimeMs: number }[];
  /** The runtime's measurement of a container's writable layer (cached per housekeeping interval). */
  writableLayer?: (containerId: string) => { usedBytes: number; inodesUsed: number } | undefined;
  /** The kubelet's root dir: volumes live in <rootDir>/pods/<uid>/volumes/<plugin>/<name>. */
  rootDir?: string;
}

/** The kubelet's volume plugin directory names of the volume types the node keeps on its own disk. */
const LOCAL_VOLUME_PLUGINS: [keyof V1Volume, string][] = [
  ['emptyDir', 'kubernetes.io~empty-dir'],
  ['configMap', 'kubernetes.io~configmap'],
  ['secret', 'kubernetes.io~secret'],
  ['projected', 'kubernetes.io~projected'],
  ['downwardAPI', 'kubernetes.io~downward-api'],
];

/** Directories of a pod's node-local volumes (emptyDir, configMap, secret, projected, downwardAPI). */
export function podVolumeDirs(pod: V1Pod, rootDir: string): { name: string; path: string }[] {
  const uid = pod.metadata?.uid ?? '';
  const base = `${rootDir.replace(/\/$/, '')}/pods/${uid}/volumes`;
  const out: { name: string; path: string }[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    const plugin = LOCAL_VOLUME_PLUGINS.find(([k]) => v[k] !== undefined && v[k] !== null)?.[1];
    if (plugin) out.push({ name: v.name, path: `${base}/${plugin}/${v.name}` });
  }
  return out;
}

export interface StatsSources {
  tracked: TrackedContainer[];
  summaryPods: SummaryPodSource[];
  list: StatsContainer[];
}

const parentOf = (cg: string): string => (cg.lastIndexOf('/') <= 0 ? '/' : cg.slice(0, cg.lastIndexOf('/')));

function quantity(q: string | undefined, cpu: boolean): number | undefined {
  if (q === undefined) return undefined;
  const r = tryParseQuantity(q);
  if (!r.ok || r.value <= 0) return undefined;
  return cpu ? Math.ceil(r.value * 1000 - 1e-9) : Math.ceil(r.value - 1e-9);
}

/** container_spec_* from the container's resources (what the runtime was asked to apply). */
export function containerSpec(c: V1Container | undefined): StatsContainer['spec'] {
  const req = quantity(c?.resources?.requests?.cpu ?? c?.resources?.limits?.cpu, true);
  const lim = quantity(c?.resources?.limits?.cpu, true);
  const mem = quantity(c?.resources?.limits?.memory, false);
  return {
    cpuShares: milliCpuToShares(req ?? 0),
    cpuPeriod: QUOTA_PERIOD,
    cpuQuota: lim !== undefined ? milliCpuToQuota(lim) : -1,
    memoryLimit: mem ?? -1,
  };
}

/** The newest running container per name. */
function runningContainers(st: PodStatus | undefined): ContainerStatus[] {
  const byName = new Map<string, ContainerStatus>();
  for (const c of st?.containerStatuses ?? []) {
    if (c.state !== 'running') continue;
    const cur = byName.get(c.name);
    if (!cur || c.createdAt > cur.createdAt) byName.set(c.name, c);
  }
  return [...byName.values()];
}

function podStartMs(pod: V1Pod, st: PodStatus | undefined): number {
  const s = pod.status?.startTime;
  if (s) return new Date(s).getTime();
  const sb = st?.sandboxStatuses[0];
  return sb?.createdAt ?? 0;
}

export function statsSources(input: StatsSourceInput): StatsSources {
  const out: StatsSources = { tracked: [], summaryPods: [], list: [] };
  const add = (t: TrackedContainer, kind: StatsContainer['kind']) => {
    out.tracked.push(t);
    const item: StatsContainer = { key: t.key, kind, parent: parentOf(t.cgroup), labels: t.labels ?? {} };
    if (t.startTimeMs !== undefined) item.startTimeMs = t.startTimeMs;
    if (t.spec) item.spec = t.spec;
    out.list.push(item);
  };
  if (input.perQos) {
    for (const q of ['Guaranteed', 'Burstable', 'BestEffort'] as const) {
      const cg = qosCgroupName(q, input.cgroupRoot);
      add({ key: cg, cgroup: cg, labels: {} }, 'qos');
    }
  }
  for (const s of input.system ?? []) {
    if (s.cgroup === '/' || out.tracked.some((t) => t.key === s.cgroup)) continue;
    add({ key: s.cgroup, cgroup: s.cgroup, labels: {}, startTimeMs: s.startTimeMs }, 'system');
  }
  for (const pod of input.pods) addPod(input, pod, out, add);
  return out;
}

function addPod(input: StatsSourceInput, pod: V1Pod, out: StatsSources, add: (t: TrackedContainer, k: StatsContainer['kind']) => void): void {
  const uid = pod.metadata?.uid ?? '';
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? 'default';
  const st = input.status(uid);
  const running = runningContainers(st);
  if (!st || (running.length === 0 && !st.sandboxStatuses.some((s) => s.state === 'ready'))) return;
  const podCg = input.podCgroup(pod);
  const startTime = podStartMs(pod, st);
  const res = resourceConfigForPod(pod);
  const podSpec: NonNullable<TrackedContainer['spec']> = {};
  if (res.cpuShares !== undefined) podSpec.cpuShares = res.cpuShares;
  if (res.cpuQuota !== undefined) podSpec.cpuQuota = res.cpuQuota;
  if (res.cpuPeriod !== undefined) podSpec.cpuPeriod = res.cpuPeriod;
  podSpec.memoryLimit = res.memoryLimit ?? -1;
  add({ key: podCg, cgroup: podCg, network: true, labels: { pod: name, namespace }, startTimeMs: startTime, spec: podSpec }, 'pod');
  const logBase = `${input.podLogsDir.replace(/\/$/, '')}/${namespace}_${name}_${uid}`;
  const containers = running.map((c) => {
    const cg = `${podCg}/${c.id.id}`;
    const spec = containerSpec([...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((x) => x.name === c.name));
    add({ key: cg, cgroup: cg, labels: { name: c.id.id, image: c.image, pod: name, namespace, container: c.name }, startTimeMs: c.startedAt || c.createdAt, ...(spec ? { spec } : {}) }, 'container');
    const w = input.writableLayer?.(c.id.id);
    return { name: c.name, cgroup: cg, startTime: c.startedAt || c.createdAt, logDir: `${logBase}/${c.name}`, ...(w ? { writableLayer: w } : {}) };
  });
  const volumes = input.rootDir !== undefined ? podVolumeDirs(pod, input.rootDir) : [];
  out.summaryPods.push({ ref: { name, namespace, uid }, startTime, cgroup: podCg, containers, ...(volumes.length ? { volumes } : {}) });
}
