import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CgroupLayout } from '../cm/types.ts';
import { cgroupFromProcFile } from './proc-list.ts';

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
