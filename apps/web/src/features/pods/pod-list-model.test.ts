import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { V1Pod } from '@kubernetes/client-node';
import { podRowView } from './pod-summary.ts';
import {
  DEFAULT_STATE, filterRows, moveSelection, nextSort, parseSearch, SORT_KEYS, sortRows, stateFromParams, stateToParams, usageByUid,
  type ListState, type Row,
} from './pod-list-model.ts';

const NOW = Date.parse('2026-11-26T06:00:00Z');

function row(ns: string, name: string, o: { labels?: Record<string, string>; phase?: string; restarts?: number; ip?: string; qos?: string; ageS?: number; cpu?: number; mem?: number } = {}): Row {
  const pod: V1Pod = {
    metadata: { namespace: ns, name, uid: `${ns}-${name}`, labels: o.labels, creationTimestamp: new Date(NOW - (o.ageS ?? 60) * 1000).toISOString() as unknown as Date },
    spec: { containers: [{ name: 'c' }] },
    status: { phase: o.phase ?? 'Running', podIP: o.ip, qosClass: o.qos, containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: true, restartCount: o.restarts ?? 0, state: { running: {} } }] },
  };
  return { ...podRowView(pod), cpuCores: o.cpu, memoryBytes: o.mem };
}

const rows = [
  row('default', 'web-1', { labels: { app: 'web', tier: 'front' }, restarts: 2, ip: '10.89.0.10', qos: 'BestEffort', ageS: 30, cpu: 0.2, mem: 5e6 }),
  row('default', 'web-2', { labels: { app: 'web', tier: 'db' }, restarts: 0, ip: '10.89.0.9', qos: 'Burstable', ageS: 300, cpu: 0.05 }),
  row('shop', 'cart', { labels: { app: 'cart', env: 'prod' }, restarts: 7, ip: '10.89.1.2', qos: 'Guaranteed', ageS: 10, mem: 9e6 }),
  row('shop', 'batch', { labels: { env: 'dev' }, phase: 'Succeeded' }),
];
const names = (rs: Row[]) => rs.map((r) => r.name);
const st = (o: Partial<ListState>): ListState => ({ ...DEFAULT_STATE, ...o });

test('search: words match name or namespace or a label key; selector syntax filters by labels', () => {
  const cases: Array<[string, string[]]> = [
    ['', ['web-1', 'web-2', 'cart', 'batch']],
    ['WEB', ['web-1', 'web-2']],
    ['shop', ['cart', 'batch']],
    ['env', ['cart', 'batch']],
    ['app=web,tier!=db', ['web-1']],
    ['env in (prod,dev)', ['cart', 'batch']],
    ['!app', ['batch']],
    ['tier!=db', ['web-1', 'cart', 'batch']],
    ['app notin (web)', ['cart', 'batch']],
  ];
  for (const [q, want] of cases) assert.deepEqual(names(filterRows(rows, st({ q }))), want, q);
});

test('search: an invalid selector is an error shown to the user and filters nothing', () => {
  const s = parseSearch('env in (a');
  assert.equal(s.kind, 'error');
  assert.deepEqual(names(filterRows(rows, st({ q: 'env in (a' }))), names(rows));
  assert.deepEqual(parseSearch('  '), { kind: 'all' });
});

test('namespace and phase filters', () => {
  assert.deepEqual(names(filterRows(rows, st({ ns: 'shop' }))), ['cart', 'batch']);
  assert.deepEqual(names(filterRows(rows, st({ phase: 'Succeeded' }))), ['batch']);
  assert.deepEqual(names(filterRows(rows, st({ ns: 'default', q: 'tier=db' }))), ['web-2']);
});

test('sort by each column, both directions; unknown values last; ties by namespace/name', () => {
  const cases: Array<[ListState['sort'], string[]]> = [
    ['name', ['batch', 'cart', 'web-1', 'web-2']],
    ['restarts', ['web-2', 'batch', 'web-1', 'cart']],
    ['age', ['cart', 'web-1', 'batch', 'web-2']],
    ['cpu', ['web-2', 'web-1', 'batch', 'cart']],
    ['memory', ['web-1', 'cart', 'web-2', 'batch']],
    ['ip', ['web-2', 'web-1', 'cart', 'batch']],
    ['qos', ['web-1', 'web-2', 'cart', 'batch']],
    ['status', ['web-1', 'web-2', 'cart', 'batch']],
  ];
  for (const [key, want] of cases) assert.deepEqual(names(sortRows(rows, key, 'asc', NOW)), want, key);
  assert.deepEqual(names(sortRows(rows, 'restarts', 'desc', NOW)), ['cart', 'web-1', 'web-2', 'batch']);
  assert.deepEqual(names(sortRows(rows, 'cpu', 'desc', NOW)), ['web-1', 'web-2', 'batch', 'cart'], 'no CPU figure: last either way');
  assert.deepEqual(nextSort(st({ sort: 'restarts', dir: 'asc' }), 'restarts'), { sort: 'restarts', dir: 'desc' });
  assert.deepEqual(nextSort(st({ sort: 'restarts', dir: 'desc' }), 'age'), { sort: 'age', dir: 'asc' });
});

test('URL state: defaults are left out; round trip; garbage falls back to the defaults', () => {
  assert.equal(stateToParams(DEFAULT_STATE).toString(), '');
  const s = st({ q: 'app=web,tier!=db', ns: 'shop', phase: 'Running', sort: 'restarts', dir: 'desc' });
  assert.equal(stateToParams(s).toString(), 'q=app%3Dweb%2Ctier%21%3Ddb&ns=shop&phase=Running&sort=restarts&dir=desc');
  assert.deepEqual(stateFromParams(stateToParams(s)), s);
  assert.deepEqual(stateFromParams(new URLSearchParams('sort=rm+-rf&dir=sideways&phase=Exploded')), DEFAULT_STATE);
  fc.assert(
    fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 20 }), fc.constantFrom(...SORT_KEYS), fc.constantFrom('asc' as const, 'desc' as const), (q, ns, sort, dir) => {
      const state = { q, ns, phase: '', sort, dir };
      assert.deepEqual(stateFromParams(new URLSearchParams(stateToParams(state).toString())), state);
    }),
    { numRuns: 300 },
  );
});

test('usage by UID from one Summary; keyboard selection moves and clamps', () => {
  const u = usageByUid([{ podRef: { uid: 'a' }, cpu: { usageNanoCores: 250_000_000 }, memory: { workingSetBytes: 1024 } }, { podRef: {} }]);
  assert.deepEqual([...u], [['a', { cpuCores: 0.25, memoryBytes: 1024 }]]);
  const keys = ['a', 'b', 'c'];
  assert.equal(moveSelection(keys, undefined, 1), 'a');
  assert.equal(moveSelection(keys, undefined, -1), 'c');
  assert.equal(moveSelection(keys, 'a', 1), 'b');
  assert.equal(moveSelection(keys, 'c', 1), 'c');
  assert.equal(moveSelection(keys, 'a', -1), 'a');
  assert.equal(moveSelection(keys, 'gone', 1), 'a');
  assert.equal(moveSelection([], 'a', 1), undefined);
});
