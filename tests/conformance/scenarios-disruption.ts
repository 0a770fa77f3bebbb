// Disruption scenarios: deletion with a grace period, a container killed behind the agent's back, a dead sandbox,
// a SIGKILLed agent (stateless restart), and (containerd) the runtime daemon going away and coming back.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { waitUntil } from '../../e2e/harness.ts';
import { pidAlive } from '@nodelet/core/util';
import type { SuiteContext } from './suite-context.ts';
import { bareId, containerStatus as cs, ctr, getPod, listPods, removePod, waitPod, writePod } from './pods.ts';

/** Host PIDs whose command line contains `mark` (`containerOnly`: not the embedded runtime's setup / waiter shells). */
export function pidsWith(mark: string, containerOnly = false): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      if (cmd.includes(mark) && !(containerOnly && cmd.includes('NODELET_'))) out.push(Number(d));
    } catch {
      // gone
    }
  }
  return out;
}

const loop = (mark: string) => `: ${mark}; while true; do sleep 0.2; done`;

async function containerGone(ctx: SuiteContext, id: string): Promise<boolean> {
  const r = await ctx.cri.containerStatus({ containerId: id }).catch(() => undefined);
  return !r?.status || r.status.state !== 'CONTAINER_RUNNING';
}

function snapshot(pods: V1Pod[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pods) for (const c of p.status?.containerStatuses ?? []) out[`${p.metadata?.uid}/${c.name}`] = `${c.containerID}#${c.restartCount}`;
  return out;
}

