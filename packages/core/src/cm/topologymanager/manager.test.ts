/**
 * The topology manager as the kubelet's admit handler, with recording fake hint providers: NewManager's
 * start-up errors, TopologyAffinityError, container and pod scopes (scope_container_test.go / scope_pod_test.go /
 * topology_manager_test.go v1.28 TestAdmit), allocation order and errors, the Store after container removal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { nullLogger } from '../../util/logger.ts';
import { BitMask } from './bitmask.ts';
import { TopologyManager } from './manager.ts';
import { AdmissionError, formatHint, type HintProvider, type TopologyHint, type TopologyHints } from './types.ts';

const TWO = [{ id: 0 }, { id: 1 }];
const P = (...bits: number[]): TopologyHint => ({ numaNodeAffinity: BitMask.of(...bits), preferred: true });
const N = (...bits: number[]): TopologyHint => ({ numaNodeAffinity: BitMask.of(...bits), preferred: false });

function pod(containers: string[], init: string[] = []): V1Pod {
  const c = (name: string): V1Container => ({ name, image: 'busybox' });
  return { metadata: { uid: 'u1', name: 'p', namespace: 'default' }, spec: { initContainers: init.map(c), containers: containers.map(c) } };
}

/** A provider answering fixed hints and recording allocate calls (and what the Store said at that time). */
class FakeProvider implements HintProvider {
  readonly calls: string[] = [];
  constructor(
    private readonly name: string,
    private readonly hints: TopologyHints,
    private readonly store?: () => TopologyManager,
    private readonly fail?: Error,
  ) {}
  getTopologyHints(): TopologyHints {
    return this.hints;
  }
  getPodTopologyHints(): TopologyHints {
    return this.hints;
  }
  allocate(p: V1Pod, c: V1Container): void {
    const seen = this.store ? formatHint(this.store().getAffinity(p.metadata!.uid!, c.name)) : '';
    this.calls.push(`${this.name}:${c.name}${seen ? ` ${seen}` : ''}`);
    if (this.fail) throw this.fail;
  }
}

function manager(policy: string, scope = 'container'): TopologyManager {
  return TopologyManager.create({ policy, scope, numaNodes: TWO, logger: nullLogger });
}

test('NewManager errors: unknown policy, unknown scope, more than 8 NUMA nodes; none accepts anything', () => {
  assert.throws(() => manager('foo'), { message: 'unknown policy: "foo"' });
  assert.throws(() => manager('restricted', 'node'), { message: 'unknown scope: "node"' });
  const nine = [...Array(9).keys()].map((id) => ({ id }));
  assert.throws(() => TopologyManager.create({ policy: 'best-effort', numaNodes: nine, logger: nullLogger }), { message: 'unsupported on machines with more than 8 NUMA Nodes' });
  assert.equal(TopologyManager.create({ policy: 'none', scope: 'whatever', numaNodes: nine, logger: nullLogger }).getPolicy().name, 'none');
  assert.throws(() => TopologyManager.create({ policy: 'restricted', policyOptions: { 'prefer-closest-numa-nodes': 'true' }, numaNodes: TWO, logger: nullLogger }), {
    message: 'cannot discover NUMA topology: error getting NUMA distances from cadvisor',
  });
});

test('policy none: every provider allocates each container (init first) in the order added, no hints kept', () => {
  const m = manager('none');
  const a = new FakeProvider('devices', { r: [N(0)] });
  const b = new FakeProvider('cpu', { cpu: [] });
  m.addHintProvider(a);
  m.addHintProvider(b);
  assert.deepEqual(m.admit(pod(['app'], ['init'])), { admit: true });
  assert.deepEqual([...a.calls, ...b.calls], ['devices:init', 'devices:app', 'cpu:init', 'cpu:app']);
  assert.equal(formatHint(m.getAffinity('u1', 'app')), '{<nil> false}');
});

test('restricted refuses a pod without a preferred hint with TopologyAffinityError (TestAdmit "QOSClass set as Guaranteed. Restricted Policy. No Preferred Hint")', () => {
  const m = manager('restricted');
  const p = new FakeProvider('cpu', { resource: [N(0, 1)] });
  m.addHintProvider(p);
  assert.deepEqual(m.admit(pod(['app'])), { admit: false, reason: 'TopologyAffinityError', message: 'Resources cannot be allocated with Topology locality' });
  assert.deepEqual(p.calls, []);
});

