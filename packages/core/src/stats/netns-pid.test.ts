import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createNetnsPidCache } from './netns-pid.ts';

/** A process table: pid → its network namespace link (as /proc/<pid>/ns/net reads), and a walk that counts. */
function setup(withReadlink = true) {
  const ns = new Map<number, string>([[41, 'net:[4026532001]']]);
  let first: number | undefined = 41;
  const walks: string[] = [];
  const fs = withReadlink
    ? {
        readlink: async (p: string) => {
          const pid = Number(/^\/proc\/(\d+)\/ns\/net$/.exec(p)?.[1]);
          const link = ns.get(pid);
          if (link === undefined) throw Object.assign(new Error(`readlink ${p}: no such file or directory`), { code: 'ENOENT' });
          return link;
        },
      }
    : {};
  const cache = createNetnsPidCache(fs, async (cg) => {
    walks.push(cg);
    return first;
  });
  return { ns, walks, cache, setFirst: (p: number | undefined) => (first = p) };
}

const POD = '/kubepods/besteffort/pod1';

test('the pid found is used again while its namespace link is the same: one walk for many samples', async () => {
  const s = setup();
  for (let i = 0; i < 5; i++) assert.equal(await s.cache.pid(POD, i * 10_000), 41);
  assert.deepEqual(s.walks, [POD]);
});

test('a process gone (no /proc/<pid>) means a new walk', async () => {
  const s = setup();
  await s.cache.pid(POD, 0);
  s.ns.delete(41);
  s.ns.set(77, 'net:[4026532001]');
  s.setFirst(77);
  assert.equal(await s.cache.pid(POD, 10_000), 77);
  assert.equal(s.walks.length, 2);
});

test('a pid reused by a process in another namespace is not read: a new walk finds the pod again', async () => {
  const s = setup();
  await s.cache.pid(POD, 0);
  s.ns.set(41, 'net:[4026531840]'); // the host's namespace now holds pid 41
  s.ns.set(90, 'net:[4026532001]');
  s.setFirst(90);
  assert.equal(await s.cache.pid(POD, 10_000), 90);
  assert.equal(s.walks.length, 2);
});

test('a cgroup with no process: undefined, nothing kept', async () => {
  const s = setup();
  s.setFirst(undefined);
  assert.equal(await s.cache.pid(POD, 0), undefined);
  assert.equal(await s.cache.pid(POD, 1), undefined);
  assert.equal(s.walks.length, 2);
  assert.equal(s.cache.size(), 0);
});

test('without readlink every call walks', async () => {
  const s = setup(false);
  await s.cache.pid(POD, 0);
  await s.cache.pid(POD, 1);
  assert.equal(s.walks.length, 2);
});

test('entries of pods no longer sampled are forgotten after 10 minutes', async () => {
  const s = setup();
  await s.cache.pid(POD, 0);
  await s.cache.pid('/kubepods/besteffort/pod2', 0);
  assert.equal(s.cache.size(), 2);
  await s.cache.pid(POD, 9 * 60_000);
  await s.cache.pid(POD, 10 * 60_000 + 1);
  assert.equal(s.cache.size(), 1, 'pod2 unused for 10 minutes is gone, pod1 kept');
});
