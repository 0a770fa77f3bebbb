/**
 * `promtool check metrics` on everything this folder exports: the exposition must parse, and every lint
 * complaint must be one of the known upstream names that break promtool's conventions (kept for
 * compatibility with dashboards built on the kubelet's and cAdvisor's names).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Registry } from 'prom-client';
import { registerResourceCollectors } from './resource-collector.ts';
import { sampleExposition } from './testing/sample-registry.ts';
import { unexpectedLint } from './promtool-exceptions.ts';

export { PROMTOOL_EXCEPTIONS } from './promtool-exceptions.ts';

const hasPromtool = spawnSync('promtool', ['--version']).status === 0;

test('promtool: parses clean, lint complaints only on the exception list', { skip: hasPromtool ? false : 'promtool not installed' }, async () => {
  const text = await sampleExposition();
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 3, `promtool exit ${r.status}: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /error while linting/);
  const complaints = `${r.stdout}\n${r.stderr}`.split('\n').map((l) => l.trim()).filter(Boolean);
  assert.deepEqual(unexpectedLint(`${r.stdout}\n${r.stderr}`), []);
  assert.ok(complaints.some((l) => l.startsWith('container_memory_failcnt ')), 'promtool lint ran');
});

test('promtool: /metrics/resource lints clean', { skip: hasPromtool ? false : 'promtool not installed' }, async () => {
  const r = new Registry();
  const T = '2026-01-01T00:00:00.000Z';
  registerResourceCollectors(r, () => ({
    node: { nodeName: 'n', startTime: T, cpu: { time: T, usageCoreNanoSeconds: 1 }, memory: { time: T, workingSetBytes: 1 } },
    pods: [{ podRef: { name: 'p', namespace: 'd', uid: 'u' }, startTime: T, containers: [{ name: 'c', startTime: T, cpu: { time: T, usageCoreNanoSeconds: 1 } }] }],
  }));
  const out = spawnSync('promtool', ['check', 'metrics'], { input: await r.metrics(), encoding: 'utf8' });
  assert.equal(out.status, 0, out.stdout + out.stderr);
});

test('promtool rejects a broken exposition (the check can fail)', { skip: hasPromtool ? false : 'promtool not installed' }, () => {
  const r = spawnSync('promtool', ['check', 'metrics'], { input: '# TYPE x counter\nx{a="1" 2\n', encoding: 'utf8' });
  assert.notEqual(r.status, 0);
});

test('unexpectedLint: only complaints off the exception list are reported', () => {
  const cases: [string, string[]][] = [
    ['container_memory_failcnt counter metrics should have "_total" suffix\n', []],
    ['my_counter counter metrics should have "_total" suffix\n', ['my_counter counter metrics should have "_total" suffix']],
    ['kubelet_evictions non-counter metrics should not have "_total" suffix\n', ['kubelet_evictions non-counter metrics should not have "_total" suffix']],
    ['', []],
  ];
  for (const [out, want] of cases) assert.deepEqual(unexpectedLint(out), want);
});