test('single-numa-node: hints across both nodes refused, one node admitted and stored before Allocate runs', () => {
  let m = manager('single-numa-node');
  m.addHintProvider(new FakeProvider('cpu', { cpu: [P(0, 1)] }));
  assert.equal(m.admit(pod(['app'])).admit, false);

  m = manager('single-numa-node');
  const cpu = new FakeProvider('cpu', { cpu: [P(0), P(1), N(0, 1)] }, () => m);
  const mem = new FakeProvider('memory', { memory: [P(1), N(0, 1)] }, () => m);
  m.addHintProvider(cpu);
  m.addHintProvider(mem);
  assert.deepEqual(m.admit(pod(['app'])), { admit: true });
  assert.deepEqual([...cpu.calls, ...mem.calls], ['cpu:app {10 true}', 'memory:app {10 true}']);
});

test('best-effort admits with a non-preferred hint and keeps it for the container', () => {
  const m = manager('best-effort');
  m.addHintProvider(new FakeProvider('cpu', { cpu: [N(0, 1)] }));
  assert.deepEqual(m.admit(pod(['app'])), { admit: true });
  assert.equal(formatHint(m.getAffinity('u1', 'app')), '{11 false}');
});

test('container scope merges per container; pod scope merges once and gives every container the pod hint', () => {
  const perContainer = (c: V1Container): TopologyHints => (c.name === 'a' ? { cpu: [P(0)] } : { cpu: [P(1)] });
  const provider: HintProvider = {
    getTopologyHints: (_p, c) => perContainer(c),
    getPodTopologyHints: () => ({ cpu: [N(0, 1)] }),
    allocate: () => undefined,
  };
  const c = manager('best-effort', 'container');
  c.addHintProvider(provider);
  c.admit(pod(['a', 'b']));
  assert.deepEqual([formatHint(c.getAffinity('u1', 'a')), formatHint(c.getAffinity('u1', 'b'))], ['{01 true}', '{10 true}']);

  const p = manager('best-effort', 'pod');
  p.addHintProvider(provider);
  p.admit(pod(['a', 'b']));
  assert.deepEqual([formatHint(p.getAffinity('u1', 'a')), formatHint(p.getAffinity('u1', 'b'))], ['{11 false}', '{11 false}']);
});

test('an allocation failure: AdmissionError keeps its reason, other errors are UnexpectedAdmissionError; later providers do not run', () => {
  const m = manager('best-effort');
  const a = new FakeProvider('cpu', null, undefined, new AdmissionError('SMTAlignmentError', 'SMT Alignment Error: requested 1 cpus not multiple cpus per core = 2'));
  const b = new FakeProvider('memory', null);
  m.addHintProvider(a);
  m.addHintProvider(b);
  assert.deepEqual(m.admit(pod(['app'])), { admit: false, reason: 'SMTAlignmentError', message: 'SMT Alignment Error: requested 1 cpus not multiple cpus per core = 2' });
  assert.deepEqual(b.calls, []);

  const n = manager('none');
  n.addHintProvider(new FakeProvider('memory', null, undefined, new Error('not enough memory')));
  assert.deepEqual(n.admit(pod(['app'])), { admit: false, reason: 'UnexpectedAdmissionError', message: 'Allocate failed due to not enough memory, which is unexpected' });
});

test('RemoveContainer drops the hint unless a restarted instance of the container still holds it', () => {
  const m = manager('best-effort');
  m.addHintProvider(new FakeProvider('cpu', { cpu: [P(1)] }));
  const p = pod(['app']);
  m.admit(p);
  const app = p.spec!.containers[0]!;
  m.addContainer(p, app, 'id-1');
  m.addContainer(p, app, 'id-2');
  m.removeContainer('id-1');
  assert.equal(formatHint(m.getAffinity('u1', 'app')), '{10 true}');
  m.removeContainer('id-2');
  assert.equal(formatHint(m.getAffinity('u1', 'app')), '{<nil> false}');
  m.removeContainer('unknown');
});

test('kubelet_topology_manager_admission_{requests,errors}_total and _duration_ms (ms from the injected clock); none counts no errors', () => {
  const seen = { requests: 0, errors: 0, durations: [] as number[] };
  const metrics = { admissionRequests: { inc: () => void seen.requests++ }, admissionErrors: { inc: () => void seen.errors++ }, admissionDuration: { observe: (ms: number) => void seen.durations.push(ms) } };
  let t = 0;
  const now = () => (t += 2);
  const m = TopologyManager.create({ policy: 'restricted', numaNodes: TWO, logger: nullLogger, metrics, now });
  m.addHintProvider(new FakeProvider('cpu', { cpu: [N(0, 1)] }));
  m.admit(pod(['app']));
  const ok = TopologyManager.create({ policy: 'none', numaNodes: TWO, logger: nullLogger, metrics, now });
  ok.addHintProvider(new FakeProvider('cpu', null, undefined, new Error('x')));
  ok.admit(pod(['app']));
  assert.deepEqual(seen, { requests: 2, errors: 1, durations: [2, 2] });
});
