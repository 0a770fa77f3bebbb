import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadCriPackage } from '../../../../proto/load.ts';
import { createCriClient } from './client.ts';
import { ListMemo } from './list-memo.ts';
import type { Container } from './proto-types.ts';
import type { CriClient } from './types.ts';

const service = loadCriPackage().runtime.v1.RuntimeService.service;
const encode = (containers: Container[]) => service.ListContainers.responseSerialize({ containers });
const decode = service.ListContainers.responseDeserialize as unknown as (b: Buffer) => { containers: Record<string, unknown>[] };
const req = (filter: object = {}) => service.ListContainers.requestSerialize(filter);

const container = (id: string, labels: Record<string, string> = {}): Container => ({
  id,
  podSandboxId: `sb-${id}`,
  metadata: { name: id, attempt: 0 },
  image: { image: 'busybox' },
  imageRef: 'sha256:1',
  state: 'CONTAINER_RUNNING',
  createdAt: 1_763_776_874_170_040_000,
  labels: { 'io.kubernetes.pod.uid': `uid-${id}`, ...labels },
  annotations: { 'io.kubernetes.container.hash': '1' },
});

describe('ListMemo', () => {
  it('gives the same frozen object for the same bytes, decoded as proto-loader decodes them', () => {
    const memo = new ListMemo();
    const bytes = encode([container('a'), container('b')]);
    const first = memo.deserializer('ListContainers', req(), decode)(bytes) as ReturnType<typeof decode>;
    assert.deepEqual(first, decode(bytes));
    // a copy of the bytes, as the next answer arrives in another buffer
    assert.equal(memo.deserializer('ListContainers', req(), decode)(Buffer.from(bytes)), first);
    assert.deepEqual(memo.counts, { hits: 1, reordered: 0, misses: 1, decodedItems: 2, items: 2 });
    assert.throws(() => first.containers.push({}), TypeError);
    assert.throws(() => ((first.containers[0]!.labels as Record<string, string>).x = 'y'), TypeError);
    assert.throws(() => (first.containers[1]!.state = 'CONTAINER_EXITED'), TypeError);
  });

  it('decodes only the changed items and keeps the others', () => {
    const memo = new ListMemo();
    const first = memo.deserializer('ListContainers', req(), decode)(encode([container('a'), container('b'), container('c')])) as ReturnType<typeof decode>;
    const changed = encode([container('a'), container('b', { restarted: '1' }), container('d')]);
    const second = memo.deserializer('ListContainers', req(), decode)(changed) as ReturnType<typeof decode>;
    assert.deepEqual(second, decode(changed));
    assert.equal(second.containers[0], first.containers[0]);
    assert.notEqual(second.containers[1], first.containers[1]);
    assert.ok(Object.isFrozen(second.containers[2]) && Object.isFrozen(second.containers));
    assert.deepEqual(memo.counts, { hits: 0, reordered: 0, misses: 2, decodedItems: 5, items: 6 });
  });

  it('gives the last object for the same items in another order (containerd lists from Go maps)', () => {
    const memo = new ListMemo();
    const first = memo.deserializer('ListContainers', req(), decode)(encode([container('a'), container('b')]));
    assert.equal(memo.deserializer('ListContainers', req(), decode)(encode([container('b'), container('a')])), first);
    assert.equal(memo.deserializer('ListContainers', req(), decode)(encode([container('b'), container('a')])), first);
    assert.deepEqual(memo.counts, { hits: 0, reordered: 2, misses: 1, decodedItems: 2, items: 2 });
    assert.equal(memo.deserializer('ListContainers', req(), decode)(encode([container('a'), container('b')])), first);
    assert.equal(memo.counts.hits, 1);
    // an item gone is a change, though every remaining item is known
    const fewer = memo.deserializer('ListContainers', req(), decode)(encode([container('a')])) as ReturnType<typeof decode>;
    assert.notEqual(fewer, first);
    assert.deepEqual(fewer, decode(encode([container('a')])));
    // as many items, each equal to one of the last answer's, but one twice: not a reordering
    const memo2 = new ListMemo();
    const ab = memo2.deserializer('ListContainers', req(), decode)(encode([container('a'), container('b')]));
    const aa = memo2.deserializer('ListContainers', req(), decode)(encode([container('a'), container('a')]));
    assert.notEqual(aa, ab);
    assert.deepEqual(aa, decode(encode([container('a'), container('a')])));
  });

  it('keeps whole-node lists only (a state filter is one); a per-pod or per-id list is decoded and not kept', () => {
    const memo = new ListMemo();
    const all = encode([container('a'), container('b')]);
    const one = encode([container('a')]);
    const a1 = memo.deserializer('ListContainers', req(), decode)(all);
    const running = req({ filter: { state: { state: 'CONTAINER_RUNNING' } } });
    const r1 = memo.deserializer('ListContainers', running, decode)(all);
    assert.equal(memo.size, 2);
    for (const filter of [{ id: 'a' }, { podSandboxId: 'sb-a' }, { labelSelector: { 'io.kubernetes.pod.uid': 'uid-a' } }]) {
      const d = memo.deserializer('ListContainers', req({ filter }), decode);
      assert.equal(d, decode);
      assert.deepEqual(d(one), decode(one));
    }
    const sbDecode = service.ListPodSandbox.responseDeserialize;
    assert.equal(memo.deserializer('ListPodSandbox', service.ListPodSandbox.requestSerialize({ filter: { labelSelector: { a: 'b' } } }), sbDecode), sbDecode);
    const images = loadCriPackage().runtime.v1.ImageService.service.ListImages;
    assert.equal(memo.deserializer('ListImages', images.requestSerialize({ filter: { image: { image: 'busybox' } } }), decode), decode);
    assert.equal(memo.size, 2);
    // an empty id or selector filters nothing: the whole node (its own request, as its bytes differ)
    const empty = req({ filter: { id: '', labelSelector: {} } });
    const e1 = memo.deserializer('ListContainers', empty, decode)(all);
    assert.equal(memo.deserializer('ListContainers', empty, decode)(all), e1);
    assert.equal(memo.size, 3);
    assert.equal(memo.deserializer('ListContainers', req(), decode)(all), a1);
    assert.equal(memo.deserializer('ListContainers', running, decode)(all), r1);
    assert.equal(memo.counts.hits, 3);
  });

  it('forgets the least recently used request beyond its bound', () => {
    const memo = new ListMemo(2);
    const bytes = encode([container('a')]);
    const state = (s: string) => req({ filter: { state: { state: s } } });
    const first = memo.deserializer('ListContainers', state('CONTAINER_RUNNING'), decode)(bytes);
    memo.deserializer('ListContainers', state('CONTAINER_EXITED'), decode)(bytes);
    memo.deserializer('ListContainers', req(), decode)(bytes);
    assert.equal(memo.size, 2);
    assert.notEqual(memo.deserializer('ListContainers', state('CONTAINER_RUNNING'), decode)(bytes), first);
    assert.equal(memo.counts.hits, 0);
  });

  it('passes other RPCs through to their decoder', () => {
    const memo = new ListMemo();
    const d = service.ContainerStatus.responseDeserialize;
    assert.equal(memo.deserializer('ContainerStatus', Buffer.alloc(0), d), d);
  });
});

