/**
 * cAdvisor REST API JSON (v1.3 machine/containers, v2.0 spec/stats/ps) from StatsApi data. Field names are
 * cAdvisor's (snake_case); container names are cgroup names ('/', '/kubepods/burstable/pod<uid>/<cid>').
 */
import type { ProcessInfo, StatsContainer } from '@nodelet/core/kubelet';
import type { ContainerSample, MachineInfo } from '@nodelet/core/stats';

const iso = (ms: number | undefined) => new Date(ms ?? 0).toISOString();

export function machineJson(m: MachineInfo, now: number) {
  return {
    timestamp: iso(now),
    num_cores: m.numCores,
    num_physical_cores: m.numPhysicalCores,
    num_sockets: m.numSockets,
    cpu_frequency_khz: m.cpuFrequencyKhz,
    memory_capacity: m.memoryCapacityBytes,
    swap_capacity: m.swapCapacityBytes,
    machine_id: m.machineId,
    system_uuid: m.systemUuid,
    boot_id: m.bootId,
    filesystems: m.filesystems.map((f) => ({ device: f.device, capacity: f.capacityBytes, type: f.type, inodes: f.inodes, has_inodes: f.inodes > 0 })),
    network_devices: m.interfaces.map((i) => ({ name: i.name, mac_address: i.macAddress, speed: i.speedMbps, mtu: i.mtu })),
    topology: [],
    cloud_provider: 'Unknown',
    instance_type: 'Unknown',
    instance_id: 'None',
  };
}

export function specJson(c: StatsContainer, machine: MachineInfo | undefined, v2: boolean) {
  const s = c.spec ?? {};
  const labels: Record<string, string> = {};
  if (c.labels.pod) labels['io.kubernetes.pod.name'] = c.labels.pod;
  if (c.labels.namespace) labels['io.kubernetes.pod.namespace'] = c.labels.namespace;
  if (c.labels.container) labels['io.kubernetes.container.name'] = c.labels.container;
  const memLimit = s.memoryLimit !== undefined && s.memoryLimit > 0 ? s.memoryLimit : (machine?.memoryCapacityBytes ?? 0);
  return {
    creation_time: iso(c.startTimeMs),
    labels,
    ...(v2 ? { namespace: '', aliases: c.kind === 'container' && c.labels.name ? [c.labels.name] : [] } : {}),
    has_cpu: true,
    cpu: { limit: s.cpuShares ?? 1024, max_limit: 0, mask: machine ? `0-${machine.numCores - 1}` : '', quota: s.cpuQuota ?? -1, period: s.cpuPeriod ?? 100000 },
    has_memory: true,
    memory: { limit: memLimit, reservation: 0, swap_limit: 0 },
    has_network: c.kind === 'node' || c.kind === 'pod',
    has_processes: true,
    processes: {},
    has_filesystem: c.kind === 'node',
    has_diskio: false,
    image: c.labels.image ?? '',
  };
}

function memoryJson(s: ContainerSample) {
  const m = s.memory;
  if (!m) return undefined;
  const data = { pgfault: m.pageFaults, pgmajfault: m.majorPageFaults };
  return { usage: m.usageBytes, max_usage: m.maxUsageBytes, cache: m.cacheBytes, rss: m.rssBytes, swap: m.swapBytes, mapped_file: m.mappedFileBytes, working_set: m.workingSetBytes, failcnt: m.failcnt, container_data: data, hierarchical_data: data };
}

function networkJson(s: ContainerSample) {
  const ifaces = (s.network ?? []).map((i) => ({ name: i.name, rx_bytes: i.rxBytes, rx_packets: i.rxPackets, rx_errors: i.rxErrors, rx_dropped: i.rxDropped, tx_bytes: i.txBytes, tx_packets: i.txPackets, tx_errors: i.txErrors, tx_dropped: i.txDropped }));
  const first = ifaces.find((i) => i.name !== 'lo') ?? ifaces[0];
  return { ...(first ?? { name: '' }), interfaces: ifaces };
}

/** One stats entry; v2 adds has_* flags and cpu_inst (rates against the previous sample). */
export function statsJson(s: ContainerSample, prev: ContainerSample | undefined, v2: boolean) {
  const cpu = s.cpu
    ? { usage: { total: s.cpu.usageNanoseconds, ...(s.cpu.perCpuNanoseconds ? { per_cpu_usage: s.cpu.perCpuNanoseconds } : {}), user: s.cpu.userNanoseconds, system: s.cpu.systemNanoseconds }, cfs: { periods: s.cpu.periods, throttled_periods: s.cpu.throttledPeriods, throttled_time: s.cpu.throttledNanoseconds }, load_average: 0 }
    : undefined;
  const out: Record<string, unknown> = { timestamp: iso(s.time) };
  if (cpu) out['cpu'] = cpu;
  const mem = memoryJson(s);
  if (mem) out['memory'] = mem;
  if (s.network) out['network'] = networkJson(s);
  if (s.processes) out['processes'] = { process_count: s.processes.processes, thread_count: s.processes.threads };
  if (!v2) return out;
  Object.assign(out, { has_cpu: !!cpu, has_memory: !!mem, has_network: !!s.network, has_processes: !!s.processes, has_filesystem: false, has_diskio: false, has_load: false });
  if (s.cpu && prev?.cpu && s.time > prev.time) {
    const dt = (s.time - prev.time) / 1000;
    const rate = (a: number, b: number) => Math.max(0, Math.round((a - b) / dt));
    out['cpu_inst'] = { usage: { total: rate(s.cpu.usageNanoseconds, prev.cpu.usageNanoseconds), user: rate(s.cpu.userNanoseconds, prev.cpu.userNanoseconds), system: rate(s.cpu.systemNanoseconds, prev.cpu.systemNanoseconds) } };
  }
  return out;
}

export function psJson(p: ProcessInfo) {
  return { user: p.user, pid: p.pid, parent_pid: p.ppid, start_time: '', percent_cpu: 0, percent_mem: 0, rss: p.rssBytes, virtual_size: p.virtualBytes, status: '', running_time: '', cgroup_path: p.cgroup, cmd: p.cmd, fd_count: 0, psr: 0, threads: p.threads };
}
