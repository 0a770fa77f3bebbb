// Property-based fuzzing of manifest decoding and validation (fast-check; a failure prints its seed and the
// shrunk counterexample, replay with { seed, path } in fc.assert). Bounded runs keep this file to seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from 'yaml';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { MemoryManifestFs } from '../kubelet/testing/memory-manifest-fs.ts';
import { decodePodOrList, decodeSinglePod, preparePod } from './decode.ts';
import { FileSource } from './file-source.ts';
import { manifest } from './testing/manifest-dir.ts';
import type { PodUpdate } from './types.ts';
import { jsonPaths } from './testing/json-paths.ts';
import { validatePod } from './validation.ts';

const SRC = { kind: 'file' as const, id: '/m/web.yaml', nodeName: 'node1' };
const HTTP = { kind: 'http' as const, id: 'http://h/pods', nodeName: 'node1' };

const valid = () => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', labels: { app: 'web' }, annotations: { note: 'x' } },
  spec: {
    restartPolicy: 'OnFailure',
    volumes: [{ name: 'v', emptyDir: {} }],
    containers: [
      {
        name: 'app',
        image: 'busybox',
        command: ['sleep', '1'],
        env: [{ name: 'A', value: 'b' }],
        ports: [{ containerPort: 80, name: 'http' }],
        resources: { limits: { cpu: '1' } },
        livenessProbe: { tcpSocket: { port: 80 } },
        volumeMounts: [{ name: 'v', mountPath: '/v' }],
      },
    ],
  },
});

/** An admitted pod is valid again, and its uid/name/namespace can never name a path outside their place. */
function assertSafe(pod: V1Pod): void {
  assert.deepEqual(validatePod(pod), []);
  for (const v of [pod.metadata?.uid, pod.metadata?.name, pod.metadata?.namespace]) {
    assert.ok(typeof v === 'string' && v.length > 0 && !v.includes('/') && !v.includes('..') && !v.startsWith('.'), `unsafe ${v}`);
  }
}

function assertDecoded(r: ReturnType<typeof decodeSinglePod>): void {
  if (r.ok) r.pods.forEach(assertSafe);
  else assert.equal(typeof r.message, 'string');
}

test('fuzz: any value given to validatePod and preparePod never throws; a list of errors or a safe pod', () => {
  fc.assert(
    fc.property(fc.anything({ maxDepth: 6 }), (v) => {
      const errs = validatePod(v);
      assert.ok(Array.isArray(errs) && errs.every((e) => typeof e === 'string'));
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
        const r = preparePod({ ...(v as Record<string, unknown>), apiVersion: 'v1', kind: 'Pod' }, SRC);
        if (r.ok) assertSafe(r.pod);
        else assert.match(r.message, /^(invalid pod|Object 'Kind')/);
      }
    }),
    { numRuns: 500 },
  );
});

test('fuzz: arbitrary text (YAML-ish tokens or raw) never throws out of decoding', () => {
  const token = fc.constantFrom('apiVersion: v1', 'kind: Pod', 'metadata:', '  name: a', 'spec:', '  containers:', '  - name: c', '    image: x', '- ', ': ', '{', '}', '[', ']', '&a', '*a', '!!binary', '---', '"', "'", '\t', '  ', '\n', '#', '%YAML 1.1', '~', 'null', '.inf', '0x1F', '<<: *a');
  const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.array(token, { maxLength: 40 }).map((t) => t.join('')), fc.array(token, { maxLength: 30 }).map((t) => t.join('\n')));
  fc.assert(
    fc.property(text, (t) => {
      assertDecoded(decodeSinglePod(t, SRC));
      const r = decodePodOrList(t, HTTP);
      if (r.ok) r.pods.forEach(assertSafe);
    }),
    { numRuns: 300 },
  );
});

const VALID_PATHS = jsonPaths(valid());

