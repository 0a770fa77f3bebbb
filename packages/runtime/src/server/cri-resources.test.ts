/**
 * Integration: cgroups (limits, stats, OOM, cleanup) and the live event stream. Root, cgroup v1 or v2.
 * Run: node --import tsx --test packages/runtime/src/server/cri-resources.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Cgroups } from '../linux/cgroups.ts';
import { containerConfig, sandboxConfig, startInProcess, until, type Harness } from '../testing/harness.ts';

let h: Harness;
let logDir: string;
const cg = Cgroups.detect();
const skip = cg ? false : 'cgroups are not writable here';

before(async () => {
  h = await startInProcess();
  logDir = join(h.dir, 'logs');
});
after(async () => {
  await h?.cleanup();
});

async function pod(name: string, extra: Record<string, unknown> = {}) {
  const config = sandboxConfig(name, logDir, extra);
  const { podSandboxId } = await h.rt.RunPodSandbox({ config });
  return { id: podSandboxId as string, config };
}

async function start(p: { id: string; config: object }, name: string, cmd: string[], extra: Record<string, unknown> = {}) {
  const { containerId } = await h.rt.CreateContainer({ podSandboxId: p.id, config: containerConfig(name, cmd, extra), sandboxConfig: p.config });
  await h.rt.StartContainer({ containerId });
  return containerId as string;
}

const exited = (id: string) =>
  until(async () => {
    const s = (await h.rt.ContainerStatus({ containerId: id })).status;
    return s.state === 'CONTAINER_EXITED' && s;
  }, `container ${id} to exit`);

const MiB = 1024 * 1024;
const limits = (mem: number) => ({
  linux: { resources: { memoryLimitInBytes: mem, cpuQuota: 50000, cpuPeriod: 100000, cpuShares: 512 }, securityContext: { namespaceOptions: { pid: 'CONTAINER' } } },
});

test('limits are applied in the container cgroup; stats come from it; cgroups are removed', { skip }, async () => {
  const parent = `/nodelet-test-${process.pid}/pod1`;
  const p = await pod('limited', { linux: { cgroupParent: parent } });
  const id = await start(p, 'busy', ['sh', '-c', 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; exec sleep 1000'], limits(64 * MiB));
  const dirs = cg!.dirs(`${parent}/${id}`);
  assert.ok(dirs.every((d) => existsSync(d)), 'container cgroup exists in every hierarchy');
  const memFile = cg!.layout.version === 'v1' ? 'memory.limit_in_bytes' : 'memory.max';
  const memDir = dirs.find((d) => existsSync(join(d, memFile)))!;
  assert.equal(Number(readFileSync(join(memDir, memFile), 'utf8')), 64 * MiB);
  const pids = cg!.pids(`${parent}/${id}`);
  assert.ok(pids.length >= 1, 'the container process is in its cgroup');
  const first = await until(async () => {
    const s = (await h.rt.ContainerStats({ containerId: id })).stats;
    return s.cpu?.usageCoreNanoSeconds?.value > 0 && s;
  }, 'cpu usage');
  assert.ok(first.memory.workingSetBytes.value > 0);
  assert.ok(first.memory.availableBytes.value <= 64 * MiB);
  const list = (await h.rt.ListContainerStats({ filter: { podSandboxId: p.id } })).stats;
  assert.deepEqual(list.map((s: { attributes: { id: string } }) => s.attributes.id), [id]);
  await h.rt.UpdateContainerResources({ containerId: id, linux: { memoryLimitInBytes: 96 * MiB, cpuShares: 256 } });
  assert.equal(Number(readFileSync(join(memDir, memFile), 'utf8')), 96 * MiB, 'UpdateContainerResources applies at once');
  const podStats = (await h.rt.PodSandboxStats({ podSandboxId: p.id })).stats;
  assert.equal(podStats.linux.containers.length, 1);
  assert.ok(podStats.linux.process.processCount.value >= 1);
  assert.ok(podStats.linux.cpu.usageCoreNanoSeconds.value > 0);
  assert.ok(podStats.linux.network.interfaces.some((i: { name: string }) => i.name === 'lo'), 'counters from the pod network namespace');
  await h.rt.RemovePodSandbox({ podSandboxId: p.id });
  assert.ok(dirs.every((d) => !existsSync(d)), 'container cgroups removed');
  assert.ok(cg!.dirs(`/nodelet-test-${process.pid}`).every((d) => !existsSync(d)), 'pod cgroup parents this runtime created are removed');
});

const cpusAllowed = (pid: number) => /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
const cpusetSkip = skip || (cpus().length < 2 ? 'needs 2 CPUs' : cg!.layout.version === 'v1' && !existsSync('/sys/fs/cgroup/cpuset/cpuset.cpus') ? 'no cgroup v1 cpuset hierarchy' : false);

test('cpuset_cpus at creation and by UpdateContainerResources (other fields kept): Cpus_allowed_list of the container', { skip: cpusetSkip }, async () => {
  const parent = `/nodelet-test-${process.pid}/cpuset`;
  const p = await pod('pinned', { linux: { cgroupParent: parent } });
  const id = await start(p, 'pinned', ['sh', '-c', 'exec sleep 1000'], { linux: { resources: { memoryLimitInBytes: 64 * MiB, cpusetCpus: '0' } } });
  const pid = await until(async () => cg!.pids(`${parent}/${id}`)[0], 'the container process');
  assert.equal(cpusAllowed(pid), '0');
  await h.rt.UpdateContainerResources({ containerId: id, linux: { cpusetCpus: '1' } });
  assert.equal(cpusAllowed(pid), '1', 'the running process follows its new cpuset');
  const st = await h.rt.ContainerStatus({ containerId: id, verbose: true });
  assert.equal(st.status.state, 'CONTAINER_RUNNING');
  const memFile = cg!.layout.version === 'v1' ? 'memory.limit_in_bytes' : 'memory.max';
  const memDir = cg!.dirs(`${parent}/${id}`).find((d) => existsSync(join(d, memFile)))!;
  assert.equal(Number(readFileSync(join(memDir, memFile), 'utf8')), 64 * MiB, 'the memory limit is kept');
  await h.rt.RemovePodSandbox({ podSandboxId: p.id });
  if (cg!.layout.version === 'v1') {
    assert.ok(!existsSync(`/sys/fs/cgroup/cpuset${parent}/${id}`), 'the cpuset cgroup is removed');
    // The pod's cpuset levels are the pod cgroup owner's (the kubelet's container manager); this test made them.
    for (const d of [`/sys/fs/cgroup/cpuset${parent}`, `/sys/fs/cgroup/cpuset/nodelet-test-${process.pid}`]) if (existsSync(d)) rmdirSync(d);
  }
});

test('a container over its memory limit is OOMKilled', { skip }, async () => {
  const p = await pod('oom');
  const id = await start(p, 'hog', ['sh', '-c', 'echo start; dd if=/dev/zero of=/dev/null bs=256M count=4'], limits(32 * MiB));
  const st = await exited(id);
  assert.equal(st.reason, 'OOMKilled');
  assert.equal(st.exitCode, 137);
  await h.rt.RemovePodSandbox({ podSandboxId: p.id });
});

test('GetContainerEvents streams created, started, stopped, deleted', async () => {
  const stream = h.rt.events();
  const got: Array<{ containerId: string; containerEventType: string; podSandboxStatus: { id: string } | null; containersStatuses: Array<{ state: string }> }> = [];
  stream.on('data', (e) => got.push(e));
  stream.on('error', () => {});
  await new Promise((r) => setTimeout(r, 100));
  const p = await pod('evented');
  const id = await start(p, 'quick', ['true']);
  await exited(id);
  await h.rt.RemoveContainer({ containerId: id });
  await until(() => got.some((e) => e.containerEventType === 'CONTAINER_DELETED_EVENT'), 'deleted event');
  const mine = got.filter((e) => e.containerId === id);
  assert.deepEqual(mine.map((e) => e.containerEventType), [
    'CONTAINER_CREATED_EVENT', 'CONTAINER_STARTED_EVENT', 'CONTAINER_STOPPED_EVENT', 'CONTAINER_DELETED_EVENT',
  ]);
  assert.equal(mine[0]!.podSandboxStatus?.id, p.id);
  assert.deepEqual(mine.map((e) => e.containersStatuses[0]?.state), ['CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED', 'CONTAINER_EXITED']);
  await h.rt.RemovePodSandbox({ podSandboxId: p.id });
  await until(() => got.filter((e) => e.containerId === p.id).length === 4, 'sandbox events');
  assert.deepEqual(got.filter((e) => e.containerId === p.id).map((e) => e.containerEventType), [
    'CONTAINER_CREATED_EVENT', 'CONTAINER_STARTED_EVENT', 'CONTAINER_STOPPED_EVENT', 'CONTAINER_DELETED_EVENT',
  ], 'the sandbox appears under its own id');
  stream.cancel();
});

// containerd's PodSandboxStatus reports no IP for a host-network sandbox (seen on containerd 1.6 here): the kubelet
// gives the pod the node's IPs (--node-ip), not the runtime's guess of a host address.
test('host network pod: no IP from the runtime, no own network namespace', async () => {
  const p = await pod('hostnet', { hostname: '', linux: { securityContext: { namespaceOptions: { network: 'NODE' } } } });
  const st = await h.rt.PodSandboxStatus({ podSandboxId: p.id, verbose: true });
  assert.equal(st.status.network.ip, '');
  assert.equal(st.status.linux.namespaces.options.network, 'NODE');
  const id = await start(p, 'net', ['sh', '-c', 'readlink /proc/self/ns/net']);
  await exited(id);
  const log = readFileSync(join(logDir, 'net/0.log'), 'utf8');
  const { readlinkSync } = await import('node:fs');
  assert.ok(log.includes(readlinkSync('/proc/self/ns/net')), 'shares the host network namespace');
  await h.rt.RemovePodSandbox({ podSandboxId: p.id });
});
