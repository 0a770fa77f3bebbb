/**
 * Integration: NamespaceMode TARGET (the kubelet's ephemeral container with targetContainerName) in the embedded
 * runtime — the container runs in the target container's pid namespace (as containerd: its PID 1 is the target's
 * init), and a target that does not run refuses the start. Real sandboxes and containers (root, host image).
 * Run: node --import tsx --test packages/runtime/src/server/target-pid.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { containerConfig, sandboxConfig, startInProcess, until, type Harness } from '../testing/harness.ts';

let h: Harness;
let logDir: string;
before(async () => {
  h = await startInProcess();
  logDir = join(h.dir, 'logs');
});
after(async () => {
  await h?.cleanup();
});

const pidOf = async (id: string): Promise<number> => JSON.parse((await h.rt.ContainerStatus({ containerId: id, verbose: true })).info.info).pid;
const target = (targetId: string) => ({ linux: { securityContext: { namespaceOptions: { pid: 'TARGET', targetId } } } });

test('TARGET: the container shares the target container\'s pid namespace; a stopped target refuses the start', async () => {
  const config = sandboxConfig('targetpid', logDir);
  const { podSandboxId } = await h.rt.RunPodSandbox({ config });
  const create = async (name: string, cmd: string[], extra: Record<string, unknown> = {}) =>
    (await h.rt.CreateContainer({ podSandboxId, config: containerConfig(name, cmd, extra), sandboxConfig: config })).containerId as string;
  const app = await create('app', ['sleep', '1000']);
  await h.rt.StartContainer({ containerId: app });
  const dbg = await create('debugger', ['sh', '-c', 'echo "one=$(tr "\\0" " " < /proc/1/cmdline)"; exec sleep 1000'], target(app));
  await h.rt.StartContainer({ containerId: dbg });
  const line = await until(() => {
    try {
      return /one=.*/.exec(readFileSync(join(logDir, 'debugger/0.log'), 'utf8'))?.[0];
    } catch {
      return undefined;
    }
  }, 'the debugger\'s log');
  assert.equal(line, 'one=sleep 1000 ', 'PID 1 of the debugger is the target\'s init');
  const ns = async (id: string) => readlinkSync(`/proc/${await pidOf(id)}/ns/pid`);
  assert.equal(await ns(dbg), await ns(app));
  const own = await create('own', ['sleep', '1000']);
  await h.rt.StartContainer({ containerId: own });
  assert.notEqual(await ns(own), await ns(app), 'CONTAINER keeps its own');
  // Exec in the debugger sees the target's processes too.
  const ps = await h.rt.ExecSync({ containerId: dbg, cmd: ['sh', '-c', 'tr "\\0" " " < /proc/1/cmdline'], timeout: 10 });
  assert.equal(Buffer.from(ps.stdout).toString(), 'sleep 1000 ');
  await h.rt.StopContainer({ containerId: app, timeout: 0 });
  const late = await create('late', ['true'], target(app));
  await assert.rejects(h.rt.StartContainer({ containerId: late }), /target container .* is not running in its pod/);
  await h.rt.StopPodSandbox({ podSandboxId });
  await h.rt.RemovePodSandbox({ podSandboxId });
});