/** `doc` with one mutation at `path` (a path of the valid manifest; skipped when an earlier one removed it). */
function mutate(doc: unknown, path: Array<string | number>, op: 'set' | 'delete' | 'add', value: unknown, key: string): unknown {
  const root = { doc: structuredClone(doc) } as Record<string | number, unknown>;
  const full = ['doc', ...path];
  let parent = root;
  for (const k of full.slice(0, -1)) {
    const next = parent[k];
    if (!next || typeof next !== 'object') return root.doc;
    parent = next as Record<string | number, unknown>;
  }
  const last = full.at(-1) as string | number;
  const target = parent[last];
  if (op === 'delete') delete parent[last];
  else if (op === 'add' && target && typeof target === 'object' && !Array.isArray(target)) (target as Record<string, unknown>)[key] = value;
  else parent[last] = value;
  return root.doc;
}

test('fuzz: mutated valid manifests (JSON and YAML) decode to a safe pod or an error, never an exception', () => {
  const mutation = fc.record({
    path: fc.constantFrom(...VALID_PATHS),
    op: fc.constantFrom('set', 'delete', 'add') as fc.Arbitrary<'set' | 'delete' | 'add'>,
    value: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom('../x', 'a/b', '..', '-', 'A', 'x'.repeat(300), -1, 0, 2 ** 31, 1.5)),
    key: fc.constantFrom('name', 'uid', 'namespace', 'containers', 'image', 'ports', 'bogus', '__proto__', 'constructor'),
  });
  fc.assert(
    fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.boolean(), (ms, asYaml) => {
      let doc: unknown = valid();
      for (const m of ms) doc = mutate(doc, m.path, m.op, m.value, m.key);
      const text = asYaml ? stringify(doc) : JSON.stringify(doc);
      assertDecoded(decodeSinglePod(text, SRC));
      assertDecoded(decodeSinglePod(JSON.stringify([doc]), SRC));
      const list = decodePodOrList(JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items: [doc, valid()] }), HTTP);
      assert.ok(list.ok, 'a list is decoded item by item');
      assert.ok(list.ok && list.pods.length + list.errors.length === 2);
    }),
    { numRuns: 250 },
  );
});

/** A document that can never be a valid pod. */
const badDoc = (i: number) =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).filter((v) => !Array.isArray(v)).map((v) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `bad${i}` }, spec: { containers: v } })),
    fc.string({ maxLength: 60 }).map((s) => `{${s}`),
    fc.constantFrom('apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {containers: [{name: c, image: x, ports: abc}]}', 'kind: [', '', '42', `${manifest('dup')}---\n${manifest('dup2')}`),
    fc.constantFrom('../x', 'A', 'a_b').map((n) => manifest(n)),
  );

test('fuzz: a file source over a random mix of good and bad files yields exactly the good ones', async () => {
  const entry = fc.record({ good: fc.boolean(), hidden: fc.boolean(), ext: fc.constantFrom('.yaml', '.yml', '.json', '.txt') });
  await fc.assert(
    fc.asyncProperty(fc.array(entry, { maxLength: 12 }), fc.array(entry, { maxLength: 12 }), fc.nat(), async (first, second, salt) => {
      const fs = new MemoryManifestFs('/m');
      const updates: PodUpdate[] = [];
      const src = new FileSource({ clock: new FakeClock(), fs, onUpdate: (u) => updates.push(u), onError: () => {} }, { path: '/m', nodeName: 'n' });
      const place = async (entries: Array<{ good: boolean; hidden: boolean; ext: string }>, round: number) => {
        for (const f of [...fs.files.keys()]) fs.files.delete(f);
        const expected: string[] = [];
        for (const [i, e] of entries.entries()) {
          const name = `${e.hidden ? '.' : ''}f${i}${e.ext}`;
          const text = e.good ? manifest(`p${i}-r${round}`) : fc.sample(badDoc(i), { numRuns: 1, seed: salt + i * 31 + round })[0]!;
          fs.files.set(`/m/${name}`, text);
          if (e.good && !e.hidden && e.ext !== '.txt') expected.push(`p${i}-r${round}-n`);
        }
        return expected.sort();
      };
      const names = () => (updates.at(-1)?.pods.map((p) => p.metadata?.name ?? '') ?? []).sort();
      try {
        const want1 = await place(first, 1);
        await src.start();
        assert.deepEqual(names(), want1);
        const want2 = await place(second, 2);
        fs.put('.trigger', '');
        await src.whenIdle();
        assert.deepEqual(names(), want2);
      } finally {
        await src.stop();
      }
    }),
    { numRuns: 150 },
  );
});
