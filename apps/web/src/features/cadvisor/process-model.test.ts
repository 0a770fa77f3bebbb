import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProcessInfo } from '../../lib/api-types.ts';
import { nextSort, sortProcesses, withCpuPercent } from './process-model.ts';

const proc = (pid: number, cpuNs: number, o: Partial<ProcessInfo> = {}): ProcessInfo => ({
  pid, ppid: 1, uid: 0, user: 'root', cmd: `cmd${pid}`, cgroup: '/', threads: 1, rssBytes: pid * 10, virtualBytes: 0, cpuNanoseconds: cpuNs, kernelThread: false, ...o,
});

test('withCpuPercent: Δcpu / Δt, 100 = one core; none on the first sample, a reused pid or a counter going back', () => {
  const prev = { at: 10_000, processes: [proc(1, 0), proc(2, 5e9), proc(3, 0, { cmd: 'old' })] };
  const cur = { at: 12_000, processes: [proc(1, 1e9), proc(2, 4e9), proc(3, 1e9), proc(4, 1e9)] };
  const rows = withCpuPercent(prev, cur);
  assert.deepEqual(rows.map((r) => r.cpuPercent), [50, undefined, undefined, undefined]);
  assert.deepEqual(withCpuPercent(undefined, cur).map((r) => r.cpuPercent), [undefined, undefined, undefined, undefined]);
  const busy = withCpuPercent({ at: 0, processes: [proc(9, 0)] }, { at: 1000, processes: [proc(9, 2e9)] });
  assert.equal(busy[0]!.cpuPercent, 200);
});

test('sortProcesses sorts by the column (ties by pid) and hides kernel threads unless asked', () => {
  const rows = [proc(5, 0, { user: 'nobody', threads: 4 }), proc(2, 0, { kernelThread: true, cmd: '[kthreadd]' }), proc(9, 0, { user: 'alice', threads: 4 })];
  assert.deepEqual(sortProcesses(rows, { key: 'pid', desc: false }, false).map((r) => r.pid), [5, 9]);
  assert.deepEqual(sortProcesses(rows, { key: 'pid', desc: false }, true).map((r) => r.pid), [2, 5, 9]);
  assert.deepEqual(sortProcesses(rows, { key: 'user', desc: false }, false).map((r) => r.user), ['alice', 'nobody']);
  assert.deepEqual(sortProcesses(rows, { key: 'threads', desc: true }, true).map((r) => r.pid), [5, 9, 2]);
  assert.deepEqual(sortProcesses(rows, { key: 'rss', desc: true }, false).map((r) => r.pid), [9, 5]);
});

test('nextSort flips the same column, starts numbers descending and text ascending', () => {
  assert.deepEqual(nextSort({ key: 'rss', desc: true }, 'rss'), { key: 'rss', desc: false });
  assert.deepEqual(nextSort({ key: 'rss', desc: true }, 'cpu'), { key: 'cpu', desc: true });
  assert.deepEqual(nextSort({ key: 'rss', desc: true }, 'user'), { key: 'user', desc: false });
});
