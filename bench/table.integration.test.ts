// CI's smoke of the benchmarks (issue #14 item 7): `npm run bench`'s table code at the smallest sizes (1 pod, 3 at
// once), on the embedded runtime and on a private containerd, so the benches keep working. It checks that every
// figure was measured (a pod reached Running on /pods, the raw CRI floor ran) and never fails on a time.
// Containerd needs root and the Debian packages: outside CI a missing containerd skips its half with the reason;
// under CI=true it fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compiledAgentMain, containerdRuntime, type RuntimeUnderTest } from './runtimes.ts';
import { QUICK, runtimeRows, TABLE_HEADER } from './table.ts';
import { table } from './stats.ts';

compiledAgentMain(); // builds dist/ once when stale (the bench runs the compiled daemon)

function checkRows(name: string, rows: string[][]): void {
  console.log(table(TABLE_HEADER, rows));
  const want = [`1 pod (×1) p50`, `1 pod (×1) p99`, `3 at once, all Running`];
  assert.deepEqual(rows.map((r) => r[1]), want);
  for (const r of rows) {
    assert.equal(r[0], name);
    assert.equal(r.length, TABLE_HEADER.length);
    for (const ms of [r[2], r[3]]) assert.match(ms ?? '', /^\d+ ms$/, `${r[1]}: a measured time, not n/a`);
    assert.match(r[4] ?? '', /^\d+\.\d\d×$/);
    assert.match(r[5] ?? '', /^\d+\.\d$/, 'the load average beside the figure');
  }
}

test('bench table smoke: embedded runtime, 1 pod and 3 at once beside the raw CRI floor', async () => {
  const rt: RuntimeUnderTest = { name: 'embedded', image: 'nodelet.local/host:latest', stop: async () => {} };
  checkRows('embedded', await runtimeRows(rt, QUICK));
});

test('bench table smoke: containerd, 1 pod and 3 at once beside the raw CRI floor', async (t) => {
  const rt = containerdRuntime();
  if (!rt) {
    const why = 'containerd not available (root and containerd + runc + the CNI plugins needed; see the log above)';
    if (process.env.CI === 'true') assert.fail(why);
    t.skip(why);
    return;
  }
  try {
    checkRows('containerd', await runtimeRows(rt, QUICK));
  } finally {
    await rt.stop();
  }
});
