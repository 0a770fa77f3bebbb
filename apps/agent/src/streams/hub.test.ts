import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryEventBus, type NodeletEvent } from '@nodelet/core/events';
import type { KubeletApi } from '@nodelet/core/kubelet';
import { FakeClock } from '@nodelet/core/testing';
import { createStreamHub } from './hub.ts';

/** A hub over a real bus whose deferred deliveries run only when the test says (`turn()`: the next event-loop turn). */
function setup() {
  const bus = new InMemoryEventBus({ clock: new FakeClock() });
  const pending: Array<() => void> = [];
  const hub = createStreamHub({ events: bus, node: () => 'n1' } as unknown as KubeletApi, undefined, (run) => pending.push(run));
  const turn = () => {
    for (const run of pending.splice(0)) run();
  };
  const pleg = (name: string, ns = 'default') => bus.publish({ type: 'pleg', pod: { namespace: ns, name, uid: `u-${name}` }, pleg: 'ContainerStarted', containerId: `c-${name}` });
  return { bus, hub, turn, pleg, pending };
}

const names = (got: NodeletEvent[]) => got.map((e) => (e.type === 'pleg' ? e.pod.name : e.type));

test('stream hub: a publisher returns before any feed sees its event; a turn delivers them in order, once', () => {
  const { hub, turn, pleg, pending } = setup();
  const got: NodeletEvent[] = [];
  hub.events({}, (e) => got.push(e));
  pleg('a');
  pleg('b');
  assert.deepEqual(got, [], 'delivered inside publish');
  assert.equal(pending.length, 1, 'one delivery per turn, not one per event');
  turn();
  assert.deepEqual(names(got), ['a', 'b']);
  turn();
  assert.equal(got.length, 2);
});

test('stream hub: a feed started between a publish and its delivery gets the event by replay only, never twice', () => {
  const { hub, turn, pleg } = setup();
  const first: NodeletEvent[] = [];
  hub.events({}, (e) => first.push(e));
  pleg('a');
  const late: NodeletEvent[] = [];
  hub.events({}, (e) => late.push(e), 10);
  assert.deepEqual(names(late), ['a'], 'replayed at once');
  pleg('b');
  turn();
  assert.deepEqual(names(late), ['a', 'b']);
  assert.deepEqual(names(first), ['a', 'b']);
});

test('stream hub: filters per feed; a released feed gets nothing more; a throwing feed does not stop the others', () => {
  const { bus, hub, turn, pleg } = setup();
  const ns: NodeletEvent[] = [];
  const all: NodeletEvent[] = [];
  const stopNs = hub.events({ namespace: 'bench' }, (e) => ns.push(e));
  hub.events({}, () => {
    throw new Error('broken transport');
  });
  hub.events({}, (e) => all.push(e));
  pleg('a');
  pleg('b', 'bench');
  turn();
  assert.deepEqual(names(ns), ['b']);
  assert.deepEqual(names(all), ['a', 'b']);
  stopNs();
  pleg('c', 'bench');
  turn();
  assert.deepEqual(names(ns), ['b']);
  assert.deepEqual(names(all), ['a', 'b', 'c']);
  assert.equal(bus.listenerCount(), 1, 'the throwing feed was dropped and the released one unsubscribed');
});

test('stream hub: a released feed unsubscribes from the bus', () => {
  const { bus, hub } = setup();
  const stops = [hub.events({}, () => {}), hub.events({}, () => {})];
  for (const stop of stops) stop();
  assert.equal(bus.listenerCount(), 0);
});
