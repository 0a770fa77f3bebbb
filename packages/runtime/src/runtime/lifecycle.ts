import { rmdirSync } from 'node:fs';
import { DEFAULT_CGROUP_PARENT } from '../linux/cgroup-layout.ts';
import { isAlive, signal } from '../util/proc.ts';
import type { RuntimeContext } from './context.ts';
import { killContainer } from './container-ops.ts';
import { onContainerExit } from './container-start.ts';
import { onPauseExit, teardownNetwork } from './sandbox-ops.ts';
import { waitExited, watchPid } from './watch.ts';

/**
 * After a (re)start: load records, then reconcile them with /proc. Live processes we no longer parent
 * (the previous runtime died without stopping them) are adopted and polled; dead ones are marked.
 */
export function recoverState(ctx: RuntimeContext): { sandboxes: number; containers: number; adopted: number } {
  ctx.store.load();
  let adopted = 0;
  for (const sb of ctx.store.sandboxes.values()) {
    if (sb.state !== 'SANDBOX_READY') continue;
    if (sb.pausePid && isAlive(sb.pausePid, sb.pauseStart)) {
      watchPid(ctx.sandboxProcs, sb.id, sb.pausePid, sb.pauseStart, () => onPauseExit(ctx, sb.id));
      adopted++;
    } else onPauseExit(ctx, sb.id);
  }
  for (const c of ctx.store.containers.values()) {
    if (c.state !== 'CONTAINER_RUNNING') continue;
    if (c.pid && isAlive(c.pid, c.pidStart)) {
      watchPid(ctx.containerProcs, c.id, c.pid, c.pidStart, () => onContainerExit(ctx, c.id, undefined));
      adopted++;
    } else onContainerExit(ctx, c.id, undefined);
  }
  return { sandboxes: ctx.store.sandboxes.size, containers: ctx.store.containers.size, adopted };
}

/** Stop everything this runtime runs: stop signal to containers, SIGKILL after `graceMs`, then holders. */
export async function stopEverything(ctx: RuntimeContext, graceMs: number): Promise<void> {
  // A container being launched is stopped with the others once it runs (else it would outlive the runtime).
  await Promise.all(ctx.starting.values());
  const running = [...ctx.store.containers.values()].filter((c) => c.state === 'CONTAINER_RUNNING' && c.pid);
  for (const c of running) signal(c.pid!, (/^\d+$/.test(c.stopSignal) ? Number(c.stopSignal) : c.stopSignal || 'SIGTERM') as NodeJS.Signals);
  await Promise.all(running.map((c) => waitExited(ctx.containerProcs, c.id, graceMs)));
  for (const c of running) if (ctx.containerProcs.has(c.id)) killContainer(ctx, c);
  await Promise.all(running.map((c) => waitExited(ctx.containerProcs, c.id, 5000)));
  // Every lease goes back (nothing runs after a shutdown; a later RemovePodSandbox has nothing left to undo).
  for (const s of [...ctx.store.sandboxes.values()].filter((x) => x.cni)) await teardownNetwork(ctx, s);
  const sandboxes = [...ctx.store.sandboxes.values()].filter((s) => s.state === 'SANDBOX_READY' && s.pausePid);
  for (const s of sandboxes) signal(s.pausePid!, 'SIGKILL');
  await Promise.all(sandboxes.map((s) => waitExited(ctx.sandboxProcs, s.id, 5000)));
  for (const w of [...ctx.containerProcs.values(), ...ctx.sandboxProcs.values()]) if (w.poll) clearInterval(w.poll);
  // Adopted (polled) processes: their exit is recorded by the poll; record the rest now.
  for (const c of running) if (ctx.store.containers.get(c.id)?.state === 'CONTAINER_RUNNING') onContainerExit(ctx, c.id, { code: 137, signal: null });
  for (const s of sandboxes) onPauseExit(ctx, s.id);
  ctx.store.flush(); // exits recorded just now (saveContainerSoon): written before the runtime exits
  await ctx.network.release();
  // Nothing runs any more: the runtime's default cgroup parent goes if empty (create() makes it again).
  for (const dir of ctx.cgroups?.dirs(DEFAULT_CGROUP_PARENT) ?? []) {
    try {
      rmdirSync(dir);
    } catch {
      /* in use by another runtime instance, or absent */
    }
  }
}
