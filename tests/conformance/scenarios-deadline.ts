// Active deadline: past spec.activeDeadlineSeconds the agent fails the pod (Failed / DeadlineExceeded, as the
// kubelet's activeDeadlineHandler) and its pod worker stops the containers; the pod is not restarted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitUntil } from '../../e2e/harness.ts';
import type { SuiteContext } from './suite-context.ts';
import { bareId, containerStatus as cs, ctr, removePod, waitPod, writePod } from './pods.ts';

export function defineDeadlineScenarios(ctx: SuiteContext): void {
  describe('active deadline', () => {
    it('a pod past spec.activeDeadlineSeconds is Failed / DeadlineExceeded, its container stopped and not restarted', async () => {
      const { agent: a, rt, cri } = ctx;
      writePod(a, 'deadline', {
        restartPolicy: 'Always',
        activeDeadlineSeconds: 4,
        terminationGracePeriodSeconds: 1,
        containers: [ctr('c', rt.image, 'while true; do sleep 0.2; done')],
      });
      const running = await waitPod(a, 'deadline', 'running', (p) => Boolean(cs(p, 'c')?.state?.running));
      const started = Date.parse(String(running.status?.startTime));
      const id = bareId(cs(running, 'c')?.containerID);
      const failed = await waitPod(a, 'deadline', 'Failed', (p) => p.status?.phase === 'Failed', 30_000);
      assert.ok(Date.now() - started >= 4_000, 'not before the deadline');
      assert.equal(failed.status?.reason, 'DeadlineExceeded');
      assert.equal(failed.status?.message, 'Pod was active on the node longer than the specified deadline');
      await waitUntil('container stopped', async () => (await cri.containerStatus({ containerId: id }).catch(() => undefined))?.status?.state !== 'CONTAINER_RUNNING', 30_000);
      const done = await waitPod(a, 'deadline', 'container terminated', (p) => Boolean(cs(p, 'c')?.state?.terminated), 30_000);
      assert.equal(cs(done, 'c')?.restartCount, 0, 'not restarted');
      assert.equal(done.status?.reason, 'DeadlineExceeded', 'the reason stays');
      removePod(a, 'deadline');
    });
  });
}
