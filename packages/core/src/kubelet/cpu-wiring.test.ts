// The kubelet's wiring of the CPU manager: the internal container lifecycle (PreCreateContainer's cpuset_cpus,
// PreStartContainer's AddContainer), the admit handler's place (before the device manager's and the predicates,
// as GetAllocateResourcesPodAdmitHandler comes first), the reservation from kubeReserved + systemReserved cpu.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { ContainerConfig } from '../cri/types.ts';
import type { HostFs } from '../cm/types.ts';
import { ONE_NUMA_HT, fakeMachineInfo } from '../cm/topology/testing/fake-sysfs.ts';
import { makePod } from '../cm/cpumanager/testing/pods.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { buildCpuManager, cpuLifecycle, withCpuAdmission } from './cpu-wiring.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';

function build(stats: KubeletConfig['stats'], cpuManager: KubeletConfig['cpuManager']) {
  const rootDir = mkdtempSync(path.join(tmpdir(), 'h3-cpuwiring-'));
  const deps = { hostFs: {} as HostFs, clock: new FakeClock(), logger: nullLogger, machineInfo: () => fakeMachineInfo(ONE_NUMA_HT) } as unknown as KubeletDeps;
  const config = { rootDir, ...(stats ? { stats } : {}), ...(cpuManager ? { cpuManager } : {}) } as KubeletConfig;
  const done = () => rmSync(rootDir, { recursive: true, force: true });
  try {
    const cpu = buildCpuManager(deps, config, { cri: { updateContainerResources: async () => ({}) }, activePods: () => [], sourcesReady: () => true, podStatus: () => undefined })!;
    return { cpu, done };
  } catch (err) {
    done();
    throw err;
  }
}

test('static: the container config gets its CPUs at creation; the id is remembered before start', () => {
  // ceil(kubeReserved 500m + systemReserved 300m) = 1 CPU reserved (CPU 0, the lowest core's first thread).
  const t = build({ kubeReserved: { cpu: '500m' }, systemReserved: { cpu: '300m' } }, { policy: 'static' });
  try {
    t.cpu.start();
    const pod = makePod('uid-1', 'app', '1', '1');
    assert.deepEqual(t.cpu.admitHandler.admit({ pod, otherPods: [], node: {} as never }), { admit: true });
    const config: ContainerConfig = { metadata: { name: 'app' }, linux: { resources: { cpuShares: 1024 } } };
    const life = cpuLifecycle(t.cpu);
    life.preCreateContainer(pod, pod.spec!.containers[0]!, config);
    assert.deepEqual(config.linux?.resources, { cpuShares: 1024, cpusetCpus: '2' });
    life.preStartContainer(pod, pod.spec!.containers[0]!, 'cid-1');
    assert.equal(t.cpu.getExclusiveCPUs('uid-1', 'app').toString(), '2');
    t.cpu.stop();
  } finally {
    t.done();
  }
});

test('none: no cpuset in the container config; the admit handler goes before devicemanager and predicate', () => {
  const t = build(undefined, undefined);
  try {
    t.cpu.start();
    const pod = makePod('uid-1', 'app', '1', '1');
    const config: ContainerConfig = { metadata: { name: 'app' } };
    cpuLifecycle(t.cpu).preCreateContainer(pod, pod.spec!.containers[0]!, config);
    assert.equal(config.linux, undefined);
    const h = (name: string) => ({ name, admit: () => ({ admit: true as const }) });
    assert.deepEqual(withCpuAdmission([h('eviction'), h('devicemanager'), h('predicate')], t.cpu).map((x) => x.name), ['eviction', 'cpumanager', 'devicemanager', 'predicate']);
    assert.deepEqual(withCpuAdmission([h('eviction'), h('predicate')], t.cpu).map((x) => x.name), ['eviction', 'cpumanager', 'predicate']);
  } finally {
    t.done();
  }
});

test('static without any cpu reservation: the kubelet refuses to start with its message', () => {
  assert.throws(() => build(undefined, { policy: 'static' }), { message: '[cpumanager] the static policy requires systemreserved.cpu + kubereserved.cpu to be greater than zero' });
});
