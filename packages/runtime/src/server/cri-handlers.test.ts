/**
 * Integration: the runtime handlers (CRI runtime_handler) of the embedded runtime — Status lists them, "" and
 * "runc" run pods as before, "userns" puts the pod in a user namespace of its own, an unknown handler is refused
 * with containerd's message (cri/server/sandbox_run.go: `failed to get sandbox runtime: no runtime for "x" is
 * configured`). Run: node --import tsx --test packages/runtime/src/server/cri-handlers.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { containerConfig, sandboxConfig, startInProcess, type Harness } from '../testing/harness.ts';

let h: Harness;
before(async () => {
  h = await startInProcess();
});
after(async () => {
  await h?.cleanup();
});

const root = process.getuid?.() === 0;

async function runPod(name: string, runtimeHandler: string): Promise<{ id: string; config: object }> {
  const config = sandboxConfig(name, join(h.dir, 'logs'), {});
  const { podSandboxId } = await h.rt.RunPodSandbox({ config, runtimeHandler });
  return { id: podSandboxId as string, config };
}

async function uidMap(pod: { id: string; config: object }, extra: Record<string, unknown> = {}): Promise<string> {
  const { containerId } = await h.rt.CreateContainer({ podSandboxId: pod.id, config: containerConfig('main', ['sleep', '1000'], extra), sandboxConfig: pod.config });
  await h.rt.StartContainer({ containerId });
  const r = await h.rt.ExecSync({ containerId, cmd: ['cat', '/proc/self/uid_map'], timeout: 10 });
  return r.stdout.toString().trim().split(/\s+/).join(' ');
}

test('Status: runtime_handlers "", runc and userns, with their user-namespace feature', async () => {
  const s = await h.rt.Status({});
  const handlers = s.runtimeHandlers.map((x: { name: string; features: { userNamespaces: boolean } }) => [x.name, x.features.userNamespaces]);
  assert.deepEqual(handlers, [['', !root], ['runc', !root], ['userns', true]]);
});

test('an unknown handler is refused before anything is made', async () => {
  const before_ = (await h.rt.ListPodSandbox({})).items.length;
  await assert.rejects(runPod('unknown', 'kata'), (e: { code?: number; details?: string }) => e.code === 2 && e.details === 'failed to get sandbox runtime: no runtime for "kata" is configured');
  assert.equal((await h.rt.ListPodSandbox({})).items.length, before_);
});

test('"userns": the pod in a user namespace of its own, the handler in the sandbox status; uid 0 only', async () => {
  const pod = await runPod('sandboxed', 'userns');
  const st = await h.rt.PodSandboxStatus({ podSandboxId: pod.id });
  assert.equal(st.status.runtimeHandler, 'userns');
  // The initial user namespace maps every id (0 0 4294967295); the pod's namespace only its root.
  assert.equal(await uidMap(pod), root ? '0 0 1' : `0 ${process.getuid?.()} 1`);
  if (root) {
    const sc = { runAsUser: { value: 1000 }, namespaceOptions: { pid: 'CONTAINER' } };
    await assert.rejects(
      h.rt.CreateContainer({ podSandboxId: pod.id, config: containerConfig('as-user', ['true'], { linux: { securityContext: sc } }), sandboxConfig: pod.config }),
      /runtime handler "userns" maps only uid 0 and gid 0 into the pod's user namespace: user 1000:1000 cannot be used there/,
    );
    const groups = { supplementalGroups: [1001], namespaceOptions: { pid: 'CONTAINER' } };
    await assert.rejects(
      h.rt.CreateContainer({ podSandboxId: pod.id, config: containerConfig('groups', ['true'], { linux: { securityContext: groups } }), sandboxConfig: pod.config }),
      /runtime handler "userns" maps only uid 0 and gid 0 into the pod's user namespace: supplementary groups 1001 cannot be used there/,
    );
  }
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

test('"runc" and "": the default pod (the host user namespace when the runtime is root)', async () => {
  for (const [name, handler] of [['plain', ''], ['runc', 'runc']] as const) {
    const pod = await runPod(name, handler);
    assert.equal((await h.rt.PodSandboxStatus({ podSandboxId: pod.id })).status.runtimeHandler, handler);
    assert.equal(await uidMap(pod), root ? '0 0 4294967295' : `0 ${process.getuid?.()} 1`, name);
    await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
  }
});
