// bench/agent-start: the agent's side of bench/pod-start.ts: pods started through the agent (their manifests
// written) and timed until /pods shows them Running, by the agent's own podStatus push (agentStartPushed) or by
// polling /pods (agentStart); and their removal, waited for until the runtime has stopped them too (agentClean).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import type { CriClient } from '@nodelet/core/cri';
import { POD_NAMESPACE_LABEL } from '@nodelet/core/container';
import type { AgentProcess } from '../tests/conformance/agent-process.ts';
import { benchPodManifest, getJsonKeptAlive } from './runtimes.ts';

async function podPhases(agent: AgentProcess): Promise<Map<string, string>> {
  const body = await getJsonKeptAlive<{ items: Array<{ metadata: { name: string }; status?: { phase?: string } }> }>(`${agent.readOnlyUrl}/pods`);
  return new Map(body.items.map((p) => [p.metadata.name, p.status?.phase ?? '']));
}

/**
 * Polls `pred` every `everyMs` (short: the figure is the poll that first saw it, so a 200 ms poll would add
 * 100 ms on average to a 400 ms start) until it holds or `ms` pass.
 */
async function pollUntil(what: string, pred: () => Promise<boolean>, everyMs: number, ms = 300_000): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (await pred()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

/**
 * Pods started at once, each timed from the agent's own push: the socket.io podStatus event that says Running is sent
 * by the status manager as it stores the status `/pods` serves, so its arrival is when `/pods` turned Running — exact,
 * where a poll's midpoint is ± half a period (± 10 ms against a 100 ms floor) — and one GET of `/pods` then confirms
 * them all. The polls cost the measured agent too: a burst's GETs every 50 ms were ≈ 1.7 ms of its event loop each
 * (the pods' JSON re-serialised as their statuses change; 137 ms of 2 × 30-pod bursts' profiles), which the floor never
 * pays. Without every event in 60 s (+ 1 s a pod), or when `/pods` does not confirm them, the polls decide.
 */
export async function agentStartPushed(agent: AgentProcess, sock: Socket, names: string[], image: string): Promise<number[]> {
  const waiting = new Map(names.map((n) => [`${n}-${agent.nodeName}`, n]));
  const at = new Map<string, number>();
  let on: ((e: { type: string; phase?: string; pod?: { name: string } }) => void) | undefined;
  const all = new Promise<boolean>((res) => {
    const timer = setTimeout(() => res(false), 60_000 + names.length * 1_000);
    on = (e) => {
      const n = e.type === 'podStatus' && e.phase === 'Running' ? waiting.get(e.pod?.name ?? '') : undefined;
      if (n === undefined || at.has(n)) return;
      at.set(n, performance.now());
      if (at.size === names.length) {
        clearTimeout(timer);
        res(true);
      }
    };
    sock.on('nodelet:event', on);
  });
  const t0 = performance.now();
  for (const n of names) writeFileSync(join(agent.manifests, `${n}.json`), benchPodManifest(n, image, 1));
  const pushed = await all;
  sock.off('nodelet:event', on);
  const phases = pushed ? await podPhases(agent) : undefined;
  if (phases && [...waiting.keys()].every((full) => phases.get(full) === 'Running')) return names.map((n) => (at.get(n) as number) - t0);
  console.error(`${names.length} pod(s): no podStatus Running confirmed by /pods for each; timed by polls`);
  return agentStart(agent, names, image, t0);
}

export async function agentStart(agent: AgentProcess, names: string[], image: string, written?: number): Promise<number[]> {
  const t0 = written ?? performance.now();
  if (written === undefined) for (const n of names) writeFileSync(join(agent.manifests, `${n}.json`), benchPodManifest(n, image, 1));
  const done = new Map<string, number>();
  const full = (n: string) => `${n}-${agent.nodeName}`;
  // A pod turned Running after the previous GET was served and before the one that shows it: its time is the
  // midpoint of the two GETs (unbiased, within half a period), not the later one's answer (on average half a
  // period and a round trip late: a quantised figure). So the period can be 20 ms for one pod (50 ms for a burst of
  // seconds): polling every 5 ms took 25–45 % of one of the machine's two cores (the bench's GETs and the agent's
  // answers) while the agent's pod started, and nothing while the floor's did — CPU the runtime's StartContainer
  // (a chain of process spawns) then lacked, charged to the agent.
  let previous = 0;
  await pollUntil(`${names.length} pods Running`, async () => {
    const asked = performance.now() - t0;
    const phases = await podPhases(agent);
    for (const n of names) if (!done.has(n) && phases.get(full(n)) === 'Running') done.set(n, (previous + asked) / 2);
    previous = asked;
    return done.size === names.length;
  }, names.length === 1 ? 20 : 50);
  return names.map((n) => done.get(n) as number);
}

/**
 * Removes the pods and waits until the runtime has stopped them too: a pod leaves /pods as soon as its
 * manifest goes, while the agent still stops its container and sandbox (network teardown included). A raw
 * CRI run started before that would race the teardown and measure it (containerd: 30 CNI DELs beside the
 * raw burst's 30 CNI ADDs).
 */
export async function agentClean(agent: AgentProcess, cri: CriClient, names: string[]): Promise<void> {
  for (const n of names) rmSync(join(agent.manifests, `${n}.json`), { force: true });
  await pollUntil('pods removed', async () => {
    const phases = await podPhases(agent);
    return names.every((n) => !phases.has(`${n}-${agent.nodeName}`));
  }, 200);
  const ns = { [POD_NAMESPACE_LABEL]: 'bench' };
  await pollUntil('runtime stopped the pods', async () => {
    const [sb, cs] = await Promise.all([
      cri.listPodSandbox({ filter: { state: { state: 'SANDBOX_READY' }, labelSelector: ns } }),
      cri.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' }, labelSelector: ns } }),
    ]);
    return sb.items.length === 0 && cs.containers.length === 0;
  }, 200);
}
