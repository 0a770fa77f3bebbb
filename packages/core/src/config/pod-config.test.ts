import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { InMemoryEventBus } from '../events/bus.ts';
import { MergedPodConfig } from './pod-config.ts';
import type { PodUpdate } from './types.ts';

const pod = (name: string, uid: string, image = 'x', extra: Partial<V1Pod> = {}): V1Pod => ({
  metadata: { name, namespace: 'default', uid },
  spec: { containers: [{ name: 'c', image }] },
  ...extra,
});

function setup() {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const bus = new InMemoryEventBus({ clock });
  const pc = new MergedPodConfig({ clock, bus });
  const updates: PodUpdate[] = [];
  pc.subscribe((u) => updates.push(u));
  const brief = () => updates.splice(0).map((u) => `${u.source}:${u.op}:${u.pods.map((p) => p.metadata?.name).join(',')}`);
  return { clock, bus, pc, brief };
}

test('SETs become incremental ADD/UPDATE/REMOVE per source', async () => {
  const { pc, brief, clock } = setup();
  const file = pc.channel('file');
  file({ op: 'SET', source: 'file', pods: [pod('a', '1'), pod('b', '2')] });
  assert.deepEqual(brief(), ['file:ADD:a,b']);
  const seen = pc.pods('file')[0]?.metadata?.annotations?.['kubernetes.io/config.seen'];
  assert.equal(seen, '2026-01-01T00:00:00.000Z');
  file({ op: 'SET', source: 'file', pods: [pod('a', '1'), pod('b', '2')] });
  assert.deepEqual(brief(), [], 'identical SET emits nothing');
  await clock.step(1000);
  file({ op: 'SET', source: 'file', pods: [pod('a', '1', 'y'), pod('c', '3')] });
  assert.deepEqual(brief(), ['file:REMOVE:b', 'file:ADD:c', 'file:UPDATE:a']);
  assert.equal(
    pc.pods('file').find((p) => p.metadata?.name === 'a')?.metadata?.annotations?.['kubernetes.io/config.seen'],
    seen,
    'first-seen time is kept across updates',
  );
});

test('status-only change → RECONCILE; deletionTimestamp → DELETE', () => {
  const { pc, brief } = setup();
  const api = pc.channel('api');
  api({ op: 'SET', source: 'api', pods: [pod('a', '1')] });
  brief();
  api({ op: 'SET', source: 'api', pods: [pod('a', '1', 'x', { status: { phase: 'Running' } })] });
  assert.deepEqual(brief(), ['api:RECONCILE:a']);
  const del = pod('a', '1');
  del.metadata!.deletionTimestamp = new Date(Date.UTC(2026, 0, 2));
  api({ op: 'UPDATE', source: 'api', pods: [del] });
  assert.deepEqual(brief(), ['api:DELETE:a']);
  api({ op: 'REMOVE', source: 'api', pods: [del] });
  assert.deepEqual(brief(), ['api:REMOVE:a']);
});

test('sourcesReady once every registered source reported; empty first SET still signals', () => {
  const { pc, brief } = setup();
  const file = pc.channel('file');
  const http = pc.channel('http');
  assert.equal(pc.sourcesReady(), false);
  file({ op: 'SET', source: 'file', pods: [] });
  assert.deepEqual(brief(), ['file:ADD:'], 'empty ADD on first report');
  assert.equal(pc.sourcesReady(), false);
  assert.equal(pc.seenAllSources(['file']), true);
  http({ op: 'SET', source: 'http', pods: [pod('h', '9')] });
  assert.equal(pc.sourcesReady(), true);
  file({ op: 'SET', source: 'file', pods: [] });
  assert.deepEqual(brief(), ['http:ADD:h'], 'no empty ADD after the first report');
});

test('sources are independent; a duplicate name inside one update is dropped', () => {
  const { pc, brief } = setup();
  pc.channel('file')({ op: 'SET', source: 'file', pods: [pod('a', '1'), pod('a', '2')] });
  pc.channel('http')({ op: 'SET', source: 'http', pods: [pod('h', '3')] });
  pc.channel('file')({ op: 'SET', source: 'file', pods: [] });
  assert.deepEqual(brief(), ['file:ADD:a', 'http:ADD:h', 'file:REMOVE:a']);
  assert.deepEqual(pc.pods().map((p) => p.metadata?.uid), ['3']);
});

test('podConfig bus events for ADD/UPDATE/REMOVE', () => {
  const { pc, bus } = setup();
  const file = pc.channel('file');
  file({ op: 'SET', source: 'file', pods: [pod('a', '1')] });
  file({ op: 'SET', source: 'file', pods: [] });
  const ev = bus.recent({ types: ['podConfig'] });
  assert.deepEqual(ev.map((e) => (e.type === 'podConfig' ? `${e.op}:${e.pod.name}:${e.source}` : '')), ['ADD:a:file', 'REMOVE:a:file']);
});

test('a throwing listener does not break the merge', () => {
  const { pc, brief } = setup();
  pc.subscribe(() => {
    throw new Error('x');
  });
  pc.channel('file')({ op: 'SET', source: 'file', pods: [pod('a', '1')] });
  assert.deepEqual(brief(), ['file:ADD:a']);
});

test('listeners get copies: mutating an emitted pod does not cause spurious updates', () => {
  const { pc, brief } = setup();
  const got: V1Pod[] = [];
  pc.subscribe((u) => got.push(...u.pods));
  const file = pc.channel('file');
  file({ op: 'SET', source: 'file', pods: [pod('a', '1', 'x', { status: { phase: 'Pending' } })] });
  brief();
  got[0]!.status = { phase: 'Running' };
  got[0]!.spec!.containers[0]!.image = 'mutated';
  file({ op: 'SET', source: 'file', pods: [pod('a', '1', 'x', { status: { phase: 'Pending' } })] });
  assert.deepEqual(brief(), []);
});

test('a pod whose UID another source already has is dropped; it comes in once the UID is free', () => {
  const { pc, brief } = setup();
  const file = pc.channel('file');
  const http = pc.channel('http');
  file({ op: 'SET', source: 'file', pods: [pod('static', 'same')] });
  http({ op: 'SET', source: 'http', pods: [pod('web', 'same'), pod('other', 'o')] });
  assert.deepEqual(brief(), ['file:ADD:static', 'http:ADD:other']);
  assert.equal(pc.pods().filter((p) => p.metadata?.uid === 'same').length, 1);
  file({ op: 'SET', source: 'file', pods: [] });
  http({ op: 'SET', source: 'http', pods: [pod('web', 'same'), pod('other', 'o')] });
  assert.deepEqual(brief(), ['file:REMOVE:static', 'http:ADD:web']);
});

test('a pod whose name, namespace or UID could not safely name a directory is dropped, whatever its source', () => {
  const { pc, brief } = setup();
  const api = pc.channel('api');
  const bad = [pod('../x', '1'), pod('ok', '../../etc'), pod('ok2', 'a/b'), { ...pod('ok3', '3'), metadata: { name: 'ok3', namespace: 'a/b', uid: '3' } }];
  api({ op: 'SET', source: 'api', pods: [...bad, pod('fine', '123e4567-e89b-12d3-a456-426614174000')] });
  assert.deepEqual(brief(), ['api:ADD:fine']);
});
