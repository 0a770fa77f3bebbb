// failedTests() read against TAP written by node's own test runner (the reporter npm test uses), not a hand-made text.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { failedTests } from './tap-failures.mjs';

const dir = mkdtempSync(join(tmpdir(), 'nodelet-tap-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('names each failed test with its error and location, not the suites and files around it', () => {
  writeFileSync(join(dir, 'sample.test.mjs'), [
    "import assert from 'node:assert/strict';",
    "import { describe, it } from 'node:test';",
    "describe('outer suite', () => {",
    "  it('passes', () => {});",
    "  it('compares', () => assert.equal(1 + 1, 3, 'sum of the parts'));",
    "  it('throws', () => { throw new Error('a named cause'); });",
    '});',
  ].join('\n'));
  const tap = join(dir, 'out.tap');
  spawnSync(process.execPath, ['--test', '--test-reporter=tap', `--test-reporter-destination=${tap}`, join(dir, 'sample.test.mjs')], {
    cwd: dir,
    // Without the parent runner's NODE_TEST_CONTEXT, or the child reports to it instead of writing the file.
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT')),
  });
  const failures = failedTests(readFileSync(tap, 'utf8'));
  assert.equal(failures.length, 2, failures.join('\n'));
  assert.match(failures[0]!, /^✖ compares\n/);
  assert.match(failures[0]!, /sum of the parts/);
  assert.match(failures[0]!, /expected: 3/);
  assert.match(failures[0]!, /sample\.test\.mjs/);
  assert.match(failures[1]!, /^✖ throws\n[^]*a named cause/);
  assert.doesNotMatch(failures.join('\n'), /✖ (outer suite|passes)/);
});

it('cuts a long stack to its first lines', () => {
  const stack = Array.from({ length: 40 }, (_, i) => `      at frame${i} (file.js:${i}:1)`).join('\n');
  const tap = `TAP version 13\nnot ok 1 - deep\n  ---\n  duration_ms: 1\n  failureType: 'testCodeFailure'\n  error: 'boom'\n  code: 'ERR_TEST_FAILURE'\n  stack: |-\n${stack}\n  ...\n1..1\n`;
  const [f] = failedTests(tap);
  assert.match(f!, /frame5 /);
  assert.doesNotMatch(f!, /frame6 /);
  assert.match(f!, /error: 'boom'/);
});
