import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import {
  allContainers,
  getContainer,
  isCriticalPod,
  isMirrorPod,
  isStaticPod,
  podFullName,
  podNamespacedName,
  podSource,
  staticPodName,
} from './pod-helpers.ts';

const pod = (annotations?: Record<string, string>, extra: Partial<V1Pod['spec']> = {}): V1Pod => ({
  metadata: { name: 'web', namespace: 'prod', uid: 'u', annotations },
  spec: { containers: [{ name: 'app' }], initContainers: [{ name: 'setup' }], ...extra },
});

test('full names', () => {
  assert.equal(podNamespacedName(pod()), 'prod/web');
  assert.equal(podFullName(pod()), 'web_prod');
  assert.equal(podNamespacedName({ metadata: { name: 'x' } }), 'default/x');
  assert.equal(staticPodName('etcd', 'Node-1'), 'etcd-node-1');
});

const sources: Array<[Record<string, string> | undefined, string, boolean, boolean]> = [
  [undefined, 'api', false, false],
  [{ 'kubernetes.io/config.source': 'file' }, 'file', true, false],
  [{ 'kubernetes.io/config.source': 'http' }, 'http', true, false],
  [{ 'kubernetes.io/config.source': 'api', 'kubernetes.io/config.mirror': 'h' }, 'api', false, true],
];
for (const [ann, src, isStatic, isMirror] of sources) {
  test(`source ${JSON.stringify(ann)}`, () => {
    assert.equal(podSource(pod(ann)), src);
    assert.equal(isStaticPod(pod(ann)), isStatic);
    assert.equal(isMirrorPod(pod(ann)), isMirror);
  });
}

test('critical pods: static, mirror, system priority classes', () => {
  assert.equal(isCriticalPod(pod()), false);
  assert.equal(isCriticalPod(pod({ 'kubernetes.io/config.source': 'file' })), true);
  assert.equal(isCriticalPod(pod(undefined, { priorityClassName: 'system-node-critical' })), true);
  assert.equal(isCriticalPod(pod(undefined, { priority: 2_000_001_000 })), true);
});

test('containers', () => {
  assert.equal(getContainer(pod(), 'setup')?.init, true);
  assert.equal(getContainer(pod(), 'app')?.init, false);
  assert.equal(getContainer(pod(), 'nope'), undefined);
  assert.deepEqual(
    allContainers(pod()).map((x) => x.container.name),
    ['setup', 'app'],
  );
});
