import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { BasicPodManager } from './basic-pod-manager.ts';

const pod = (name: string, uid: string, annotations?: Record<string, string>, namespace = 'default'): V1Pod => ({
  metadata: { name, namespace, uid, annotations },
  spec: { containers: [{ name: 'c' }] },
});
const STATIC = { 'kubernetes.io/config.source': 'file' };
const MIRROR = { 'kubernetes.io/config.source': 'api', 'kubernetes.io/config.mirror': 'h' };

test('add, look up by uid and full name, update, remove', () => {
  const m = new BasicPodManager();
  m.addPod(pod('a', 'u1'));
  m.addPod(pod('b', 'u2', undefined, 'ns'));
  assert.equal(m.getPodByUid('u1')?.metadata?.name, 'a');
  assert.equal(m.getPodByName('ns', 'b')?.metadata?.uid, 'u2');
  m.updatePod({ ...pod('a', 'u1'), spec: { containers: [{ name: 'new' }] } });
  assert.equal(m.getPodByUid('u1')?.spec?.containers[0]?.name, 'new');
  assert.equal(m.getPods().length, 2);
  m.removePod(pod('a', 'u1'));
  assert.equal(m.getPodByUid('u1'), undefined);
  assert.equal(m.getPodByName('default', 'a'), undefined);
  assert.equal(m.getPods().length, 1);
});

test('a pod replaced by another UID under the same name keeps the name index right', () => {
  const m = new BasicPodManager();
  m.addPod(pod('a', 'old'));
  m.addPod(pod('a', 'new'));
  m.removePod(pod('a', 'old'));
  assert.equal(m.getPodByName('default', 'a')?.metadata?.uid, 'new');
});

test('static and mirror pods', () => {
  const m = new BasicPodManager();
  m.setPods([pod('etcd-n1', 's1', STATIC), pod('app', 'a1'), pod('etcd-n1', 'm1', MIRROR)]);
  assert.deepEqual(m.getPods().map((p) => p.metadata?.uid), ['s1', 'a1'], 'mirror pods are not desired pods');
  assert.deepEqual(m.getStaticPods().map((p) => p.metadata?.uid), ['s1']);
  assert.deepEqual(m.getMirrorPods().map((p) => p.metadata?.uid), ['m1']);
  const s = m.getPodByUid('s1') as V1Pod;
  assert.equal(m.isStaticPod(s), true);
  assert.equal(m.getMirrorPodByPod(s)?.metadata?.uid, 'm1');
  assert.equal(m.getPodByMirrorPod(m.getMirrorPods()[0] as V1Pod)?.metadata?.uid, 's1');
  const t = m.getUidTranslations();
  assert.equal(t.podToMirror.get('s1'), 'm1');
  assert.equal(t.mirrorToPod.get('m1'), 's1');
});

test('a pod without uid is a bug', () => {
  assert.throws(() => new BasicPodManager().addPod({ metadata: { name: 'x' } }), /no UID/);
});
