/**
 * fsGroup volume ownership. Expected modes come from the kubelet's pkg/volume/volume_linux.go
 * (rwMask 0660, roMask 0440, execMask 0110, setgid on directories, symlinks not chmodded; OnRootMismatch skips
 * when the root has the group, the bits and setgid) and from the upstream specs
 * test/e2e/common/storage/secrets_volume.go and projected_secret.go "should be consumable from pods in volume
 * as non-root with defaultMode and fsGroup set" (defaultMode 0440, fsGroup 1001 → `-r--r-----`).
 * chown needs root: skipped without it outside CI, failing under CI=true.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, chown, lstat, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_DIR, writePayload, type Payload } from './atomic-writer.ts';
import { ownedFileMode, podOwnership, setVolumeOwnership } from './volume-ownership.ts';

const root = process.getuid?.() === 0;
const opts = { skip: !root && process.env.CI !== 'true' ? 'chown to another group needs root' : false };
const FS_GROUP = 1001;

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'volume-ownership-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const mode = async (p: string) => (await stat(p)).mode & 0o7777;

test('podOwnership: nothing without fsGroup; the change policy only where asked for', () => {
  assert.equal(podOwnership(undefined, true), undefined);
  assert.equal(podOwnership({}, true), undefined);
  assert.deepEqual(podOwnership({ fsGroup: 0 }, false), { fsGroup: 0, readOnly: false });
  assert.deepEqual(podOwnership({ fsGroup: 5, fsGroupChangePolicy: 'OnRootMismatch' }, true), { fsGroup: 5, readOnly: true });
  assert.deepEqual(podOwnership({ fsGroup: 5, fsGroupChangePolicy: 'OnRootMismatch' }, true, true), { fsGroup: 5, readOnly: true, policy: 'OnRootMismatch' });
});

test('ownedFileMode: roMask 0440 for read-only volumes, rwMask 0660 otherwise', () => {
  assert.equal(ownedFileMode(0o440, true), 0o440);
  assert.equal(ownedFileMode(0o400, true), 0o440);
  assert.equal(ownedFileMode(0o644, true), 0o644);
  assert.equal(ownedFileMode(0o600, false), 0o660);
});

test('setVolumeOwnership: read-only volume: group fsGroup, files | 0440, dirs | 0110 + setgid, symlinks not chmodded', opts, async () => {
  await withDir(async (dir) => {
    await mkdir(join(dir, 'sub'), { mode: 0o700 });
    await chmod(join(dir, 'sub'), 0o700);
    await writeFile(join(dir, 'sub', 'f'), 'x');
    await chmod(join(dir, 'sub', 'f'), 0o400);
    await writeFile(join(dir, 'g'), 'y');
    await chmod(join(dir, 'g'), 0o600);
    await symlink('sub/f', join(dir, 'link'));
    const r = await setVolumeOwnership(dir, { fsGroup: FS_GROUP, readOnly: true });
    assert.deepEqual(r, { walked: true, errors: [] });
    assert.equal(await mode(join(dir, 'sub', 'f')), 0o440);
    assert.equal(await mode(join(dir, 'g')), 0o640);
    assert.equal(await mode(join(dir, 'sub')), 0o2750);
    for (const p of ['sub/f', 'g', 'sub', '.']) assert.equal((await stat(join(dir, p))).gid, FS_GROUP, p);
    assert.equal((await lstat(join(dir, 'link'))).gid, FS_GROUP, 'the link itself is re-grouped');
    assert.equal((await stat(join(dir, 'sub', 'f'))).uid, 0, 'the owner is kept');
  });
});

test('setVolumeOwnership: writable volume (emptyDir): files | 0660, dirs 0777 → 02777', opts, async () => {
  await withDir(async (dir) => {
    await chmod(dir, 0o777);
    await writeFile(join(dir, 'f'), 'x');
    await chmod(join(dir, 'f'), 0o600);
    await setVolumeOwnership(dir, { fsGroup: FS_GROUP, readOnly: false });
    assert.equal(await mode(join(dir, 'f')), 0o660);
    assert.equal(await mode(dir), 0o2777);
  });
});

test('setVolumeOwnership: OnRootMismatch skips when the root matches, walks when it does not; Always always walks', opts, async () => {
  await withDir(async (dir) => {
    await writeFile(join(dir, 'f'), 'x');
    await chown(dir, 0, FS_GROUP);
    await chmod(dir, 0o2770);
    const policy = { fsGroup: FS_GROUP, readOnly: false, policy: 'OnRootMismatch' };
    assert.equal((await setVolumeOwnership(dir, policy)).walked, false);
    assert.equal((await stat(join(dir, 'f'))).gid, 0, 'the contents are left alone');
    await chmod(dir, 0o750); // no setgid, no group w
    assert.equal((await setVolumeOwnership(dir, policy)).walked, true);
    assert.equal((await stat(join(dir, 'f'))).gid, FS_GROUP);
    await chown(join(dir, 'f'), 0, 0);
    assert.equal((await setVolumeOwnership(dir, { ...policy, policy: 'Always' })).walked, true);
    assert.equal((await stat(join(dir, 'f'))).gid, FS_GROUP);
  });
});

test('secret volume payload with defaultMode 0440 and fsGroup 1001: the file is -r--r----- group 1001, rewritten only on change', opts, async () => {
  await withDir(async (dir) => {
    const target = join(dir, 'vol');
    const o = { fsGroup: FS_GROUP, readOnly: true };
    const perms = { apply: async (t: string) => void (await setVolumeOwnership(t, o)), fileMode: (m: number) => ownedFileMode(m, true) };
    const payload: Payload = new Map([['data-1', { data: Buffer.from('value-1\n'), mode: 0o440 }]]);
    assert.deepEqual(await writePayload(target, payload, 0, perms), { ok: true, changed: true });
    const file = join(target, DATA_DIR, 'data-1');
    assert.equal(await mode(file), 0o440);
    assert.equal((await stat(file)).gid, FS_GROUP);
    assert.equal((await stat(join(target, 'data-1'))).gid, FS_GROUP, 'through the user-visible symlink');
    assert.deepEqual(await writePayload(target, payload, 1, perms), { ok: true, changed: false });
    const mode0400: Payload = new Map([['data-1', { data: Buffer.from('value-2\n'), mode: 0o400 }]]);
    assert.deepEqual(await writePayload(target, mode0400, 2, perms), { ok: true, changed: true });
    assert.equal(await mode(file), 0o440, '0400 | roMask');
    assert.equal((await stat(join(target, DATA_DIR))).gid, FS_GROUP, 'the new timestamped dir too');
    assert.deepEqual(await writePayload(target, mode0400, 3, perms), { ok: true, changed: false });
  });
});
