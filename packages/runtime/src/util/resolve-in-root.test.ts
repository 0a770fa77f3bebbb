import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resolveInRoot } from './resolve-in-root.ts';

const root = mkdtempSync(join(tmpdir(), 'resolve-in-root-'));
after(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, 'run'));
mkdirSync(join(root, 'var/lib'), { recursive: true });
symlinkSync('/run', join(root, 'var/run')); // absolute: must resolve inside root
symlinkSync('../../etc', join(root, 'var/lib/up')); // climbs: clamped at root
symlinkSync('lib', join(root, 'var/rel'));
symlinkSync('loop2', join(root, 'loop1'));
symlinkSync('loop1', join(root, 'loop2'));

describe('resolveInRoot', () => {
  const table: Array<[string, string]> = [
    ['/var/run/secrets/kubernetes.io/serviceaccount', '/run/secrets/kubernetes.io/serviceaccount'],
    ['/var/lib/up/cron.d', '/etc/cron.d'],
    ['/var/rel/x', '/var/lib/x'],
    ['/../../../etc/passwd', '/etc/passwd'],
    ['/missing/../x/./y', '/x/y'],
    ['/missing/a/../b', '/missing/b'],
    ['/', '/'],
  ];
  for (const [input, want] of table) {
    it(`${input} → ${want}`, () => assert.deepEqual(resolveInRoot(root, input), { ok: true, path: want }));
  }
  it('a symlink loop is an error, not a hang', () => {
    assert.deepEqual(resolveInRoot(root, '/loop1/x'), { ok: false, reason: 'too many levels of symbolic links in /loop1/x' });
  });
});
