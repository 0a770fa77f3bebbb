import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCriPackage } from '../../../../proto/load.ts';
import type { ContainerRecord, SandboxRecord } from '../state/types.ts';
import { toContainerItem, toSandboxItem } from './convert.ts';
import { ListItems, withListFrames } from './list-frames.ts';

const service = loadCriPackage().runtime.v1.RuntimeService.service;
const framed = withListFrames(service);

const sandbox = (i: number): SandboxRecord =>
  ({
    id: `sb${i}`, runtimeHandler: '', state: 'SANDBOX_READY', createdAt: 1_764_000_000_000_000_000 + i, ip: '', cgroupParent: '', namespaces: {},
    config: { metadata: { name: `p${i}`, uid: `u${i}`, namespace: 'default', attempt: 0 }, labels: { 'io.kubernetes.pod.uid': `u${i}` }, annotations: { a: 'b' } },
  }) as unknown as SandboxRecord;
const container = (i: number): ContainerRecord =>
  ({
    id: `c${i}`, sandboxId: `sb${i}`, image: 'busybox', imageId: 'sha256:1', state: 'CONTAINER_RUNNING', createdAt: 5 + i, startedAt: 0, finishedAt: 0, exitCode: 0, reason: '', message: '',
    config: { metadata: { name: 'app', attempt: 0 }, labels: { 'io.kubernetes.container.name': 'app' }, annotations: {} },
  }) as unknown as ContainerRecord;

test('the list serializers give the bytes protobufjs gives for the whole answer', () => {
  const sbItems = new ListItems(toSandboxItem);
  const cItems = new ListItems((c: ContainerRecord) => toContainerItem(c, undefined));
  const sandboxes = [0, 1, 2].map(sandbox);
  const containers = [0, 1, 2].map(container);
  for (let round = 0; round < 2; round++) {
    const items = sandboxes.map((s) => sbItems.of(s));
    assert.deepEqual(framed.ListPodSandbox!.responseSerialize({ items }), service.ListPodSandbox.responseSerialize({ items: sandboxes.map(toSandboxItem) }));
    const cs = containers.map((c) => cItems.of(c));
    assert.deepEqual(framed.ListContainers!.responseSerialize({ containers: cs }), service.ListContainers.responseSerialize({ containers: containers.map((c) => toContainerItem(c, undefined)) }));
  }
  assert.deepEqual(framed.ListContainers!.responseSerialize({ containers: [] }), service.ListContainers.responseSerialize({ containers: [] }));
  assert.equal(framed.ContainerStatus, service.ContainerStatus);
});

test('a record keeps its item while unchanged; a change in place or a replaced config object gives a new one', () => {
  const items = new ListItems((c: ContainerRecord) => toContainerItem(c, undefined));
  const c = container(0);
  const first = items.of(c);
  assert.equal(items.of(c), first, 'the image object is built afresh each time: compared by its fields');
  assert.ok(Object.isFrozen(first));
  c.state = 'CONTAINER_EXITED';
  const exited = items.of(c);
  assert.notEqual(exited, first);
  const decode = service.ListContainers.responseDeserialize as unknown as (b: Buffer) => { containers: { state: string }[] };
  assert.equal(decode(framed.ListContainers!.responseSerialize({ containers: [first, exited] })).containers[1]!.state, 'CONTAINER_EXITED');
  c.config = { ...c.config, labels: { ...c.config.labels, x: 'y' } };
  assert.notEqual(items.of(c), exited);
});

test('an item that is not frozen is encoded on every call', () => {
  const item = { ...toSandboxItem(sandbox(0)) };
  const before = framed.ListPodSandbox!.responseSerialize({ items: [item] });
  item.state = 'SANDBOX_NOTREADY';
  assert.notDeepEqual(framed.ListPodSandbox!.responseSerialize({ items: [item] }), before);
});
