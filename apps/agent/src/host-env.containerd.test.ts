/**
 * The LD_PRELOAD / LD_AUDIT canary of packages/runtime/src/server/cri-host-env.test.ts against containerd (runc),
 * for comparison: containerd hands the pod env to runc in the OCI spec, never as a helper's environment, so no
 * canary line may come from a process whose root is the host's. Root only; skipped when
 * scripts/containerd-up.sh cannot start one or gcc is missing (a failure under CI=true).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCriClient } from '@nodelet/core/cri';
import { buildLdCanary, hasGcc } from '@nodelet/runtime/testing';
import { privateContainerd } from './testing/private-containerd.ts';

const state = mkdtempSync(join(tmpdir(), 'nodelet-hostenv-ctd-'));
const ctd = privateContainerd(state);
const why = !ctd.endpoint ? (ctd.reason ?? 'no containerd') : !hasGcc() ? 'no gcc' : undefined;
if (why && process.env.CI === 'true') throw new Error(`host-env canary on containerd cannot run under CI: ${why}`);
after(async () => {
  await ctd.down();
  rmSync(state, { recursive: true, force: true });
});

test('containerd: a pod LD_PRELOAD / LD_AUDIT loads nothing into host-side helpers (start, ExecSync)', { skip: why ?? false }, async () => {
  const canary = buildLdCanary(join(state, 'canary'));
  const cri = createCriClient(ctd.endpoint!);
  try {
    const sandboxConfig = {
      metadata: { name: 'hostenv', namespace: 'default', uid: 'uid-hostenv', attempt: 0 }, hostname: 'hostenv', logDirectory: join(state, 'logs'),
    };
    const { podSandboxId } = await cri.runPodSandbox({ config: sandboxConfig });
    const envs = [{ key: 'LD_PRELOAD', value: Buffer.from(canary.so) }, { key: 'LD_AUDIT', value: Buffer.from(canary.so) }];
    const { containerId } = await cri.createContainer({
      podSandboxId, sandboxConfig,
      config: { metadata: { name: 'c', attempt: 0 }, image: { image: 'localhost/busybox:latest' }, command: ['sleep', '1000'], envs, logPath: 'c.log' },
    });
    await cri.startContainer({ containerId });
    const r = await cri.execSync({ containerId, cmd: ['echo', 'probed'], timeout: 10 });
    assert.equal(Buffer.from(r.stdout ?? '').toString(), 'probed\n');
    assert.deepEqual(canary.hostHits(), []);
    await cri.stopPodSandbox({ podSandboxId });
    await cri.removePodSandbox({ podSandboxId });
  } finally {
    cri.close();
  }
});
