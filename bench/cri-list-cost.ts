// bench/cri-list-cost: the agent's cost of one ListPodSandbox + ListContainers pair (the runtime cache's list for
// HandlePodCleanups every 2 s, the log manager, GC) at PODS (110) pods whose runtime answers the same items every
// time (steady state). The runtime is a child process serving kubelet-shaped items over a unix socket
// (not counted); SHUFFLE=1 answers them in a new order each call and writes each item's labels and annotations in a
// new order, as containerd does (its stores and an item's maps are Go maps, iterated in random order).
// Prints bytes allocated and CPU µs (process.cpuUsage) per operation, with the load. Node 20 has no
// total_allocated_bytes: the measuring process runs with a large young generation, so most operations see no GC and
// the used heap's growth over one is what it allocated (operations a GC fell into are left out and counted).
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';

const HEAP_FLAGS = ['--expose-gc', '--min-semi-space-size=256', '--max-semi-space-size=256'];
import * as grpc from '@grpc/grpc-js';
import { loadCriPackage } from '../proto/load.ts';
import { createCriClient } from '@nodelet/core/cri';

const PODS = Number(process.env.PODS ?? 110);
const ITER = Number(process.env.ITER ?? 300);
const NS = 1_764_000_000_000_000_000;

function items() {
  const sandboxes = [];
  const containers = [];
  for (let i = 0; i < PODS; i++) {
    const uid = `0f1e2d3c-4b5a-6978-8796-a5b4c3d2${String(i).padStart(4, '0')}`;
    const name = `bench-pod-${i}`;
    const pod = { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': 'default', 'io.kubernetes.pod.uid': uid, app: 'bench' };
    const sid = `${String(i).padStart(8, '0')}a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e`;
    sandboxes.push({
      id: sid, metadata: { name, uid, namespace: 'default', attempt: 0 }, state: 'SANDBOX_READY', createdAt: NS + i * 1e9,
      labels: pod, annotations: { 'kubernetes.io/config.seen': '2026-11-26T10:00:00.000000000Z', 'kubernetes.io/config.source': 'file' }, runtimeHandler: '',
    });
    containers.push({
      id: `${String(i).padStart(8, '0')}f0e1d2c3b4a5968778695a4b3c2d1e0f0e1d2c3b4a5968778695a4b3c2d1e0`, podSandboxId: sid,
      metadata: { name: 'app', attempt: 0 }, image: { image: 'docker.io/library/busybox:latest', userSpecifiedImage: 'busybox' },
      imageRef: 'sha256:af4709625109bb2bd2d1af3d8e9e2b7a5c9e0c1f06b2f4e8b6d7a0c8e5f4a3b2', state: 'CONTAINER_RUNNING', createdAt: NS + i * 1e9 + 5e8,
      labels: { ...pod, 'io.kubernetes.container.name': 'app' },
      annotations: {
        'io.kubernetes.container.hash': '3b4e5f61', 'io.kubernetes.container.restartCount': '0', 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log',
        'io.kubernetes.container.terminationMessagePolicy': 'File', 'io.kubernetes.pod.terminationGracePeriod': '30',
      },
      imageId: 'sha256:af4709625109bb2bd2d1af3d8e9e2b7a5c9e0c1f06b2f4e8b6d7a0c8e5f4a3b2',
    });
  }
  return { sandboxes, containers };
}

function serve(sock: string) {
  const { sandboxes, containers } = items();
  const shuffle = <T>(xs: T[]) => [...xs].sort(() => Math.random() - 0.5);
  // protobufjs writes a map's entries in the object's key order
  const maps = <T extends { labels: object; annotations: object }>(x: T): T => ({
    ...x,
    labels: Object.fromEntries(shuffle(Object.entries(x.labels))),
    annotations: Object.fromEntries(shuffle(Object.entries(x.annotations))),
  });
  const order = <T extends { labels: object; annotations: object }>(xs: T[]) => (process.env.SHUFFLE === '1' ? shuffle(xs).map(maps) : xs);
  const server = new grpc.Server();
  server.addService(loadCriPackage().runtime.v1.RuntimeService.service, {
    ListPodSandbox: (_c: unknown, cb: grpc.sendUnaryData<unknown>) => cb(null, { items: order(sandboxes) }),
    ListContainers: (_c: unknown, cb: grpc.sendUnaryData<unknown>) => cb(null, { containers: order(containers) }),
  });
  server.bindAsync(`unix://${sock}`, grpc.ServerCredentials.createInsecure(), (e) => (e ? process.exit(1) : process.send?.('ready')));
}

async function measure(label: string, op: () => Promise<unknown>): Promise<string> {
  for (let i = 0; i < 50; i++) await op();
  (globalThis as { gc?: () => void }).gc!();
  let bytes = 0;
  let counted = 0;
  const c0 = process.cpuUsage();
  for (let i = 0; i < ITER; i++) {
    const b0 = getHeapStatistics().used_heap_size;
    await op();
    const d = getHeapStatistics().used_heap_size - b0;
    // a GC inside the operation shrinks the heap: that sample says nothing about the allocation, leave it out
    if (d >= 0) (bytes += d), counted++;
  }
  const c = process.cpuUsage(c0);
  return `${label.padEnd(44)} ${(bytes / counted / 1024).toFixed(1).padStart(8)} KiB ${((c.user + c.system) / ITER).toFixed(0).padStart(7)} µs  (${ITER - counted} samples with a GC left out)`;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-bench-cri-list-'));
  const sock = join(dir, 'cri.sock');
  const child = fork(process.argv[1]!, ['serve', sock], { execArgv: ['--import', 'tsx'] });
  await new Promise((r) => child.once('message', r));
  const cri = createCriClient(`unix://${sock}`);
  try {
    const rows = [
      `${PODS} pods, ${ITER} operations, order ${process.env.SHUFFLE === '1' ? 'items and map entries shuffled per call' : 'stable'}, load ${loadavg()[0]!.toFixed(2)}`,
      await measure('ListPodSandbox + ListContainers', () => Promise.all([cri.listPodSandbox({}), cri.listContainers({})])),
      `load after ${loadavg()[0]!.toFixed(2)}`,
    ];
    console.log(rows.join('\n'));
  } finally {
    cri.close();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'serve') serve(process.argv[3]!);
else if (!('gc' in globalThis)) spawnSync(process.execPath, [...HEAP_FLAGS, '--import', 'tsx', process.argv[1]!], { stdio: 'inherit' });
else await main();
