/**
 * Fake machines for the resource managers' tests: a spec (sockets × NUMA nodes × cores × threads) written as a
 * sysfs tree that readMachineInfo reads (writeFakeSysfs), or turned straight into the MachineInfo it would read
 * (fakeMachineInfo). CPU ids are numbered as Linux numbers Intel hyperthreads: the first thread of every core,
 * then the second (cpu = thread × cores + core); sysfs core_id restarts in each socket, as on real hardware.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CPUSet } from '../cpuset.ts';
import type { MachineInfo } from '../machine-info.ts';

export interface FakeMachineSpec {
  sockets: number;
  numaPerSocket: number;
  coresPerNuma: number;
  threadsPerCore: number;
  /** MemTotal of each node, KiB. */
  memoryPerNodeKiB: number;
  /** 2 MiB huge pages per node (default 0). */
  hugePages2MiPerNode?: number;
  /** CPUs left out of devices/system/cpu/online. */
  offline?: number[];
  /** Write no devices/system/node (a kernel without NUMA). */
  noNumaDirs?: boolean;
}

const GiB_KiB = 1024 * 1024;

/** One socket, one NUMA node, 2 cores × 2 threads: CPUs 0,2 (core 0) and 1,3 (core 1). */
export const ONE_NUMA_HT: FakeMachineSpec = { sockets: 1, numaPerSocket: 1, coresPerNuma: 2, threadsPerCore: 2, memoryPerNodeKiB: 4 * GiB_KiB };
/** Two sockets with a NUMA node each, 2 cores × 2 threads per node: node 0 = CPUs 0,1,4,5; node 1 = 2,3,6,7. */
export const TWO_NUMA_HT: FakeMachineSpec = { sockets: 2, numaPerSocket: 1, coresPerNuma: 2, threadsPerCore: 2, memoryPerNodeKiB: 4 * GiB_KiB };
/** Two sockets with two NUMA nodes each, 2 cores × 2 threads per node (16 CPUs): node N = CPUs 2N,2N+1,2N+8,2N+9. */
export const FOUR_NUMA_HT: FakeMachineSpec = { sockets: 2, numaPerSocket: 2, coresPerNuma: 2, threadsPerCore: 2, memoryPerNodeKiB: 4 * GiB_KiB };

interface FakeCpu {
  cpu: number;
  /** sysfs core_id (per socket). */
  coreId: number;
  socket: number;
  node: number;
}

function layout(spec: FakeMachineSpec): FakeCpu[] {
  const coresPerSocket = spec.numaPerSocket * spec.coresPerNuma;
  const totalCores = spec.sockets * coresPerSocket;
  const out: FakeCpu[] = [];
  for (let t = 0; t < spec.threadsPerCore; t++) {
    for (let k = 0; k < totalCores; k++) {
      out.push({ cpu: t * totalCores + k, coreId: k % coresPerSocket, socket: Math.floor(k / coresPerSocket), node: Math.floor(k / spec.coresPerNuma) });
    }
  }
  return out.sort((a, b) => a.cpu - b.cpu);
}

function numNodes(spec: FakeMachineSpec): number {
  return spec.sockets * spec.numaPerSocket;
}

/** SLIT distances: 10 to itself, 11 within the socket, 21 across sockets. */
function distances(spec: FakeMachineSpec, node: number): number[] {
  const socketOf = (n: number) => Math.floor(n / spec.numaPerSocket);
  return Array.from({ length: numNodes(spec) }, (_, n) => (n === node ? 10 : socketOf(n) === socketOf(node) ? 11 : 21));
}