export function defineDisruptionScenarios(ctx: SuiteContext): void {
  // Markers unique to this suite's process: suites for other runtimes run side by side on the same host.
  const mk = (s: string) => `${s}-${ctx.rt.name}-${process.pid}`;
  describe('disruption', () => {
    it('deletion honours the grace period: SIGTERM first, SIGKILL when it expires', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'term-ok', { terminationGracePeriodSeconds: 4, containers: [ctr('c', rt.image, `trap 'exit 0' TERM; ${loop(mk('m-term-ok'))}`)] });
      writePod(a, 'term-ignore', { terminationGracePeriodSeconds: 4, containers: [ctr('c', rt.image, `trap '' TERM; ${loop(mk('m-term-ign'))}`)] });
      const ok = await waitPod(a, 'term-ok', 'running', (p) => Boolean(cs(p, 'c')?.state?.running));
      const ign = await waitPod(a, 'term-ignore', 'running', (p) => Boolean(cs(p, 'c')?.state?.running));
      const t0 = Date.now();
      removePod(a, 'term-ok');
      removePod(a, 'term-ignore');
      const gone: Record<string, number> = {};
      await waitUntil('both containers stopped', async () => {
        for (const [n, p] of [['ok', ok], ['ignore', ign]] as const) {
          if (gone[n] === undefined && (await containerGone(ctx, bareId(cs(p, 'c')?.containerID)))) gone[n] = Date.now() - t0;
        }
        return Object.keys(gone).length === 2;
      }, 30_000);
      assert.ok((gone.ok ?? 0) < 3_500, `TERM-handling container stopped in ${gone.ok} ms (before the 4 s grace)`);
      assert.ok((gone.ignore ?? 0) >= 3_500, `TERM-ignoring container killed after the grace: ${gone.ignore} ms`);
      await waitUntil('pods gone from /pods', async () => !(await getPod(a, 'term-ok')) && !(await getPod(a, 'term-ignore')), 20_000);
    });

    it('a container killed behind the agent is seen and restarted', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'victim', { restartPolicy: 'Always', terminationGracePeriodSeconds: 1, containers: [ctr('c', rt.image, loop(mk('m-victim')))] });
      const p = await waitPod(a, 'victim', 'running', (x) => Boolean(cs(x, 'c')?.state?.running));
      const before = cs(p, 'c')?.containerID;
      for (const pid of pidsWith(mk('m-victim'))) process.kill(pid, 'SIGKILL');
      const after = await waitPod(a, 'victim', 'restarted', (x) => (cs(x, 'c')?.restartCount ?? 0) >= 1 && Boolean(cs(x, 'c')?.state?.running));
      assert.notEqual(cs(after, 'c')?.containerID, before);
      assert.equal(cs(after, 'c')?.lastState?.terminated?.exitCode, 137);
    });

    it('a dead sandbox is recreated and its containers restarted', async () => {
      const { agent: a, rt, cri } = ctx;
      writePod(a, 'sbx', { restartPolicy: 'Always', terminationGracePeriodSeconds: 1, containers: [ctr('c', rt.image, loop(mk('m-sbx')))] });
      const p = await waitPod(a, 'sbx', 'running', (x) => Boolean(cs(x, 'c')?.state?.running));
      const uid = p.metadata?.uid ?? '';
      const sandboxes = async () => (await cri.listPodSandbox({ filter: { labelSelector: { 'io.kubernetes.pod.uid': uid } } })).items;
      const [first] = await sandboxes();
      assert.ok(first, 'pod has a sandbox');
      await cri.stopPodSandbox({ podSandboxId: first.id });
      await waitUntil('a new ready sandbox', async () => (await sandboxes()).some((s) => s.id !== first.id && s.state === 'SANDBOX_READY'), 30_000);
      const ready = (await sandboxes()).find((s) => s.id !== first.id && s.state === 'SANDBOX_READY');
      assert.ok((ready?.metadata?.attempt ?? 0) >= 1, 'sandbox attempt incremented');
      await waitPod(a, 'sbx', 'container running again', (x) => Boolean(cs(x, 'c')?.state?.running) && cs(x, 'c')?.containerID !== cs(p, 'c')?.containerID);
    });

    it('stateless restart: a SIGKILLed agent restarts nothing and rebuilds every status', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'keep', { restartPolicy: 'Always', terminationGracePeriodSeconds: 1, containers: [ctr('c', rt.image, loop(mk('m-keep')))] });
      await waitPod(a, 'keep', 'running', (x) => Boolean(cs(x, 'c')?.state?.running));
      await new Promise((r) => setTimeout(r, 1500));
      const before = await listPods(a);
      const snap = snapshot(before);
      await a.kill9();
      await a.start();
      await waitUntil('statuses rebuilt', async () => {
        const now = await listPods(a);
        return now.length === before.length && now.every((p) => (p.status?.containerStatuses?.length ?? 0) > 0 || p.status?.phase !== 'Pending');
      }, 30_000);
      await new Promise((r) => setTimeout(r, 3000));
      const after = await listPods(a);
      assert.deepEqual(after.map((p) => p.metadata?.uid).sort(), before.map((p) => p.metadata?.uid).sort(), 'static pods keep their identity');
      const keep = after.find((p) => p.metadata?.name?.startsWith('keep-'));
      assert.equal(keep?.status?.phase, 'Running');
      const now = snapshot(after);
      const k = `${keep?.metadata?.uid}/c`;
      assert.equal(now[k], snap[k], `running container untouched (same id, same restart count); agent log:\n${a.logTail(6000)}`);
      // PLEG resumed: a kill is still seen.
      for (const pid of pidsWith(mk('m-keep'))) process.kill(pid, 'SIGKILL');
      await waitPod(a, 'keep', 'restarted after the agent restart', (x) => (cs(x, 'c')?.restartCount ?? 0) >= 1);
    });

    it('embedded runtime SIGKILLed: the agent restarts it, which adopts running containers and reports the ones that died meanwhile', async (t) => {
      const { agent: a, rt } = ctx;
      if (rt.endpoint) return t.skip('the agent supervises only the embedded runtime it runs');
      writePod(a, 'adopt', { restartPolicy: 'Always', terminationGracePeriodSeconds: 1, containers: [ctr('c', rt.image, loop(mk('m-adopt')))] });
      writePod(a, 'lost', { restartPolicy: 'Always', terminationGracePeriodSeconds: 1, containers: [ctr('c', rt.image, loop(mk('m-lost')))] });
      const adopt = await waitPod(a, 'adopt', 'running', (x) => Boolean(cs(x, 'c')?.state?.running));
      const lost = await waitPod(a, 'lost', 'running', (x) => Boolean(cs(x, 'c')?.state?.running));
      const pidFile = join(a.rootDir, 'runtime', 'runtime.pid');
      const old = Number(readFileSync(pidFile, 'utf8').trim());
      process.kill(old, 'SIGKILL');
      // While no runtime runs: the container of 'lost' is killed (its own processes, not the runtime's waiter).
      const victims = pidsWith(mk('m-lost'), true);
      assert.ok(victims.length > 0, 'the container process of lost is visible');
      for (const pid of victims) process.kill(pid, 'SIGKILL');
      await waitUntil('a new runtime process', () => {
        const pid = Number(readFileSync(pidFile, 'utf8').trim());
        return pid !== old && pidAlive(pid);
      }, 60_000);
      await waitUntil('healthz ok with the new runtime', async () => (await fetch(`http://127.0.0.1:${a.ports.healthz}/healthz`)).status === 200, 60_000);
      const kept = await waitPod(a, 'adopt', 'still running', (x) => Boolean(cs(x, 'c')?.state?.running));
      assert.equal(cs(kept, 'c')?.containerID, cs(adopt, 'c')?.containerID, 'the running container was adopted (same id)');
      assert.equal(cs(kept, 'c')?.restartCount, cs(adopt, 'c')?.restartCount);
      const after = await waitPod(a, 'lost', 'restarted', (x) => (cs(x, 'c')?.restartCount ?? 0) >= 1 && Boolean(cs(x, 'c')?.state?.running));
      assert.notEqual(cs(after, 'c')?.containerID, cs(lost, 'c')?.containerID);
      assert.equal(cs(after, 'c')?.lastState?.terminated?.exitCode, 137, 'the exit the container had while the runtime was down');
      assert.match(a.logTail(200_000), /embedded runtime restarted/);
      removePod(a, 'adopt');
      removePod(a, 'lost');
      await waitUntil('pods gone', async () => !(await getPod(a, 'adopt')) && !(await getPod(a, 'lost')), 30_000);
    });

    it('containerd stopped while pods run: runtime not ready, no pod deleted, all resumes', async (t) => {
      const { agent: a, rt } = ctx;
      if (!rt.stopDaemon || !rt.startDaemon) return t.skip('only for a runtime daemon the suite controls');
      await waitPod(a, 'keep', 'running', (x) => Boolean(cs(x, 'c')?.state?.running));
      const before = snapshot(await listPods(a));
      const podsBefore = (await listPods(a)).length;
      rt.stopDaemon();
      try {
        await waitUntil('healthz reports the runtime', async () => {
          const r = await fetch(`http://127.0.0.1:${a.ports.healthz}/healthz?verbose`);
          const body = await r.text();
          return r.status !== 200 && /runtime/.test(body);
        }, 20_000);
        const node = JSON.parse((await a.get('/trpc/node.get')).body) as { result: { data: { runtimeReady: boolean } } };
        assert.equal(node.result.data.runtimeReady, false, 'the console sees the runtime not ready');
        await new Promise((r) => setTimeout(r, 2000));
        assert.equal((await listPods(a)).length, podsBefore, 'no pod deleted');
      } finally {
        await rt.startDaemon();
      }
      // Back within seconds (the CRI channel reconnects within 1 s, readiness is re-read as soon as it does).
      await waitUntil('healthz ok again', async () => (await fetch(`http://127.0.0.1:${a.ports.healthz}/healthz`)).status === 200, 10_000);
      const after = snapshot(await listPods(a));
      const keys = Object.keys(before).filter((k) => before[k]?.includes('#') && after[k] !== undefined);
      const keepKey = keys.find((k) => (before[k] ?? '').length > 0 && k.endsWith('/c') && after[k] === before[k]);
      assert.ok(keepKey, 'running containers kept their ids and restart counts across the runtime outage');
      for (const pid of pidsWith(mk('m-keep'))) process.kill(pid, 'SIGKILL');
      await waitPod(a, 'keep', 'a kill after the outage is seen', (x) => (cs(x, 'c')?.restartCount ?? 0) >= 2, 30_000);
    });
  });
}
