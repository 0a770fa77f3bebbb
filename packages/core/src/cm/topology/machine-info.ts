/**
 * The machine's NUMA nodes, cores and threads read from sysfs as cAdvisor's machine info (utils/sysinfo
 * GetNodesInfo) reads them for the kubelet: `<root>/devices/system/node/node<N>/` (its cpu<M> entries,
 * meminfo, distance, hugepages) and `<root>/devices/system/cpu/cpu<M>/topology/{core_id,physical_package_id}`;
 * offline CPUs (not in `<root>/devices/system/cpu/online`) are left out. Without node directories (a kernel
 * without NUMA) each socket is a node, as cAdvisor's getCPUTopology. `root` is `/sys` on a host; tests pass a
 * fake sysfs tree (testing/fake-sysfs.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CPUSet } from './cpuset.ts';

/** cAdvisor info.Core: the sysfs core id (unique per socket only), its threads (logical CPUs) and socket. */
export interface MachineCore {
  id: number;
  socketId: number;
  threads: number[];
}

/** Huge pages of one size on a node (cAdvisor info.HugePagesInfo). */
export interface HugePages {
  /** Page size in KiB, as the sysfs directory name (hugepages-2048kB → 2048). */
  pageSizeKiB: number;
  numPages: number;
}

/** cAdvisor info.Node: one NUMA node. */
export interface NumaNode {
  id: number;
  /** MemTotal of the node's meminfo, in bytes. */
  memoryBytes: number;
  /** The node's online CPUs (its cpulist, offline CPUs left out). */
  cpus: CPUSet;
  cores: MachineCore[];
  hugePages: HugePages[];
  /** SLIT distances to every node, by node id order (node<N>/distance); [] when not readable. */
  distances: number[];
}

/** The part of cAdvisor's MachineInfo the resource managers use. */
export interface MachineInfo {
  /** Logical CPUs online (cAdvisor NumCores). */
  numCores: number;
  numPhysicalCores: number;
  numSockets: number;
  /** Sum of the nodes' memory, in bytes. */
  memoryCapacityBytes: number;
  topology: NumaNode[];
}

const NODE_DIR = /^node(\d+)$/;
const CPU_DIR = /^cpu(\d+)$/;
const HUGEPAGES_DIR = /^hugepages-(\d+)kB$/;

/** Reads the machine topology under a sysfs root; throws with the path when CPU topology files are unreadable. */
export function readMachineInfo(root = '/sys'): MachineInfo {
  const cpuRoot = path.join(root, 'devices/system/cpu');
  const nodeRoot = path.join(root, 'devices/system/node');
  const onlineText = readOptional(path.join(cpuRoot, 'online'));
  const online = onlineText === undefined ? undefined : CPUSet.parse(onlineText.trim());
  const isOnline = (cpu: number) => online === undefined || online.contains(cpu);
  const nodeIds = listMatching(nodeRoot, NODE_DIR);
  let nodes: NumaNode[];
  if (nodeIds.length > 0) {
    nodes = nodeIds.map((id) => {
      const dir = path.join(nodeRoot, `node${id}`);
      const cpus = listMatching(dir, CPU_DIR).filter(isOnline);
      return { id, memoryBytes: nodeMemTotal(dir), cpus: CPUSet.from(cpus), cores: coresOf(cpuRoot, cpus), hugePages: hugePagesOf(dir), distances: distancesOf(dir) };
    });
  } else {
    // No NUMA information: one node per physical package (cAdvisor getCPUTopology).
    const bySocket = new Map<number, number[]>();
    for (const cpu of listMatching(cpuRoot, CPU_DIR).filter(isOnline)) {
      const socket = readInt(path.join(cpuRoot, `cpu${cpu}`, 'topology/physical_package_id'));
      bySocket.set(socket, [...(bySocket.get(socket) ?? []), cpu]);
    }
    nodes = [...bySocket].sort(([a], [b]) => a - b).map(([id, cpus]) => ({ id, memoryBytes: 0, cpus: CPUSet.from(cpus), cores: coresOf(cpuRoot, cpus), hugePages: [], distances: [] }));
  }
  const cores = nodes.flatMap((n) => n.cores);
  return {
    numCores: cores.reduce((s, c) => s + c.threads.length, 0),
    numPhysicalCores: cores.length,
    numSockets: new Set(cores.map((c) => c.socketId)).size,
    memoryCapacityBytes: nodes.reduce((s, n) => s + n.memoryBytes, 0),
    topology: nodes,
  };
}

/** getCoresInfo: CPUs grouped by (core_id, physical_package_id), threads ascending. */
function coresOf(cpuRoot: string, cpus: readonly number[]): MachineCore[] {
  const cores: MachineCore[] = [];
  for (const cpu of cpus) {
    const topo = path.join(cpuRoot, `cpu${cpu}`, 'topology');
    const id = readInt(path.join(topo, 'core_id'));
    const socketId = readInt(path.join(topo, 'physical_package_id'));
    const core = cores.find((c) => c.id === id && c.socketId === socketId);
    if (core) core.threads.push(cpu);
    else cores.push({ id, socketId, threads: [cpu] });
  }
  return cores;
}

/** "Node 0 MemTotal:       11364128 kB" → bytes (0 when absent). */
function nodeMemTotal(dir: string): number {
  const m = /MemTotal:\s+(\d+)\s*kB/.exec(readOptional(path.join(dir, 'meminfo')) ?? '');
  return m ? Number(m[1]) * 1024 : 0;
}

function hugePagesOf(dir: string): HugePages[] {
  const hp = path.join(dir, 'hugepages');
  return listMatching(hp, HUGEPAGES_DIR).map((size) => ({ pageSizeKiB: size, numPages: Number((readOptional(path.join(hp, `hugepages-${size}kB`, 'nr_hugepages')) ?? '0').trim()) || 0 }));
}

function distancesOf(dir: string): number[] {
  const text = readOptional(path.join(dir, 'distance'))?.trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

/** The numbers N of the entries named like `re` (e.g. cpu<N>), ascending; [] when the directory is absent. */
function listMatching(dir: string, re: RegExp): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => re.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

function readInt(file: string): number {
  const text = readFileSync(file, 'utf8').trim();
  if (!/^-?\d+$/.test(text)) throw new Error(`unexpected content ${JSON.stringify(text)} in ${file}`);
  return Number(text);
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