/** Writes the machine under `root` (devices/system/{cpu,node}) for readMachineInfo(root). */
export function writeFakeSysfs(root: string, spec: FakeMachineSpec): void {
  const cpus = layout(spec);
  const offline = new Set(spec.offline ?? []);
  const cpuRoot = path.join(root, 'devices/system/cpu');
  mkdirSync(cpuRoot, { recursive: true });
  for (const c of cpus) {
    const topo = path.join(cpuRoot, `cpu${c.cpu}`, 'topology');
    mkdirSync(topo, { recursive: true });
    writeFileSync(path.join(topo, 'core_id'), `${c.coreId}\n`);
    writeFileSync(path.join(topo, 'physical_package_id'), `${c.socket}\n`);
    const siblings = cpus.filter((o) => o.socket === c.socket && o.coreId === c.coreId).map((o) => o.cpu);
    writeFileSync(path.join(topo, 'thread_siblings_list'), `${CPUSet.from(siblings).toString()}\n`);
  }
  writeFileSync(path.join(cpuRoot, 'online'), `${CPUSet.from(cpus.map((c) => c.cpu).filter((c) => !offline.has(c))).toString()}\n`);
  writeFileSync(path.join(cpuRoot, 'possible'), `${CPUSet.from(cpus.map((c) => c.cpu)).toString()}\n`);
  if (spec.noNumaDirs) return;
  for (let node = 0; node < numNodes(spec); node++) {
    const dir = path.join(root, 'devices/system/node', `node${node}`);
    mkdirSync(dir, { recursive: true });
    const mine = cpus.filter((c) => c.node === node).map((c) => c.cpu);
    for (const cpu of mine) symlinkSync(`../../cpu/cpu${cpu}`, path.join(dir, `cpu${cpu}`));
    writeFileSync(path.join(dir, 'cpulist'), `${CPUSet.from(mine).toString()}\n`);
    const kib = spec.memoryPerNodeKiB;
    writeFileSync(path.join(dir, 'meminfo'), `Node ${node} MemTotal:       ${kib} kB\nNode ${node} MemFree:        ${Math.floor(kib / 2)} kB\nNode ${node} MemUsed:        ${kib - Math.floor(kib / 2)} kB\n`);
    writeFileSync(path.join(dir, 'distance'), `${distances(spec, node).join(' ')}\n`);
    for (const [size, n] of [[2048, spec.hugePages2MiPerNode ?? 0], [1048576, 0]] as const) {
      mkdirSync(path.join(dir, 'hugepages', `hugepages-${size}kB`), { recursive: true });
      writeFileSync(path.join(dir, 'hugepages', `hugepages-${size}kB`, 'nr_hugepages'), `${n}\n`);
    }
  }
}

/** The MachineInfo readMachineInfo returns for writeFakeSysfs(root, spec) (with NUMA directories). */
export function fakeMachineInfo(spec: FakeMachineSpec): MachineInfo {
  const offline = new Set(spec.offline ?? []);
  const cpus = layout(spec).filter((c) => !offline.has(c.cpu));
  const topology = Array.from({ length: numNodes(spec) }, (_, node) => {
    const mine = cpus.filter((c) => c.node === node);
    const cores: MachineInfo['topology'][number]['cores'] = [];
    for (const c of mine) {
      const core = cores.find((o) => o.id === c.coreId && o.socketId === c.socket);
      if (core) core.threads.push(c.cpu);
      else cores.push({ id: c.coreId, socketId: c.socket, threads: [c.cpu] });
    }
    return {
      id: node,
      memoryBytes: spec.memoryPerNodeKiB * 1024,
      cpus: CPUSet.from(mine.map((c) => c.cpu)),
      cores,
      hugePages: [{ pageSizeKiB: 2048, numPages: spec.hugePages2MiPerNode ?? 0 }, { pageSizeKiB: 1048576, numPages: 0 }],
      distances: distances(spec, node),
    };
  });
  const cores = topology.flatMap((n) => n.cores);
  return {
    numCores: cpus.length,
    numPhysicalCores: cores.length,
    numSockets: new Set(cores.map((c) => c.socketId)).size,
    memoryCapacityBytes: topology.reduce((s, n) => s + n.memoryBytes, 0),
    topology,
  };
}
