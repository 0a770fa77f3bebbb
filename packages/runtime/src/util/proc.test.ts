import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exitCodeOf } from './proc.ts';

// The shell's and runc's exit status: the code, or 128 + the signal number of signal(7) on x86-64 / arm64.
test('exitCodeOf: the exit code, or 128 + the number of the killing signal', () => {
  assert.equal(exitCodeOf(0, null), 0);
  assert.equal(exitCodeOf(3, null), 3);
  assert.equal(exitCodeOf(null, 'SIGKILL'), 137);
  assert.equal(exitCodeOf(null, 'SIGTERM'), 143);
  assert.equal(exitCodeOf(null, 'SIGSEGV'), 139);
  assert.equal(exitCodeOf(null, 'SIGUSR1'), 138);
  assert.equal(exitCodeOf(null, 'SIGABRT'), 134);
  assert.equal(exitCodeOf(null, 'SIGPIPE'), 141);
});
