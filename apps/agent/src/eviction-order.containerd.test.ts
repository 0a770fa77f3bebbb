/**
 * The memory-pressure eviction-order suite (testing/eviction-order-suite.ts) on containerd: a private containerd
 * from scripts/containerd-up.sh (root only; skipped with the reason when it cannot start), image
 * localhost/busybox:latest. BestEffort, then Burstable, then Guaranteed are evicted, one per pass; the static
 * pod stays. Sandboxes are removed through CRI before containerd stops (no shims left behind).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createCriClient } from '@nodelet/core';
import { evictionOrderSuite } from './testing/eviction-order-suite.ts';

const script = (name: string) => fileURLToPath(new URL(`../../../scripts/${name}`, import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'nodelet-evict-ctd-'));
const state = join(root, 'containerd');

function up(): { endpoint?: string; reason?: string } {
  if (process.getuid?.() !== 0) return { reason: 'containerd needs root' };
  try {
    const out = execFileSync(script('containerd-up.sh'), [state], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const endpoint = /^ENDPOINT=(.*)$/m.exec(out)?.[1];
    return endpoint ? { endpoint } : { reason: 'containerd-up.sh printed no ENDPOINT' };
  } catch (err) {
    return { reason: `containerd-up.sh failed: ${String((err as { stderr?: string }).stderr ?? err).trim().slice(0, 300)}` };
  }
}

const ctd = up();

// Registered first, so the suite's after hook (agent, API server) runs before containerd is drained and stopped.
evictionOrderSuite({ endpoint: () => ctd.endpoint, image: 'localhost/busybox:latest', nodeName: 'node-oc', skip: ctd.endpoint ? false : ctd.reason ?? 'no containerd' });

after(async () => {
  if (ctd.endpoint) {
    const cri = createCriClient(ctd.endpoint);
    try {
      for (const sb of (await cri.listPodSandbox({})).items ?? []) {
        await cri.stopPodSandbox({ podSandboxId: sb.id }).catch(() => undefined);
        await cri.removePodSandbox({ podSandboxId: sb.id }).catch(() => undefined);
      }
    } finally {
      cri.close();
    }
    execFileSync(script('containerd-down.sh'), [state], { stdio: 'ignore' });
  }
  rmSync(root, { recursive: true, force: true });
});
