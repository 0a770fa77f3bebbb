/**
 * Integration: operations that land while a StartContainer is still launching the container (containerd's
 * "starting" state). RemoveContainer is refused with containerd's error, a second StartContainer too,
 * StopContainer and StopPodSandbox wait for the start to settle and then stop it: no process outlives its record.
 * The operations are called on the in-process runtime (what the gRPC handlers call): an async operation runs
 * synchronously up to its first await, so the second call always lands while the start is launching.
 * Run: node --import tsx --test packages/runtime/src/server/cri-start-races.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { containerConfig, sandboxConfig, startInProcess, type Harness } from '../testing/harness.ts';

let h: Harness;
before(async () => {
  h = await startInProcess();
});
after(async () => {
  // Only after a failure (the code before the fix): processes a raced start left behind, found by our token.
  for (const p of pidsWith(TOKEN)) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  await h?.cleanup();
});

const rt = () => h.runtime.runtime;
/** Every container command here sleeps for a number of seconds no other process on the host uses. */
const TOKEN = `${process.pid}00`;
const sleeper = (n: number) => ['sleep', `${TOKEN}${n}`];
const OK = { ok: true, value: undefined };

/** Live processes whose argv holds a word starting with `word`: every step of a container's launch chain. */
function pidsWith(word: string): number[] {
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').some((w) => w.startsWith(word))) pids.push(Number(d));
    } catch {
      /* exited meanwhile */
    }
  }
  return pids;
}

/** Launch chains of container `n` alive: the runtime (this process) spawns one per start, which lives as long as the container. */
const launches = (n: number) =>
  pidsWith(`${TOKEN}${n}`).filter((p) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
    } catch {
      return false;
    }
  });

async function createIn(name: string, n: number): Promise<{ podId: string; id: string }> {
  const config = sandboxConfig(name, join(h.dir, 'logs'));
  const { podSandboxId } = await h.rt.RunPodSandbox({ config });
  const { containerId } = await h.rt.CreateContainer({ podSandboxId, config: containerConfig('main', sleeper(n)), sandboxConfig: config });
  return { podId: podSandboxId as string, id: containerId as string };
}

const states = async (podSandboxId: string) =>
  (await h.rt.ListContainers({ filter: { podSandboxId } })).containers.map((c: { id: string; state: string }) => [c.id, c.state]);

test('RemoveContainer while the start is launching: refused as containerd does; the container runs; stop + remove leave no process', async () => {
  const { podId, id } = await createIn('rm-race', 1);
  let settled = false;
  const starting = rt().startContainer(id).finally(() => (settled = true));
  const removed = await rt().removeContainer(id);
  assert.equal(settled, false, 'the remove was answered while the start was in flight');
  // containerd (internal/cri/server/container_remove.go, setContainerRemoving): a plain error → gRPC Unknown.
  assert.deepEqual(removed, {
    ok: false, code: 'UNKNOWN', message: `failed to set removing state for container "${id}": container is in starting state, can't be removed`,
  });
  assert.deepEqual(await starting, OK);
  assert.deepEqual(await states(podId), [[id, 'CONTAINER_RUNNING']]);
  const pid = JSON.parse((await h.rt.ContainerStatus({ containerId: id, verbose: true })).info.info).pid;
  assert.equal(launches(1).length, 1, 'the container was launched once');
  assert.ok(pidsWith(`${TOKEN}1`).includes(pid), 'its init runs');
  await h.rt.StopContainer({ containerId: id, timeout: 0 });
  await h.rt.RemoveContainer({ containerId: id });
  assert.deepEqual(await states(podId), []);
  assert.deepEqual(pidsWith(`${TOKEN}1`), [], 'nothing of the container is left');
  await h.rt.RemovePodSandbox({ podSandboxId: podId });
});

test('a second StartContainer while the first is launching is refused (containerd: already in starting state); one process runs', async () => {
  const { podId, id } = await createIn('start-race', 2);
  const first = rt().startContainer(id);
  const second = await rt().startContainer(id);
  assert.deepEqual(second, { ok: false, code: 'UNKNOWN', message: `failed to set starting state for container "${id}": container is already in starting state` });
  assert.deepEqual(await first, OK);
  assert.equal(launches(2).length, 1, 'the container was launched once');
  await h.rt.RemovePodSandbox({ podSandboxId: podId });
  assert.deepEqual(pidsWith(`${TOKEN}2`), []);
});

test('StopContainer while the start is launching waits for the start, then stops the container', async () => {
  const { podId, id } = await createIn('stop-race', 3);
  let settled = false;
  const starting = rt().startContainer(id).finally(() => (settled = true));
  assert.deepEqual(await rt().stopContainer(id, 0), OK);
  assert.equal(settled, true, 'the stop returned after the start settled');
  assert.deepEqual(await starting, OK);
  const st = (await h.rt.ContainerStatus({ containerId: id })).status;
  assert.deepEqual([st.state, st.exitCode], ['CONTAINER_EXITED', 137]);
  assert.deepEqual(pidsWith(`${TOKEN}3`), [], 'a stopped container leaves no process');
  await h.rt.RemoveContainer({ containerId: id });
  assert.deepEqual(await states(podId), []);
  await h.rt.RemovePodSandbox({ podSandboxId: podId });
});

test('RemovePodSandbox while a container start is launching: the container is stopped and removed with the pod', async () => {
  const { podId, id } = await createIn('pod-race', 4);
  const starting = rt().startContainer(id);
  assert.deepEqual(await rt().removeSandbox(podId), OK);
  await starting;
  assert.deepEqual(await states(podId), []);
  await assert.rejects(h.rt.ContainerStatus({ containerId: id }), /NOT_FOUND/);
  assert.deepEqual(pidsWith(`${TOKEN}4`), [], 'nothing of the container outlives its pod');
});
