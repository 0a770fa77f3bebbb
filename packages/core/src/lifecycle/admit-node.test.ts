import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admitNodeFrom } from './admit-node.ts';

test('admitNodeFrom parses allocatable quantities', () => {
  const r = admitNodeFrom('n1', { disk: 'ssd' }, { cpu: '1500m', memory: '2Gi', pods: '10', 'example.com/dev': '2' });
  assert.deepEqual(r, {
    ok: true,
    node: {
      name: 'n1',
      labels: { 'kubernetes.io/hostname': 'n1', disk: 'ssd' },
      allocatable: { cpuMilli: 1500, memoryBytes: 2 * 1024 ** 3, pods: 10, 'example.com/dev': 2 },
    },
  });
  const d = admitNodeFrom('n1', {}, { cpu: '2' });
  assert.ok(d.ok);
  assert.equal(d.node.allocatable.pods, 110, 'maxPods default');
  assert.equal(admitNodeFrom('n1', {}, { memory: 'lots' }).ok, false);
});
