import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeClock } from '../util/clock.ts';
import { HttpSource } from './http-source.ts';
import type { PodUpdate, SourceError } from './types.ts';

const POD = `apiVersion: v1
kind: Pod
metadata: { name: web }
spec:
  containers: [{ name: app, image: nodelet.local/host }]
`;
const LIST = JSON.stringify({
  apiVersion: 'v1',
  kind: 'PodList',
  items: [
    { metadata: { name: 'a' }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    { metadata: { name: 'b' }, spec: { containers: [{ name: 'c', image: 'x' }] } },
  ],
});

async function setup(t: { after(fn: () => Promise<void>): void }) {
  const state = { status: 200, body: POD, requests: 0, headers: [] as Array<string | undefined> };
  const server: Server = createServer((req, res) => {
    state.requests++;
    state.headers.push(req.headers['x-test'] as string | undefined);
    res.writeHead(state.status, { 'content-type': 'application/yaml' });
    res.end(state.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pods`;
  const clock = new FakeClock();
  const updates: PodUpdate[] = [];
  const errors: SourceError[] = [];
  const src = new HttpSource(
    { clock, onUpdate: (u) => updates.push(u), onError: (e) => errors.push(e) },
    { url, nodeName: 'node1', headers: { 'x-test': 'yes' } },
  );
  t.after(async () => {
    await src.stop();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const poll = async () => {
    await clock.step(20_000);
    await src.poll();
  };
  return { state, url, clock, updates, errors, src, poll };
}

test('single pod: fetched at start, defaulted as a static http pod', async (t) => {
  const s = await setup(t);
  await s.src.start();
  assert.equal(s.updates.length, 1);
  const p = s.updates[0]?.pods[0];
  assert.equal(s.updates[0]?.op, 'SET');
  assert.equal(s.updates[0]?.source, 'http');
  assert.equal(p?.metadata?.name, 'web-node1');
  assert.equal(p?.metadata?.annotations?.['kubernetes.io/config.source'], 'http');
  assert.deepEqual(s.state.headers, ['yes'], 'manifest-url headers sent');
});

test('polled every 20 s; unchanged body → no new SET; PodList replaces the set', async (t) => {
  const s = await setup(t);
  await s.src.start();
  await s.poll();
  assert.equal(s.state.requests, 2);
  assert.equal(s.updates.length, 1);
  s.state.body = LIST;
  await s.poll();
  assert.deepEqual(s.updates.at(-1)?.pods.map((p) => p.metadata?.name), ['a-node1', 'b-node1']);
});

test('errors keep the last good set and are reported once until they change', async (t) => {
  const s = await setup(t);
  await s.src.start();
  s.state.status = 500;
  await s.poll();
  await s.poll();
  assert.equal(s.updates.length, 1, 'last good set kept (no SET on error)');
  assert.deepEqual(s.errors.map((e) => e.message), [`${s.url}: 500 Internal Server Error`]);
  s.state.status = 200;
  s.state.body = 'apiVersion: v1\nkind: Pod\nmetadata: { name: x }\nspec: { containers: [] }';
  await s.poll();
  assert.equal(s.errors.length, 2);
  assert.match(s.errors[1]?.message ?? '', /couldn't parse as single pod or list of pods \(invalid pod: \[spec\.containers: Required value\]\)/);
  assert.equal(s.errors[1]?.file, s.url);
  s.state.body = '';
  await s.poll();
  assert.equal(s.errors[2]?.message, `zero-length data received from ${s.url}`);
  s.state.body = LIST;
  await s.poll();
  assert.equal(s.updates.length, 2);
});

test('unreachable URL is reported and no SET is sent', async (t) => {
  const clock = new FakeClock();
  const errors: SourceError[] = [];
  const updates: PodUpdate[] = [];
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const url = `http://127.0.0.1:${port}/pods`;
  const src = new HttpSource({ clock, onUpdate: (u) => updates.push(u), onError: (e) => errors.push(e) }, { url, nodeName: 'n' });
  t.after(() => src.stop());
  await src.start();
  assert.equal(updates.length, 0);
  assert.ok(errors[0]?.message.startsWith(`${url}: `), String(errors[0]?.message));
  assert.match(errors[0]?.message ?? '', /ECONNREFUSED/);
});

test('a throwing onUpdate does not escape the poll', async (t) => {
  const s = await setup(t);
  const src = new HttpSource(
    { clock: s.clock, onUpdate: () => { throw new Error('listener bug'); } },
    { url: s.url, nodeName: 'node1' },
  );
  t.after(() => src.stop());
  await src.start();
  assert.equal(s.state.requests, 1);
});

test('a PodList or multi-document body: each pod on its own; good ones sync, each bad one is reported once', async (t) => {
  const s = await setup(t);
  const good = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'x' }] } });
  s.state.body = JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items: [good('a'), { metadata: { name: 'b' }, spec: { containers: 'notalist' } }, 7, good('c')] });
  await s.src.start();
  assert.deepEqual(s.updates.at(-1)?.pods.map((p) => p.metadata?.name), ['a-node1', 'c-node1']);
  assert.deepEqual(s.errors.map((e) => e.message), [
    `${s.url}: items[1]: invalid pod: [spec.containers: Invalid value: "string": spec.containers in body must be of type array: "string"]`,
    `${s.url}: items[2]: couldn't parse as pod(expected a YAML/JSON object), please check config file`,
  ]);
  await s.poll();
  assert.equal(s.errors.length, 2, 'not re-reported while unchanged');
  s.state.body = `${POD}---\napiVersion: v1\nkind: Pod\nmetadata: {name: bad}\nspec: {containers: [{name: c, image: x, ports: abc}]}\n---\n${POD.replace('web', 'other')}`;
  await s.poll();
  assert.deepEqual(s.updates.at(-1)?.pods.map((p) => p.metadata?.name), ['web-node1', 'other-node1']);
  assert.equal(s.errors.at(-1)?.message, `${s.url}: document 2: invalid pod: [spec.containers[0].ports: Invalid value: "string": spec.containers[0].ports in body must be of type array: "string"]`);
});

test('a single-pod body with a wrong type is a failure of the body: the last good set is kept', async (t) => {
  const s = await setup(t);
  await s.src.start();
  s.state.body = 'apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: "notalist"}\n';
  await s.poll();
  assert.equal(s.updates.length, 1);
  assert.match(s.errors[0]?.message ?? '', /couldn't parse as single pod or list of pods \(invalid pod: \[spec\.containers: Invalid value: "string"/);
});
