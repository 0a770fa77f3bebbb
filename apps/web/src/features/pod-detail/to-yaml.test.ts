// The YAML is read back with the `yaml` package (a real YAML 1.2 parser, in node_modules) and must give the same
// value; the layout is kubectl's (`kubectl get pod -o yaml`: sorted keys, "- " items at the key's indentation,
// quoted timestamps).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'yaml';
import { toYaml } from './to-yaml.ts';

test('kubectl layout for a pod', () => {
  const pod = {
    kind: 'Pod', apiVersion: 'v1',
    metadata: { name: 'web', labels: { app: 'web' }, creationTimestamp: '2026-11-26T06:00:00Z', annotations: {} },
    spec: { containers: [{ name: 'app', image: 'nginx:1.25', command: ['sh', '-c', 'echo hi; sleep 1'], ports: [{ containerPort: 80 }] }], hostNetwork: false },
    status: { phase: 'Running', podIP: '10.89.0.7', conditions: [] },
  };
  assert.equal(toYaml(pod), [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  annotations: {}',
    '  creationTimestamp: "2026-11-26T06:00:00Z"',
    '  labels:',
    '    app: web',
    '  name: web',
    'spec:',
    '  containers:',
    '  - command:',
    '    - sh',
    '    - -c',
    '    - echo hi; sleep 1',
    '    image: nginx:1.25',
    '    name: app',
    '    ports:',
    '    - containerPort: 80',
    '  hostNetwork: false',
    'status:',
    '  conditions: []',
    '  phase: Running',
    '  podIP: 10.89.0.7',
    '',
  ].join('\n'));
});

test('strings a reader would take for something else are quoted; multi-line strings are blocks', () => {
  const cases: Array<[string, string]> = [
    ['true', '"true"'], ['no', '"no"'], ['null', '"null"'], ['123', '"123"'], ['0.5', '"0.5"'], ['', '""'], [' x', '" x"'],
    ['a: b', '"a: b"'], ['a #b', '"a #b"'], ['- x', '"- x"'], ['*ref', '"*ref"'], ['x', 'x'], ['-g', '-g'], ['2026-11-26', '"2026-11-26"'],
  ];
  for (const [s, want] of cases) assert.equal(toYaml({ k: s }), `k: ${want}\n`, s);
  assert.equal(toYaml({ k: 'line 1\nline 2\n' }), 'k: |\n  line 1\n  line 2\n');
  assert.equal(toYaml({ k: 'line 1\n\nline 3' }), 'k: |-\n  line 1\n\n  line 3\n');
  assert.equal(toYaml([]), '[]\n');
  assert.equal(toYaml('x'), 'x\n');
});

test('fuzz: any JSON value reads back the same', () => {
  const key = fc.string({ maxLength: 12 }).filter((k) => k !== '__proto__');
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 10 }), tie('arr'), tie('obj')),
    arr: fc.array(tie('value'), { maxLength: 4 }),
    obj: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  })).value;
  fc.assert(
    fc.property(json, (v) => {
      const normal = JSON.parse(JSON.stringify(v)) as unknown;
      const text = toYaml(v);
      assert.deepEqual(parse(text, { uniqueKeys: false }), normal, text);
    }),
    { numRuns: 400 },
  );
});
