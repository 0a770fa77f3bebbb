import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { admit, createAdmitter, rejectedPodStatus } from './admit.ts';
import { computePodRequests } from './pod-requests.ts';
import type { AdmitNode, PodAdmitResult } from './types.ts';

let n = 0;
function pod(opts: {
  cpu?: string;
  mem?: string;
  limitsOnly?: boolean;
  nodeSelector?: Record<string, string>;
  static?: boolean;
  phase?: string;
  init?: V1Container[];
} = {}): V1Pod {
  const res: Record<string, string> = {};
  if (opts.cpu) res.cpu = opts.cpu;
  if (opts.mem) res.memory = opts.mem;
  return {
    metadata: {
      name: `p${++n}`,
      namespace: 'default',
      uid: `u${n}`,
      annotations: opts.static ? { 'kubernetes.io/config.source': 'file' } : undefined,
    },
    spec: {
      containers: [{ name: 'c', image: 'x', resources: opts.limitsOnly ? { limits: res } : { requests: res } }],
      initContainers: opts.init,
      nodeSelector: opts.nodeSelector,
    },
    status: opts.phase ? { phase: opts.phase } : undefined,
  };
}

const node = (over: Partial<AdmitNode> = {}): AdmitNode => ({
  name: 'n1',
  labels: { 'kubernetes.io/hostname': 'n1', disk: 'ssd' },
  allocatable: { cpuMilli: 2000, memoryBytes: 1024 ** 3, pods: 3 },
  ...over,
});

const cases: Array<[string, V1Pod, V1Pod[], AdmitNode, PodAdmitResult]> = [
  ['fits', pod({ cpu: '500m', mem: '100Mi' }), [pod({ cpu: '1' })], node(), { admit: true }],
  [
    'too many pods',
    pod(),
    [pod(), pod(), pod()],
    node(),
    { admit: false, reason: 'OutOfpods', message: "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3" },
  ],
  [
    // Which pods are active is the pod workers' answer (kubelet/active-pods.ts): every pod the kubelet passes counts.
    'every active pod given counts, whatever its phase says',
    pod(),
    [pod(), pod(), pod({ phase: 'Succeeded' })],
    node(),
    { admit: false, reason: 'OutOfpods', message: "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3" },
  ],
  [
    'cpu',
    pod({ cpu: '1500m' }),
    [pod({ cpu: '1' })],
    node(),
    { admit: false, reason: 'OutOfcpu', message: "Node didn't have enough resource: cpu, requested: 1500, used: 1000, capacity: 2000" },
  ],
  [
    'memory from limits (requests default to limits)',
    pod({ mem: '1Gi', limitsOnly: true }),
    [pod({ mem: '1Mi' })],
    node(),
    {
      admit: false,
      reason: 'OutOfmemory',
      message: "Node didn't have enough resource: memory, requested: 1073741824, used: 1048576, capacity: 1073741824",
    },
  ],
  [
    'node selector mismatch',
    pod({ nodeSelector: { disk: 'hdd' } }),
    [],
    node(),
    { admit: false, reason: 'NodeAffinity', message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector" },
  ],
  ['node selector match', pod({ nodeSelector: { disk: 'ssd' } }), [], node(), { admit: true }],
  [
    // preemption.go: BestEffort pods free pod slots but no cpu, so no set of pods reclaims 2 cores.
    'a static pod short of cpu no pod can free: UnexpectedAdmissionError',
    pod({ static: true, cpu: '4' }),
    [pod(), pod(), pod()],
    node(),
    {
      admit: false,
      reason: 'UnexpectedAdmissionError',
      message:
        'Unexpected error while attempting to recover from admission failure: preemption: error finding a set of pods to preempt: no set of running pods found to reclaim resources: [(res: cpu, q: 2000), ]',
    },
  ],
  [
    'memory pressure refuses BestEffort',
    pod(),
    [],
    node({ pressure: ['MemoryPressure'] }),
    { admit: false, reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' },
  ],
  ['memory pressure admits Burstable', pod({ cpu: '100m' }), [], node({ pressure: ['MemoryPressure'] }), { admit: true }],
  [
    'disk pressure refuses everything but critical',
    pod({ cpu: '100m' }),
    [],
    node({ pressure: ['DiskPressure'] }),
    { admit: false, reason: 'Evicted', message: 'The node had condition: [DiskPressure]. ' },
  ],
  ['disk pressure admits static pods', pod({ static: true }), [], node({ pressure: ['DiskPressure'] }), { admit: true }],
  [
    'untolerated NoExecute taint',
    pod(),
    [],
    node({ taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] }),
    { admit: false, reason: 'TaintToleration', message: 'Predicate TaintToleration failed: node(s) had untolerated taint {dedicated: db}' },
  ],
  [
    'invalid quantity',
    pod({ cpu: 'lots' }),
    [],
    node(),
    {
      admit: false,
      reason: 'UnexpectedAdmissionError',
      message:
        "GeneralPredicates failed due to container c: resources cpu: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$', which is unexpected.",
    },
  ],
];

for (const [name, p, others, nd, want] of cases) {
  test(`admit: ${name}`, () => assert.deepEqual(admit(p, others, nd), want));
}

test('the pod itself in activePods is not counted twice', () => {
  const p = pod();
  assert.deepEqual(admit(p, [p, pod(), pod()], node()), { admit: true });
});

test('required node affinity terms', () => {
  const p = pod();
  p.spec!.affinity = {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: 'disk', operator: 'In', values: ['nvme'] }] },
          { matchExpressions: [{ key: 'disk', operator: 'Exists' }, { key: 'gpu', operator: 'DoesNotExist' }] },
        ],
      },
    },
  };
  assert.deepEqual(admit(p, [], node()), { admit: true });
  assert.equal(admit(p, [], node({ labels: { gpu: 'yes', disk: 'ssd' } })).admit, false);
});

test('a throwing handler becomes UnexpectedAdmissionError', () => {
  const a = createAdmitter([{ name: 'boom', admit: () => { throw new Error('bug'); } }]);
  const r = a(pod(), [], node());
  assert.equal(r.admit, false);
  assert.equal(!r.admit && r.reason, 'UnexpectedAdmissionError');
});

test('init containers: max(init, sum(apps)) plus sidecars', () => {
  const p = pod({ cpu: '100m', init: [{ name: 'big', resources: { requests: { cpu: '1' } } }, { name: 's', restartPolicy: 'Always', resources: { requests: { cpu: '200m' } } }] });
  const r = computePodRequests(p);
  assert.ok(r.ok);
  assert.equal(r.requests.cpuMilli, 1000);
  const q = pod({ cpu: '900m', init: [{ name: 's', restartPolicy: 'Always', resources: { requests: { cpu: '200m' } } }] });
  const rq = computePodRequests(q);
  assert.ok(rq.ok);
  assert.equal(rq.requests.cpuMilli, 1100);
});

test('rejectedPodStatus', () => {
  const p = pod();
  assert.deepEqual(rejectedPodStatus(p, 'OutOfpods', 'Node didn\'t have enough resource: pods'), {
    phase: 'Failed',
    reason: 'OutOfpods',
    message: "Pod was rejected: Node didn't have enough resource: pods",
    qosClass: 'BestEffort',
  });
});