describe('ListMemo over a real grpc server', () => {
  let server: grpc.Server;
  let dir: string;
  let client: CriClient;
  let answer = [container('a'), container('b')];
  const sandboxes = [{ id: 's1', metadata: { name: 'p', uid: 'u', namespace: 'n', attempt: 0 }, state: 'SANDBOX_READY', createdAt: 1, labels: {}, annotations: {} }];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'list-memo-test-'));
    server = new grpc.Server();
    server.addService(service, {
      ListContainers: (_call: unknown, cb: grpc.sendUnaryData<unknown>) => cb(null, { containers: answer }),
      ListPodSandbox: (_call: unknown, cb: grpc.sendUnaryData<unknown>) => cb(null, { items: sandboxes }),
    });
    await new Promise<void>((resolve, reject) =>
      server.bindAsync(`unix://${dir}/cri.sock`, grpc.ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())),
    );
    client = createCriClient(`unix://${dir}/cri.sock`);
  });
  after(() => {
    client.close();
    server.forceShutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('hands out one frozen answer while the runtime answers the same, a new one when it changes', async () => {
    const first = await client.listContainers({});
    assert.deepEqual(first.containers.map((c) => c.id), ['a', 'b']);
    assert.equal(await client.listContainers({}), first);
    assert.ok(Object.isFrozen(first.containers[0]!.metadata));
    const running = await client.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } });
    assert.notEqual(running, first);
    assert.equal(await client.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } }), running);
    answer = [container('a'), container('c')];
    const changed = await client.listContainers({});
    assert.deepEqual(changed.containers.map((c) => c.id), ['a', 'c']);
    assert.equal(changed.containers[0], first.containers[0]);
    const sb = await client.listPodSandbox({});
    assert.equal(await client.listPodSandbox({}), sb);
    assert.equal(sb.items[0]!.metadata!.uid, 'u');
  });
});
