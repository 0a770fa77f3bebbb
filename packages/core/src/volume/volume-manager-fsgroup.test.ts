/**
 * fsGroup through the volume manager, with the pod of the upstream specs test/e2e/common/storage/secrets_volume.go
 * and projected_secret.go "should be consumable from pods in volume as non-root with defaultMode and fsGroup set"
 * (runAsUser 1000, fsGroup 1001, defaultMode 0440, secret data-1 = "value-1\n"): the file must be -r--r----- and
 * readable through group 1001. emptyDir gets the group too (writable mask), once. chown needs root: skipped without
 * it outside CI, failing under CI=true.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { createLogger } from '../util/logger.ts';
import { FakeObjects, FakeTokens } from '../podobjects/testing/fake-sources.ts';
import { FakeMounter } from './testing/fake-mounter.ts';
import { PodVolumeManager } from './volume-manager.ts';

const opts = { skip: process.getuid?.() !== 0 && process.env.CI !== 'true' ? 'chown to another group needs root' : false };

const pod: V1Pod = {
  metadata: { name: 'pod-secrets', namespace: 'ns', uid: 'uid-fs' },
  spec: {
    securityContext: { runAsUser: 1000, fsGroup: 1001 },
    volumes: [
      { name: 'secret-volume', secret: { secretName: 'secret-test', defaultMode: 0o440 } },
      { name: 'projected-secret-volume', projected: { defaultMode: 0o440, sources: [{ secret: { name: 'secret-test' } }] } },
      { name: 'scratch', emptyDir: {} },
    ],
    containers: [{ name: 'secret-volume-test', image: 'i' }],
  },
};

async function withManager(fn: (vm: PodVolumeManager, root: string) => Promise<void>): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'volmgr-fsgroup-'));
  try {
    const objects = new FakeObjects();
    objects.secrets.set('ns/secret-test', { data: { 'data-1': Buffer.from('value-1\n').toString('base64') } });
    const vm = new PodVolumeManager(
      { clock: new FakeClock(), logger: createLogger(() => {}), objects, tokens: new FakeTokens(), mounter: new FakeMounter(false), event: () => {} },
      { rootDir: root },
    );
    await fn(vm, root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

test('volume manager: secret and projected secret with defaultMode 0440 + fsGroup 1001 → -r--r----- group 1001; emptyDir 02777 group 1001', opts, async () => {
  await withManager(async (vm, root) => {
    assert.deepEqual(await vm.mountPod(pod), { ok: true });
    const vols = join(root, 'pods/uid-fs/volumes');
    for (const f of ['kubernetes.io~secret/secret-volume/data-1', 'kubernetes.io~projected/projected-secret-volume/data-1']) {
      const st = await stat(join(vols, f));
      assert.equal(st.mode & 0o7777, 0o440, f);
      assert.equal(st.gid, 1001, f);
      assert.equal(await readFile(join(vols, f), 'utf8'), 'value-1\n');
    }
    const scratch = join(vols, 'kubernetes.io~empty-dir/scratch');
    assert.equal((await stat(scratch)).mode & 0o7777, 0o2777);
    assert.equal((await stat(scratch)).gid, 1001);
    // what the pod writes later is not re-chmodded on the next sync (set up once, as the kubelet's ready file)
    await writeFile(join(scratch, 'mine'), 'x');
    await chmod(join(scratch, 'mine'), 0o600);
    assert.deepEqual(await vm.mountPod(pod), { ok: true });
    assert.equal((await stat(join(scratch, 'mine'))).mode & 0o7777, 0o600);
    assert.equal((await stat(scratch)).mode & 0o7777, 0o2777);
  });
});

test('volume manager: without fsGroup the secret keeps its defaultMode and group', async () => {
  await withManager(async (vm, root) => {
    const noGroup: V1Pod = { ...pod, spec: { ...pod.spec!, securityContext: { runAsUser: 1000 } } };
    assert.deepEqual(await vm.mountPod(noGroup), { ok: true });
    const st = await stat(join(root, 'pods/uid-fs/volumes/kubernetes.io~secret/secret-volume/data-1'));
    assert.equal(st.mode & 0o7777, 0o440);
    assert.equal(st.gid, process.getgid?.());
  });
});
