/**
 * A private containerd for agent tests (scripts/containerd-up.sh: CRI plugin, runc, a CNI bridge, localhost/busybox
 * and localhost/pause imported, a loopback registry holding busybox). Root only; when it cannot start the result
 * carries the reason (for a skip). `down()` removes every CRI sandbox first (no shims left), then stops it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCriClient } from '@nodelet/core/cri';

const script = (name: string) => fileURLToPath(new URL(`../../../../scripts/${name}`, import.meta.url));

export interface PrivateContainerd {
  /** unix:// endpoint; undefined when it did not start (see reason). */
  endpoint?: string;
  /** host:port of its loopback registry (plain HTTP, trusted by this containerd). */
  registry?: string;
  reason?: string;
  down(): Promise<void>;
}

/** Starts containerd with state (and, unless mounted over first, its `root`) under `state`. */
export function privateContainerd(state: string): PrivateContainerd {
  const down = async (endpoint?: string) => {
    if (endpoint) {
      const cri = createCriClient(endpoint);
      try {
        for (const sb of (await cri.listPodSandbox({})).items ?? []) {
          await cri.stopPodSandbox({ podSandboxId: sb.id }).catch(() => undefined);
          await cri.removePodSandbox({ podSandboxId: sb.id }).catch(() => undefined);
        }
      } finally {
        cri.close();
      }
    }
    execFileSync(script('containerd-down.sh'), [state], { stdio: 'ignore' });
  };
  if (process.getuid?.() !== 0) return { reason: 'containerd needs root', down: async () => {} };
  try {
    const out = execFileSync(script('containerd-up.sh'), [state], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const endpoint = /^ENDPOINT=(.*)$/m.exec(out)?.[1];
    const registry = /^REGISTRY=(.*)$/m.exec(out)?.[1];
    if (!endpoint) return { reason: 'containerd-up.sh printed no ENDPOINT', down: () => down() };
    return { endpoint, ...(registry ? { registry } : {}), down: () => down(endpoint) };
  } catch (err) {
    return { reason: `containerd-up.sh failed: ${String((err as { stderr?: string }).stderr ?? err).trim().slice(0, 300)}`, down: () => down() };
  }
}

/**
 * A private containerd in a fresh temp dir (`<tmp>/<prefix>XXXXXX`, removed by `down()`), or why it could not
 * start (for a skip outside CI).
 */
export async function tempPrivateContainerd(prefix: string): Promise<{ endpoint: string; registry?: string; state: string; down(): Promise<void> } | string> {
  const state = mkdtempSync(join(tmpdir(), prefix));
  const ctd = privateContainerd(state);
  const down = async () => {
    await ctd.down();
    rmSync(state, { recursive: true, force: true });
  };
  if (!ctd.endpoint) {
    await down();
    return `containerd not available: ${ctd.reason ?? ''}`;
  }
  return { endpoint: ctd.endpoint, ...(ctd.registry ? { registry: ctd.registry } : {}), state, down };
}

/** A two-runtime suite's setup: the runtime it runs on, or why it could not start. */
export type RuntimeSetup = () => Promise<{ endpoint?: string; down(): Promise<void> } | string>;

/** Runs `setup`: the runtime, or the reason to skip outside CI (under CI=true the reason is thrown). */
export async function setUpRuntime(setup: RuntimeSetup): Promise<{ endpoint?: string; down(): Promise<void> } | { skip: string }> {
  const r = await setup();
  if (typeof r !== 'string') return r;
  if (process.env.CI === 'true') throw new Error(r);
  return { skip: r };
}
