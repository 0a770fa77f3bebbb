// Property-based checks of pod validation (fast-check; a failure prints its seed and the shrunk counterexample):
// any JSON in the fields the API server's rules read is a list of field errors, never an exception (the #12
// wrong-type freeze stays fixed), and the verdict is the same before and after the API defaulting, as the API
// server validates the defaulted pod. Bounded runs keep this file to seconds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { V1Pod } from '@kubernetes/client-node';
import { decodeSinglePod } from './decode.ts';
import { applyApiDefaults } from './defaults.ts';
import { checkTypes } from './type-check.ts';
import { validatePod } from './validation.ts';

const SRC = { kind: 'file' as const, id: '/m/web.yaml', nodeName: 'node1' };
const SPEC_FIELDS = [
  'dnsPolicy', 'dnsConfig', 'hostAliases', 'tolerations', 'affinity', 'securityContext', 'os', 'readinessGates', 'imagePullSecrets',
  'hostNetwork', 'hostname', 'subdomain', 'nodeSelector', 'restartPolicy', 'activeDeadlineSeconds', 'terminationGracePeriodSeconds',
  'ephemeralContainers', 'initContainers', 'volumes', 'runtimeClassName', 'preemptionPolicy', 'shareProcessNamespace',
];
const CONTAINER_FIELDS = [
  'env', 'envFrom', 'ports', 'resources', 'securityContext', 'lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe',
  'volumeMounts', 'volumeDevices', 'restartPolicy', 'imagePullPolicy', 'terminationMessagePolicy', 'image', 'name',
];

const pod = (spec: Record<string, unknown>, container: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web' },
  spec: { ...spec, containers: [{ name: 'app', image: 'busybox', ...container }] },
});

test('fuzz: any JSON in the validated spec and container fields gives field errors, never an exception', () => {
  const fields = (names: string[]) => fc.dictionary(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 4 });
  fc.assert(
    fc.property(fields(SPEC_FIELDS), fields(CONTAINER_FIELDS), (s, c) => {
      const doc = pod(s, c);
      const errs = validatePod(doc);
      assert.ok(Array.isArray(errs) && errs.every((e) => typeof e === 'string'));
      const r = decodeSinglePod(JSON.stringify(doc), SRC);
      assert.ok(r.ok || r.message.startsWith('invalid pod: '), r.ok ? '' : r.message);
    }),
    { numRuns: 400 },
  );
});

// Values near the edges of the rules the defaulting touches (zeros, empty strings, ports, limits only).
const probe = fc.record(
  {
    tcpSocket: fc.constant({ port: 80 }),
    periodSeconds: fc.constantFrom(0, 1, -1),
    timeoutSeconds: fc.constantFrom(0, 5, -2),
    successThreshold: fc.constantFrom(0, 1, 2, -1),
    failureThreshold: fc.constantFrom(0, 3, -1),
  },
  { requiredKeys: ['tcpSocket'] },
);
const edgeSpec = fc.record(
  {
    restartPolicy: fc.constantFrom('', 'Always', 'Never', 'Bogus'),
    dnsPolicy: fc.constantFrom('', 'ClusterFirst', 'None', 'Bogus'),
    hostNetwork: fc.boolean(),
    terminationGracePeriodSeconds: fc.constantFrom(0, 30, -1),
  },
  { requiredKeys: [] },
);
const edgeContainer = fc.record(
  {
    ports: fc.array(fc.record({ containerPort: fc.constantFrom(80, 8080, 0), hostPort: fc.constantFrom(0, 80, 9090), protocol: fc.constantFrom('TCP', 'UDP', '') }), { maxLength: 2 }),
    resources: fc.record({ limits: fc.dictionary(fc.constantFrom('cpu', 'memory', 'example.com/foo', 'hugepages-2Mi'), fc.constantFrom('1', '2', '64Mi')) }),
    livenessProbe: probe,
    readinessProbe: probe,
    imagePullPolicy: fc.constantFrom('', 'Always', 'Never'),
    terminationMessagePolicy: fc.constantFrom('', 'File'),
  },
  { requiredKeys: [] },
);

test('fuzz: the verdict is the same before and after the API defaulting', () => {
  fc.assert(
    fc.property(edgeSpec, edgeContainer, (s, c) => {
      const typed = checkTypes<V1Pod>(pod(s, c), 'V1Pod').value;
      assert.ok(typed);
      const before = validatePod(typed);
      const after = validatePod(applyApiDefaults(structuredClone(typed)));
      assert.equal(after.length === 0, before.length === 0, `before: ${before.join('; ')} | after: ${after.join('; ')}`);
    }),
    { numRuns: 400 },
  );
});

test('a refusal stays short whatever the size of the refused value (40 000 search domains, a 1 MB nameserver)', () => {
  const errs = validatePod(pod({ dnsConfig: { nameservers: ['x'.repeat(1 << 20)], searches: Array.from({ length: 40_000 }, (_, i) => `s${i}.example`) } }, {}));
  assert.equal(errs.length, 3);
  for (const e of errs) assert.ok(e.length < 2048, e.slice(0, 200));
  assert.match(errs[1]!, /^spec\.dnsConfig\.searches: Invalid value: \[\]string\{"s0\.example", .*\.\.\. \(40000 items\)\}: must not have more than 32 search paths$/);
});
