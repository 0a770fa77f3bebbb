// The seccomp filters the embedded runtime builds, loaded by the real kernel through the runtime's perl loader
// (linux/scripts.ts SECCOMP_LOADER): the kernel's verdict is the expected value (EPERM = "Operation not
// permitted", ENOSYS for clone3, /proc/self/status Seccomp: 2 = filter mode), the profile semantics those of
// Docker's / containerd's profiles (first matching rule, argument conditions ANDed, includes/excludes by caps).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECCOMP_LOADER } from '../../linux/scripts.ts';
import { findBinary } from '../../util/bins.ts';
import { compileProfile, type SeccompProfile } from './bpf.ts';
import { RUNTIME_DEFAULT_PROFILE } from './default-profile.ts';
import { seccompFilter } from './profile.ts';

const perl = findBinary('perl');
const skip = !perl || process.arch !== 'x64' ? (process.env.CI ? false : 'needs perl on x86_64') : false;
const dir = mkdtempSync(join(tmpdir(), 'seccomp-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a perl program under the filter; its output. */
function under(filter: Buffer, program: string): string {
  const r = spawnSync(perl!, ['-e', SECCOMP_LOADER, filter.toString('hex'), perl!, '-e', program], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}
// x86_64 numbers: keyctl 250, mkdir 83, unshare 272, clone3 435, getpid 39, getppid 110; $! after a failed syscall()
const TRY = (nr: number, ...args: number[]) => `print((syscall(${[nr, ...args].join(', ')}) == -1 ? "$!" : "ok"), "\\n");`;

test('RuntimeDefault: filter mode; blocked calls fail with EPERM (clone3 ENOSYS), others work; unshare(0) passes', { skip }, () => {
  const r = compileProfile(RUNTIME_DEFAULT_PROFILE, new Set(['CHOWN', 'SYS_CHROOT']));
  assert.ok(r.ok);
  const out = under(r.filter, `open(my $s, "<", "/proc/self/status"); print grep { /^Seccomp:/ } <$s>; ${TRY(250, 0, 0)} ${TRY(435, 0, 0)} ${TRY(272, 0)} ${TRY(272, 0x40000000)} ${TRY(39)}`);
  assert.deepEqual(out.split('\n').map((l) => l.replace(/\s+/g, ' ')), ['Seccomp: 2', 'Operation not permitted', 'Function not implemented', 'ok', 'Operation not permitted', 'ok', '']);
});

test('RuntimeDefault: a capability the container holds allows its calls again (SYS_ADMIN: unshare with flags)', { skip }, () => {
  const r = compileProfile(RUNTIME_DEFAULT_PROFILE, new Set(['SYS_ADMIN', 'SYS_CHROOT']));
  assert.ok(r.ok);
  // CLONE_NEWUTS: allowed by the filter, and the kernel lets root do it
  assert.equal(under(r.filter, TRY(272, 0x04000000)), 'ok\n');
});

test('Localhost profile: errnoRet, argument conditions (EQ, MASKED_EQ, GE) and the default action', { skip }, () => {
  // getpid ignores its arguments: whatever the filter lets through answers "ok"
  const profile: SeccompProfile = {
    defaultAction: 'SCMP_ACT_ALLOW',
    syscalls: [
      { names: ['mkdir'], action: 'SCMP_ACT_ERRNO', errnoRet: 13 },
      { names: ['getpid'], action: 'SCMP_ACT_ALLOW', args: [{ index: 0, value: 7, op: 'SCMP_CMP_EQ' }, { index: 1, value: 0xf0, valueTwo: 0x10, op: 'SCMP_CMP_MASKED_EQ' }] },
      { names: ['getpid'], action: 'SCMP_ACT_ERRNO', errnoRet: 1, args: [{ index: 0, value: 100, op: 'SCMP_CMP_GE' }] },
      { names: ['getpid'], action: 'SCMP_ACT_ERRNO', errnoRet: 22 },
    ],
  };
  const r = compileProfile(profile, new Set());
  assert.ok(r.ok);
  const out = under(r.filter, [TRY(83, 0, 0), TRY(39, 7, 0x1f), TRY(39, 7, 0x2f), TRY(39, 100), TRY(39, 2 ** 33), TRY(39, 99), TRY(110)].join(' '));
  assert.deepEqual(out.trim().split('\n'), ['Permission denied', 'ok', 'Invalid argument', 'Operation not permitted', 'Operation not permitted', 'Invalid argument', 'ok']);
});

test('seccompFilter: the CRI profile types, privileged, a Localhost file, and the errors containerd gives', () => {
  const sc = (p: Record<string, unknown>) => p as never;
  assert.deepEqual(seccompFilter(sc({ seccomp: { profileType: 'Unconfined' } }), true), { ok: true });
  assert.deepEqual(seccompFilter(sc({ privileged: true, seccomp: { profileType: 'RuntimeDefault' } }), true), { ok: true });
  assert.deepEqual(seccompFilter(sc({}), true), { ok: true });
  assert.deepEqual(seccompFilter(sc({ seccomp: { profileType: 'RuntimeDefault' } }), false), { ok: false, message: 'seccomp is not supported' });
  const rd = seccompFilter(sc({ seccomp: { profileType: 'RuntimeDefault' } }), true);
  if (process.arch === 'x64') assert.ok(rd.ok && rd.filter);
  const file = join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify({ defaultAction: 'SCMP_ACT_LOG' }));
  if (process.arch === 'x64') {
    const local = seccompFilter(sc({ seccomp: { profileType: 'Localhost', localhostRef: file } }), true);
    assert.ok(local.ok && local.filter);
    assert.ok(seccompFilter(sc({ seccompProfilePath: `localhost/${file}` }), true).ok);
    const missing = seccompFilter(sc({ seccomp: { profileType: 'Localhost', localhostRef: join(dir, 'none.json') } }), true);
    assert.ok(!missing.ok && missing.message.startsWith(`failed to generate seccomp spec opts: cannot load seccomp profile "${join(dir, 'none.json')}": ENOENT`), JSON.stringify(missing));
    writeFileSync(file, JSON.stringify({ defaultAction: 'SCMP_ACT_NOPE' }));
    assert.deepEqual(seccompFilter(sc({ seccomp: { profileType: 'Localhost', localhostRef: file } }), true), { ok: false, message: 'failed to generate seccomp spec opts: unknown action "SCMP_ACT_NOPE"' });
  }
});
