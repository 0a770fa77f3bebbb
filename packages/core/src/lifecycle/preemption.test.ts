// The kubelet's critical pod admission (pkg/kubelet/preemption/preemption.go): expected choices and messages from
// its rules — QoS order besteffort → burstable → guaranteed, fewest pods, then the smaller request — and its
// error text "no set of running pods found to reclaim resources: [(res: <name>, q: <n>), ]".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { admit } from './admit.ts';
import { podsToPreempt, preemptable } from './preemption.ts';
import type { AdmitNode } from './types.ts';

let n = 0;
function pod(name: string, o: { static?: boolean; req?: Record<string, string>; lim?: Record<string, string>; priority?: number } = {}): V1Pod {
  return {
    metadata: { name, namespace: 'default', uid: `u${++n}`, annotations: o.static ? { 'kubernetes.io/config.source': 'file' } : undefined },
    spec: {
      containers: [{ name: 'c', image: 'x', resources: { ...(o.req ? { requests: o.req } : {}), ...(o.lim ? { limits: o.lim } : {}) } }],
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
    },
  };
}
const node = (pods: number): AdmitNode => ({ name: 'n1', labels: {}, allocatable: { cpuMilli: 4000, memoryBytes: 8 * 1024 ** 3, pods } });
const names = (ps: V1Pod[] | undefined) => (ps ?? []).map((p) => p.metadata?.name);

test('a static pod over maxPods preempts a BestEffort pod before Burstable and Guaranteed ones', () => {
  const guaranteed = pod('g', { req: { cpu: '1', memory: '1Gi' }, lim: { cpu: '1', memory: '1Gi' } });
  const burstable = pod('b', { req: { cpu: '100m' } });
  const bestEffort = pod('be');
  const r = admit(pod('static', { static: true }), [guaranteed, burstable, bestEffort], node(3));
  assert.equal(r.admit, true);
  assert.deepEqual(names(r.admit ? r.preempt : []), ['be']);
});

test('a burst of static pods over maxPods: once only critical pods run, the next one is refused (200 manifests, maxPods 110)', () => {
  const running = Array.from({ length: 3 }, (_, i) => pod(`s${i}`, { static: true }));
  const r = admit(pod('s3', { static: true }), running, node(3));
  assert.deepEqual(r, {
    admit: false,
    reason: 'UnexpectedAdmissionError',
    message:
      'Unexpected error while attempting to recover from admission failure: preemption: error finding a set of pods to preempt: no set of running pods found to reclaim resources: [(res: pods, q: 1), ]',
  });
});

test('a non-critical pod over maxPods is refused OutOfpods and preempts nothing', () => {
  const r = admit(pod('api'), [pod('a'), pod('b')], node(2));
  assert.deepEqual(r, { admit: false, reason: 'OutOfpods', message: "Node didn't have enough resource: pods, requested: 1, used: 2, capacity: 2" });
});

test('memory shortfall: the one Burstable pod whose request covers it, not two smaller ones', () => {
  const small1 = pod('small1', { req: { memory: '1Gi' } });
  const small2 = pod('small2', { req: { memory: '1Gi' } });
  const big = pod('big', { req: { memory: '3Gi' } });
  // 5 GiB requested of 8: a 5 GiB critical pod is 2 GiB short; `big` alone frees it (distance 0).
  const r = podsToPreempt(pod('crit', { static: true, req: { memory: '5Gi' } }), [small1, small2, big], [{ resource: 'memory', quantity: 2 * 1024 ** 3 }]);
  assert.deepEqual(r.ok ? names(r.pods) : r.message, ['big']);
});

test('equally distant pods: the one with the smaller memory request goes', () => {
  const a = pod('a', { req: { memory: '2Gi' } });
  const b = pod('b', { req: { memory: '1Gi' } });
  const r = podsToPreempt(pod('crit', { static: true }), [a, b], [{ resource: 'pods', quantity: 1 }]);
  assert.deepEqual(r.ok ? names(r.pods) : r.message, ['b']);
});

test('Preemptable: critical over non-critical; otherwise only a strictly higher priority', () => {
  assert.equal(preemptable(pod('c', { static: true }), pod('x')), true);
  assert.equal(preemptable(pod('c', { static: true }), pod('y', { static: true })), false);
  assert.equal(preemptable(pod('hi', { priority: 10 }), pod('lo', { priority: 5 })), true);
  assert.equal(preemptable(pod('eq', { priority: 5 }), pod('lo', { priority: 5 })), false);
  assert.equal(preemptable(pod('none'), pod('lo', { priority: 5 })), false);
});
