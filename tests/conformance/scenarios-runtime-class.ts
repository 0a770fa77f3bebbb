// RuntimeClass on the real agent with static pods (#15 item 4): without an API server the agent maps classes to
// CRI runtime handlers with --runtime-class-handlers (nodelet's flag); the kubelet's createPodSandbox
// (kuberuntime_sandbox.go at v1.28) passes the handler to RunPodSandbox; a class that is not known fails the
// sandbox with the RuntimeClass lister's NotFound, a handler the runtime does not have with the runtime's error —
// FailedCreatePodSandBox, the pod Pending with its containers ContainerCreating (nodelet adds the message), no
// sandbox. Upstream: test/e2e/common/node/runtimeclass.go "should run a Pod requesting a RuntimeClass with a
// configured handler" and "should reject a Pod requesting a RuntimeClass with an unconfigured handler"
// [NodeFeature:RuntimeHandler] (pods through the API server there, static pods here).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { SuiteContext } from './suite-context.ts';
import { containerStatus as cs, ctr, execIn, fullName, k8sEvents, NS, removePod, waitPod, writePod } from './pods.ts';

/** The agent's classes: "conf-runc" → runc (both runtimes), "conf-userns" → userns (the embedded runtime's). */
export const RUNTIME_CLASS_ARGS = ['--runtime-class-handlers', 'conf-runc=runc,conf-userns=userns'];

export function defineRuntimeClassScenarios(ctx: SuiteContext): void {
  describe('runtimeClassName', () => {
    const sandboxOf = async (name: string) => (await ctx.cri.listPodSandbox({})).items.find((s) => s.metadata?.name === fullName(ctx.agent, name) && s.metadata?.namespace === NS);
    const podRef = (p: V1Pod) => `${p.metadata?.name}_${NS}(${p.metadata?.uid})`;
    const refused = (name: string) => waitPod(ctx.agent, name, 'a sandbox failure in the status', (p) => !!cs(p, 'c')?.state?.waiting?.message, 120_000);

    it('a configured class: its handler in RunPodSandbox, the pod runs', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'rc-runc', { runtimeClassName: 'conf-runc', containers: [ctr('c', rt.image, 'sleep 3600')] });
      await waitPod(a, 'rc-runc', 'Running', (p) => p.status?.phase === 'Running', 120_000);
      assert.equal((await sandboxOf('rc-runc'))?.runtimeHandler, 'runc');
      removePod(a, 'rc-runc');
    });

    it('handler userns: the embedded runtime gives the pod its own user namespace; containerd, which has no such handler, refuses it', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'rc-userns', { runtimeClassName: 'conf-userns', containers: [ctr('c', rt.image, 'sleep 3600')] });
      if (rt.name === 'embedded') {
        await waitPod(a, 'rc-userns', 'Running', (p) => p.status?.phase === 'Running', 120_000);
        assert.equal((await sandboxOf('rc-userns'))?.runtimeHandler, 'userns');
        const map = await execIn(a, 'rc-userns', 'c', 'cat /proc/self/uid_map');
        assert.equal(map.stdout.trim().split(/\s+/).join(' '), process.getuid?.() === 0 ? '0 0 1' : `0 ${process.getuid?.()} 1`, 'one id mapped, not the whole range of the host namespace');
      } else {
        const p = await refused('rc-userns');
        const why = 'failed to get sandbox runtime: no runtime for "userns" is configured';
        assert.equal(p.status?.phase, 'Pending');
        assert.deepEqual(cs(p, 'c')?.state?.waiting, { reason: 'ContainerCreating', message: `Failed to create sandbox for pod ${JSON.stringify(podRef(p))}: ${why}` });
        assert.ok((await k8sEvents(a)).some((e) => e.reason === 'FailedCreatePodSandBox' && e.message === `Failed to create pod sandbox: ${why}`), 'FailedCreatePodSandBox with containerd\'s error');
        assert.equal(await sandboxOf('rc-userns'), undefined);
      }
      removePod(a, 'rc-userns');
    });

    it('an unknown class: FailedCreatePodSandBox, Pending, ContainerCreating with the kubelet message, no sandbox; other pods run', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'rc-missing', { runtimeClassName: 'conf-missing', containers: [ctr('c', rt.image, 'sleep 3600')] });
      writePod(a, 'rc-default', { containers: [ctr('c', rt.image, 'sleep 3600')] });
      const p = await refused('rc-missing');
      const why = 'runtimeclass.node.k8s.io "conf-missing" not found';
      assert.equal(p.status?.phase, 'Pending');
      assert.deepEqual(cs(p, 'c')?.state?.waiting, { reason: 'ContainerCreating', message: `Failed to create sandbox for pod ${JSON.stringify(podRef(p))}: ${why}` });
      assert.ok((await k8sEvents(a)).some((e) => e.reason === 'FailedCreatePodSandBox' && e.message === `Failed to create pod sandbox: ${why}`), 'FailedCreatePodSandBox');
      assert.equal(await sandboxOf('rc-missing'), undefined, 'nothing made in the runtime');
      await waitPod(a, 'rc-default', 'Running', (x) => x.status?.phase === 'Running', 120_000);
      assert.equal((await sandboxOf('rc-default'))?.runtimeHandler, '', 'no class: the default handler');
      removePod(a, 'rc-missing');
      removePod(a, 'rc-default');
    });
  });
}
