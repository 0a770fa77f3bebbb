// Sidecar containers (init containers with restartPolicy Always, KEP-753; the kubelet's SidecarContainers behaviour
// as of v1.29) on the real agent. Our own scenarios in the spirit of upstream's node e2e "[NodeFeature:SidecarContainers]"
// specs (test/e2e_node/container_lifecycle_test.go): start order with a startup probe holding back the next init
// container, a restartPolicy Never pod that completes while its sidecars run forever, a crashing sidecar restarted
// beside its app, and the termination order (app containers first, then sidecars in reverse order of declaration).
// Each container appends to a hostPath file the test reads on the host, also after the pod is gone.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { waitUntil } from '../../e2e/harness.ts';
import type { SuiteContext } from './suite-context.ts';
import { containerStatus as cs, ctr, getPod, removePod, waitPod, writePod } from './pods.ts';

const LOOP = 'while true; do sleep 0.2; done';
/** Logs the start, logs the stop on SIGTERM and exits 0. */
const logged = (name: string, rest: string) => `trap 'echo stop ${name} >> /shared/log; exit 0' TERM; echo start ${name} >> /shared/log; ${rest}`;
const sidecar = (name: string, image: string, script: string, extra: Record<string, unknown> = {}) => ({
  ...ctr(name, image, script, extra),
  restartPolicy: 'Always',
  volumeMounts: [{ name: 'shared', mountPath: '/shared' }],
});
const shared = (path: string) => [{ name: 'shared', hostPath: { path, type: 'Directory' } }];
const mount = { volumeMounts: [{ name: 'shared', mountPath: '/shared' }] };
const probe = (cmd: string, extra: Record<string, unknown> = {}) => ({ exec: { command: ['sh', '-c', cmd] }, periodSeconds: 1, ...extra });

export function defineSidecarScenarios(ctx: SuiteContext): void {
  describe('sidecar containers', () => {
    const dirs: string[] = [];
    const dir = () => {
      const d = mkdtempSync('/tmp/nodelet-sidecar-');
      dirs.push(d);
      return d;
    };
    const lines = (d: string) => readFileSync(join(d, 'log'), 'utf8').trim().split('\n');
    after(() => {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });

    it('start order: a sidecar counts as started once its startup probe succeeded; the app after every init container; Ready needs the sidecars ready', async () => {
      const { agent: a, rt } = ctx;
      const d = dir();
      writePod(a, 'sidecar-order', {
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 10,
        volumes: shared(d),
        initContainers: [
          sidecar('side1', rt.image, logged('side1', `sleep 2; touch /shared/up; ${LOOP}`), { startupProbe: probe('test -f /shared/up', { failureThreshold: 60, timeoutSeconds: 10 }) }),
          // Fails (and would be restarted) if it ran before side1's startup probe succeeded.
          ctr('init2', rt.image, 'test -f /shared/up || exit 1; echo start init2 >> /shared/log', mount),
          sidecar('side3', rt.image, logged('side3', LOOP), { readinessProbe: probe('true') }),
        ],
        containers: [ctr('app', rt.image, logged('app', LOOP), mount)],
      });
      const p = await waitPod(a, 'sidecar-order', 'Ready', (x) => x.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true, 180_000);
      assert.equal(p.status?.phase, 'Running');
      assert.deepEqual(lines(d), ['start side1', 'start init2', 'start side3', 'start app']);
      const init = (n: string) => cs(p, n, true);
      assert.deepEqual([Boolean(init('side1')?.state?.running), init('side1')?.started, init('side1')?.ready], [true, true, true]);
      assert.deepEqual([init('init2')?.state?.terminated?.reason, init('init2')?.restartCount], ['Completed', 0]);
      assert.deepEqual([Boolean(init('side3')?.state?.running), init('side3')?.ready], [true, true]);
      assert.equal(p.status?.conditions?.find((c) => c.type === 'Initialized')?.status, 'True');
      // Deleted: the app stops first, then the sidecars in reverse order of declaration.
      removePod(a, 'sidecar-order');
      await waitUntil('sidecar-order gone', async () => (await getPod(a, 'sidecar-order')) === undefined, 60_000);
      await waitUntil('every container stopped', () => lines(d).length >= 7, 60_000).catch(() => {});
      assert.deepEqual(lines(d).slice(4), ['stop app', 'stop side3', 'stop side1']);
    });

    it('restartPolicy Never: the app exits 0 while sidecars run forever — sidecars stopped in reverse order, the pod Succeeded', async () => {
      const { agent: a, rt } = ctx;
      const d = dir();
      writePod(a, 'sidecar-job', {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 10,
        volumes: shared(d),
        initContainers: [sidecar('proxy1', rt.image, logged('proxy1', LOOP)), sidecar('proxy2', rt.image, logged('proxy2', LOOP))],
        containers: [ctr('app', rt.image, 'echo start app >> /shared/log; sleep 1; echo app done', mount)],
      });
      const p = await waitPod(a, 'sidecar-job', 'Succeeded', (x) => x.status?.phase === 'Succeeded' || x.status?.phase === 'Failed', 120_000);
      assert.equal(p.status?.phase, 'Succeeded', JSON.stringify(p.status));
      assert.deepEqual([cs(p, 'app')?.state?.terminated?.reason, cs(p, 'app')?.state?.terminated?.exitCode], ['Completed', 0]);
      for (const n of ['proxy1', 'proxy2']) {
        const s = cs(p, n, true);
        assert.ok(s?.state?.terminated, `${n} stopped: ${JSON.stringify(s?.state)}`);
        assert.equal(s?.restartCount, 0, `${n} not restarted`);
      }
      assert.deepEqual(lines(d), ['start proxy1', 'start proxy2', 'start app', 'stop proxy2', 'stop proxy1']);
      removePod(a, 'sidecar-job');
    });

    it('a crashing sidecar is restarted (with back-off) while the app keeps running, even with restartPolicy Never', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'sidecar-crash', {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 2,
        initContainers: [{ ...ctr('flaky', rt.image, 'echo up; sleep 1; exit 1'), restartPolicy: 'Always' }],
        containers: [ctr('app', rt.image, LOOP)],
      });
      const p = await waitPod(a, 'sidecar-crash', 'sidecar restarted twice', (x) => (cs(x, 'flaky', true)?.restartCount ?? 0) >= 2, 120_000);
      assert.equal(p.status?.phase, 'Running');
      assert.ok(cs(p, 'app')?.state?.running, `app still running: ${JSON.stringify(cs(p, 'app')?.state)}`);
      assert.equal(cs(p, 'app')?.restartCount, 0);
      const flaky = cs(p, 'flaky', true);
      // Running again (the last exit in lastState) or waiting out its back-off (CrashLoopBackOff, the exit in lastState).
      assert.equal((flaky?.lastState?.terminated ?? flaky?.state?.terminated)?.exitCode, 1, JSON.stringify(flaky));
      removePod(a, 'sidecar-crash');
    });
  });
}
