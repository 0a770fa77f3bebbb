import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeletEvent } from '../../lib/api-types.ts';
import { changesResources, cpuCells, holderName, parseCpuList } from './resources-model.ts';

test('parseCpuList reads the Linux list format (cpuset.cpus, cpu_manager_state)', () => {
  assert.deepEqual(parseCpuList('0-3,8,10-11'), [0, 1, 2, 3, 8, 10, 11]);
  assert.deepEqual(parseCpuList(''), []);
  assert.deepEqual(parseCpuList(' 2 , 0 ,x,5-4'), [0, 2]);
});

test('cpuCells: exclusive CPUs name their container, reserved and shared the rest', () => {
  const pod = { namespace: 'default', name: 'web', uid: 'u1' };
  const cells = cpuCells({ policy: 'static', online: '0-3', shared: '0-1', reserved: '0', exclusive: [{ pod, container: 'app', cpus: '2-3' }] });
  assert.deepEqual(cells.map((c) => [c.id, c.role, c.holder ? holderName(c.holder) : '']), [[0, 'reserved', ''], [1, 'shared', ''], [2, 'exclusive', 'default/web'], [3, 'exclusive', 'default/web']]);
  assert.equal(holderName({ pod: { namespace: '', name: '', uid: 'u9' }, container: 'c' }), 'pod u9');
});

test('changesResources: device events, pod set changes, containers started or gone, admissions', () => {
  const base = { seq: 1, time: 't' };
  const pod = { namespace: 'default', name: 'p', uid: 'u' };
  const yes: NodeletEvent[] = [
    { ...base, type: 'device', resource: 'example.com/fake', change: 'registered', message: '' },
    { ...base, type: 'podConfig', pod, op: 'ADD', source: 'api' },
    { ...base, type: 'pleg', pod, pleg: 'ContainerDied', containerId: 'c' },
    { ...base, type: 'decision', pod, decision: 'refuse' },
  ];
  const no: NodeletEvent[] = [
    { ...base, type: 'pleg', pod, pleg: 'PodSync', containerId: '' },
    { ...base, type: 'decision', pod, decision: 'sync' },
    { ...base, type: 'runtime', ready: true, message: '' },
  ];
  assert.deepEqual(yes.map(changesResources), [true, true, true, true]);
  assert.deepEqual(no.map(changesResources), [false, false, false]);
});
