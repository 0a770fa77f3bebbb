import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { ContainerGc, DEFAULT_CONTAINER_GC_POLICY, type ContainerGcPolicy, type GcFs } from './container-gc.ts';

/** A fake runtime holding pods whose containers have died `deaths` times each (one attempt per death). */
async function world(pods: Array<{ uid: string; containers: Record<string, number>; running?: string[] }>, policy: Partial<ContainerGcPolicy> = {}) {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock });
  const files = new Map<string, number>();
  const removedDirs: string[] = [];
  const fs: GcFs = {
    size: async (p) => {
      const s = files.get(p);
      if (s === undefined) throw new Error('ENOENT');
      return s;
    },
    remove: async (p) => void files.delete(p),
    removeAll: async (p) => void removedDirs.push(p),
  };
  const removable = new Set<string>();
  for (const p of pods) {
    const sb = await cri.runPodSandbox({ config: { metadata: { name: p.uid, uid: p.uid, namespace: 'ns', attempt: 0 }, logDirectory: `/logs/${p.uid}` } });
    for (const [name, deaths] of Object.entries(p.containers)) {
      for (let attempt = 0; attempt < deaths + (p.running?.includes(name) ? 1 : 0); attempt++) {
        await clock.step(1_000);
        const labels = { 'io.kubernetes.pod.uid': p.uid, 'io.kubernetes.pod.name': p.uid, 'io.kubernetes.pod.namespace': 'ns', 'io.kubernetes.container.name': name };
        const { containerId } = await cri.createContainer({
          podSandboxId: sb.podSandboxId,
          config: { metadata: { name, attempt }, image: { image: 'nodelet.local/host:latest' }, labels, logPath: `${name}/${attempt}.log` },
        });
        files.set(`/logs/${p.uid}/${name}/${attempt}.log`, 100);
        await cri.startContainer({ containerId });
        if (attempt < deaths) cri.exitContainer(containerId, { exitCode: 1 });
      }
    }
  }
  const gc = new ContainerGc(
    { cri, clock, logger: nullLogger, fs, podRemovable: (uid) => removable.has(uid), allSourcesReady: () => true, podLogsDir: '/var/log/pods' },
    { ...DEFAULT_CONTAINER_GC_POLICY, ...policy },
  );
  const left = () => [...cri.containers.values()].map((c) => `${c.config.labels?.['io.kubernetes.pod.uid']}/${c.config.metadata?.name}#${c.config.metadata?.attempt}`).sort();
  return { clock, cri, gc, files, removable, removedDirs, left };
}

test('container GC policy: table', async () => {
  const cases: Array<{ name: string; policy: Partial<ContainerGcPolicy>; removable?: string[]; advanceMs?: number; want: string[] }> = [
    {
      name: 'defaults: keep the newest dead container per (pod, container); running ones stay',
      policy: {},
      want: ['a/app#2', 'a/app#3', 'a/side#0', 'b/web#1'],
    },
    { name: 'MaxPerPodContainer 0', policy: { maxPerPodContainer: 0 }, want: ['a/app#3'] },
    { name: 'MaxPerPodContainer −1 keeps all', policy: { maxPerPodContainer: -1 }, want: ['a/app#0', 'a/app#1', 'a/app#2', 'a/app#3', 'a/side#0', 'b/web#0', 'b/web#1'] },
    {
      name: 'MaxContainers 2 over 3 units: each unit cut to 1, then the oldest go',
      policy: { maxPerPodContainer: -1, maxContainers: 2 },
      want: ['a/app#3', 'a/side#0', 'b/web#1'],
    },
    { name: 'MinAge: young dead containers stay (b/web#0 is younger than 3.5 s)', policy: { minAgeMs: 3_500 }, want: ['a/app#2', 'a/app#3', 'a/side#0', 'b/web#0', 'b/web#1'] },
    { name: 'removable pod loses every dead container', policy: {}, removable: ['b'], want: ['a/app#2', 'a/app#3', 'a/side#0'] },
  ];
  for (const c of cases) {
    const w = await world([{ uid: 'a', containers: { app: 3, side: 1 }, running: ['app'] }, { uid: 'b', containers: { web: 2 } }], c.policy);
    for (const r of c.removable ?? []) w.removable.add(r);
    await w.clock.step(c.advanceMs ?? 0);
    await w.gc.garbageCollect();
    assert.deepEqual(w.left(), c.want, c.name);
  }
});

test('removed containers take their log files; result names them and counts bytes', async () => {
  const w = await world([{ uid: 'a', containers: { app: 3 } }]);
  const r = await w.gc.garbageCollect('manual');
  assert.equal(r.removed.length, 2);
  assert.match(r.removed[0] ?? '', /^ns\/a\/app \(container-0/);
  assert.equal(r.freedBytes, 200);
  assert.deepEqual([...w.files.keys()], ['/logs/a/app/2.log']);
  assert.equal(r.trigger, 'manual');
});

test('dead sandboxes: removable pods lose all (and their log dir); others keep the newest', async () => {
  const w = await world([{ uid: 'gone', containers: { app: 1 } }]);
  for (const s of w.cri.sandboxes.values()) await w.cri.stopPodSandbox({ podSandboxId: s.id });
  const second = await w.cri.runPodSandbox({ config: { metadata: { name: 'gone', uid: 'gone', namespace: 'ns', attempt: 1 } } });
  await w.cri.stopPodSandbox({ podSandboxId: second.podSandboxId });
  await w.gc.garbageCollect();
  assert.equal(w.cri.sandboxes.size, 2, 'the container still holds the first sandbox; the newest is kept');
  w.removable.add('gone');
  const r = await w.gc.garbageCollect();
  assert.equal(w.cri.sandboxes.size, 0);
  assert.equal(w.cri.containers.size, 0);
  assert.ok(r.removed.some((x) => x.includes('sandbox')));
  assert.deepEqual(w.removedDirs, ['/var/log/pods/ns_gone_gone']);
});
