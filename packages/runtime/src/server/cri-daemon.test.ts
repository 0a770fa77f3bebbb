/**
 * Integration: main.ts as a daemon. Restart keeps listings, SIGTERM leaves no processes, and the
 * unprivileged (user namespace) path. Run: node --import tsx --test packages/runtime/src/server/cri-daemon.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerConfig, criClients, sandboxConfig, spawnDaemon, until, waitExit } from '../testing/harness.ts';

/** Pids whose environment mentions `marker` (every container process carries NODELET_* paths under it). */
function processesMentioning(marker: string): number[] {
  const out: number[] = [];
  for (const p of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${p}/environ`, 'utf8').includes(marker) || readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker)) out.push(Number(p));
    } catch {
      /* gone or not ours */
    }
  }
  return out.filter((p) => p !== process.pid);
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));

test('SIGTERM stops everything and exits 0; a restarted runtime keeps its listings', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-rtd-'));
  const sock = join(dir, 'rt.sock');
  const root = join(dir, 'root');
  try {
    let d = await spawnDaemon(sock, root);
    let c = criClients(sock);
    const config = sandboxConfig('survivor', join(dir, 'logs'));
    const { podSandboxId } = await c.rt.RunPodSandbox({ config });
    const mk = async (name: string, cmd: string[]) => {
      const { containerId } = await c.rt.CreateContainer({ podSandboxId, config: containerConfig(name, cmd), sandboxConfig: config });
      await c.rt.StartContainer({ containerId });
      return containerId as string;
    };
    const done = await mk('done', ['sh', '-c', 'exit 7']);
    const runs = await mk('runs', ['sleep', '1000']);
    await until(async () => (await c.rt.ContainerStatus({ containerId: done })).status.state === 'CONTAINER_EXITED', 'exit');
    const pausePid = JSON.parse((await c.rt.PodSandboxStatus({ podSandboxId, verbose: true })).info.info).pid as number;
    const runsPid = JSON.parse((await c.rt.ContainerStatus({ containerId: runs, verbose: true })).info.info).pid as number;
    assert.ok(alive(pausePid) && alive(runsPid));
    c.close();
    d.child.kill('SIGTERM');
    assert.equal(await waitExit(d.child), 0);
    assert.equal(existsSync(sock), false, 'socket removed');
    assert.equal(alive(pausePid) || alive(runsPid), false, 'sandbox and container processes are gone');
    assert.deepEqual(processesMentioning(root), [], 'no process left behind');

    d = await spawnDaemon(sock, root);
    c = criClients(sock);
    await assert.rejects(spawnDaemon(sock, root), /another process is serving/, 'a second runtime does not steal the socket');
    const pods = (await c.rt.ListPodSandbox({})).items;
    assert.deepEqual(pods.map((p: { id: string; state: string }) => [p.id, p.state]), [[podSandboxId, 'SANDBOX_NOTREADY']]);
    const byId = new Map<string, { state: string }>((await c.rt.ListContainers({})).containers.map((x: { id: string }) => [x.id, x]));
    assert.equal(byId.get(done)?.state, 'CONTAINER_EXITED');
    assert.equal(byId.get(runs)?.state, 'CONTAINER_EXITED');
    const s = (await c.rt.ContainerStatus({ containerId: done })).status;
    assert.deepEqual([s.exitCode, s.reason], [7, 'Error']);
    await c.rt.RemovePodSandbox({ podSandboxId });
    assert.equal((await c.rt.ListContainers({})).containers.length, 0);
    c.close();
    d.child.kill('SIGTERM');
    assert.equal(await waitExit(d.child), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('after a runtime crash (SIGKILL) the next runtime adopts live containers and records their exit', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-rtc-'));
  const sock = join(dir, 'rt.sock');
  const root = join(dir, 'root');
  try {
    let d = await spawnDaemon(sock, root);
    let c = criClients(sock);
    const config = sandboxConfig('crash', join(dir, 'logs'));
    const { podSandboxId } = await c.rt.RunPodSandbox({ config });
    // Exits with 5 once the test creates <dir>/go (seen as /signal/go): after the restart, whatever the load.
    const signalDir = join(dir, 'signal');
    mkdirSync(signalDir);
    const { containerId } = await c.rt.CreateContainer({
      podSandboxId, sandboxConfig: config,
      config: containerConfig('later', ['sh', '-c', 'while [ ! -e /signal/go ]; do sleep 0.05; done; exit 5'], {
        mounts: [{ containerPath: '/signal', hostPath: signalDir, readonly: true }],
      }),
    });
    await c.rt.StartContainer({ containerId });
    c.close();
    d.child.kill('SIGKILL');
    await waitExit(d.child);
    d = await spawnDaemon(sock, root);
    c = criClients(sock);
    try {
      assert.equal((await c.rt.ContainerStatus({ containerId })).status.state, 'CONTAINER_RUNNING', 'adopted, still running');
      assert.equal((await c.rt.PodSandboxStatus({ podSandboxId })).status.state, 'SANDBOX_READY');
      writeFileSync(join(signalDir, 'go'), '');
      const st = await until(async () => {
        const s = (await c.rt.ContainerStatus({ containerId })).status;
        return s.state === 'CONTAINER_EXITED' && s;
      }, 'adopted container to exit');
      assert.deepEqual([st.exitCode, st.reason], [5, 'Error'], 'exit status read back from the waiter');
      await c.rt.RemovePodSandbox({ podSandboxId });
    } finally {
      c.close();
      d.child.kill('SIGTERM');
      const code = await waitExit(d.child);
      assert.equal(code, 0, `${d.child.signalCode} ${d.stderr.join('')}`);
    }
    assert.deepEqual(processesMentioning(root), [], 'no process left behind');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const setpriv = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];

test('unprivileged runtime: sandboxes get a user namespace, containers join it', { skip: process.getuid?.() !== 0 && 'needs root to drop to nobody' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-rtu-'));
  chownSync(dir, 65534, 65534);
  const sock = join(dir, 'rt.sock');
  try {
    const d = await spawnDaemon(sock, join(dir, 'root'), setpriv);
    const c = criClients(sock);
    try {
      const config = sandboxConfig('userns', join(dir, 'logs'));
      const { podSandboxId } = await c.rt.RunPodSandbox({ config });
      const info = JSON.parse((await c.rt.PodSandboxStatus({ podSandboxId, verbose: true })).info.info);
      assert.equal(info.namespaces.user, true);
      const { containerId } = await c.rt.CreateContainer({
        podSandboxId, sandboxConfig: config,
        config: containerConfig('who', ['sh', '-c', 'echo uid=$(id -u) host=$(hostname) pid=$$; exec sleep 1000']),
      });
      await c.rt.StartContainer({ containerId });
      const f = join(dir, 'logs', 'who', '0.log');
      const log = String(await until(() => (existsSync(f) ? readFileSync(f, 'utf8') : '').includes('uid=') && readFileSync(f, 'utf8'), 'log line'));
      assert.match(log, /stdout F uid=0 host=userns pid=1$/m);
      const pid = JSON.parse((await c.rt.ContainerStatus({ containerId, verbose: true })).info.info).pid as number;
      assert.match(readFileSync(`/proc/${pid}/status`, 'utf8'), /^Uid:\s+65534\s/m, 'root in the container is nobody on the host');
      assert.notEqual(readFileSync(`/proc/${pid}/uid_map`, 'utf8').trim(), readFileSync('/proc/self/uid_map', 'utf8').trim());
      const ex = await c.rt.ExecSync({ containerId, cmd: ['sh', '-c', 'id -u; hostname'], timeout: 10 });
      assert.equal(ex.stdout.toString(), '0\nuserns\n');
      await c.rt.StopContainer({ containerId, timeout: 0 });
      assert.equal((await c.rt.ContainerStatus({ containerId })).status.exitCode, 137);
      await c.rt.RemovePodSandbox({ podSandboxId });
    } finally {
      c.close();
      d.child.kill('SIGTERM');
      assert.equal(await waitExit(d.child), 0, d.stderr.join(''));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
