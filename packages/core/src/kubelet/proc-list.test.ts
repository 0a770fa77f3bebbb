import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CgroupLayout } from '../cm/types.ts';
import { cgroupFromProcFile, parsePasswd, parseProcStat } from './proc-list.ts';

const v1: CgroupLayout = { mode: 'hybrid', v1: { memory: '/sys/fs/cgroup/memory' }, unified: '/sys/fs/cgroup/unified', driver: 'v1' };
const v2: CgroupLayout = { mode: 'v2', v1: {}, unified: '/sys/fs/cgroup', driver: 'v2' };

const cases: [string, string, CgroupLayout, string | undefined][] = [
  ['v1 memory line', '12:pids:/a\n5:memory:/kubepods/podx/c1\n0::/user.slice\n', v1, '/kubepods/podx/c1'],
  ['v1 co-mounted memory', '3:cpu,memory:/x\n', v1, '/x'],
  ['v2 unified line', '0::/kubepods.slice/x.scope\n', v2, '/kubepods.slice/x.scope'],
  ['v1 without memory line', '0::/only-unified\n', v1, undefined],
];

for (const [name, text, layout, want] of cases) {
  test(`cgroupFromProcFile: ${name}`, () => assert.equal(cgroupFromProcFile(text, layout), want));
}

test('parsePasswd maps uids to names (first entry wins, comments and junk skipped)', () => {
  const users = parsePasswd('root:x:0:0:root:/root:/bin/bash\n# comment\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\ntoor:x:0:0::/:/bin/sh\nbad-line\n');
  assert.equal(users.get(0), 'root');
  assert.equal(users.get(65534), 'nobody');
  assert.equal(users.size, 2);
});

test('parseProcStat: utime + stime in ns (USER_HZ 100) and PF_KTHREAD, comm with spaces and parens', () => {
  // proc(5): pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime …
  const kthread = '2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 3 17 0 0 20 0 1 0 2 0 0';
  assert.deepEqual(parseProcStat(kthread), { cpuNanoseconds: 20 * 1e7, kernelThread: true });
  const user = '4242 (my (odd) cmd) R 1 4242 4242 0 -1 4194560 120 0 0 0 150 50 0 0 20 0 3 0 900 0 0';
  assert.deepEqual(parseProcStat(user), { cpuNanoseconds: 200 * 1e7, kernelThread: false });
  assert.equal(parseProcStat('garbage'), undefined);
});
