/**
 * Integration: image RPCs against a loopback registry, and a container from a pulled busybox image
 * (overlayfs root over the unpacked image, image Entrypoint/Cmd/Env). Needs busybox-static, umoci,
 * skopeo, docker-registry. Run: node --import tsx --test packages/runtime/src/server/cri-images.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBusyboxOciLayout, pushToRegistry, startLoopbackRegistry, type LoopbackRegistry } from '../images/testing/build-busybox.ts';
import { findBinary } from '../util/bins.ts';
import { HOST_IMAGE, containerConfig, criClients, sandboxConfig, spawnDaemon, startInProcess, until, waitExit, type Harness } from '../testing/harness.ts';

const skip = ['umoci', 'skopeo', 'docker-registry', 'busybox'].some((b) => !findBinary(b)) && 'image tools missing';
let h: Harness;
let registry: LoopbackRegistry | undefined;
let ref = '';

before(async () => {
  h = await startInProcess();
  if (skip) return;
  const img = await buildBusyboxOciLayout(join(h.dir, 'build'), { cmd: ['sh', '-c', 'echo from-image-cmd'] });
  registry = await startLoopbackRegistry(join(h.dir, 'registry'));
  ref = await pushToRegistry(img, registry.host, 'busybox:latest');
});
after(async () => {
  await registry?.stop();
  await h?.cleanup();
});

test('the host image is always listed and pinned', async () => {
  const { images } = await h.img.ListImages({});
  const host = images.find((i: { repoTags: string[] }) => i.repoTags.includes(HOST_IMAGE));
  assert.ok(host?.pinned);
  const st = await h.img.ImageStatus({ image: { image: 'nodelet.local/host' } });
  assert.equal(st.image.id, host.id);
  assert.equal((await h.img.ImageStatus({ image: { image: 'absent.example/x:1' } })).image, null);
  const fs = await h.img.ImageFsInfo({});
  assert.equal(fs.imageFilesystems.length, 1);
});

test('pull, run a container from the image on an overlay root, remove', { skip }, async () => {
  const t0 = Date.now();
  const pulled = await h.img.PullImage({ image: { image: ref } });
  const pullMs = Date.now() - t0;
  assert.match(pulled.imageRef, /^sha256:/);
  assert.equal((await h.img.ImageStatus({ image: { image: ref } })).image.id, pulled.imageRef);
  await assert.rejects(h.img.PullImage({ image: { image: `${registry!.host}/busybox:nope` } }), /NOT_FOUND/);

  const config = sandboxConfig('bb', join(h.dir, 'logs'));
  const { podSandboxId } = await h.rt.RunPodSandbox({ config });
  const create = async (name: string, cmd: string[], extra: Record<string, unknown> = {}) => {
    const base = containerConfig(name, cmd, { image: { image: ref }, ...extra }) as { command: string[] };
    const { containerId } = await h.rt.CreateContainer({ podSandboxId, config: base, sandboxConfig: config });
    await h.rt.StartContainer({ containerId });
    return containerId as string;
  };
  const exited = (id: string) =>
    until(async () => {
      const s = (await h.rt.ContainerStatus({ containerId: id })).status;
      return s.state === 'CONTAINER_EXITED' && s;
    }, 'exit');
  const fromImage = await create('cmd', []);
  assert.equal((await exited(fromImage)).exitCode, 0);
  assert.match(readFileSync(join(h.dir, 'logs/cmd/0.log'), 'utf8'), /stdout F from-image-cmd$/m);
  const writer = await create('writer', ['sh', '-c', 'echo x > /etc/written && cat /etc/written && echo "path=$PATH" && ls /proc/1/cmdline']);
  const st = await exited(writer);
  const log = readFileSync(join(h.dir, 'logs/writer/0.log'), 'utf8');
  assert.equal(st.exitCode, 0, log);
  assert.match(log, /stdout F x$/m, 'the root is writable (overlay upper layer)');
  assert.match(log, /stdout F path=\/usr\/local\/sbin:/m, 'image env applies');
  await h.rt.RemovePodSandbox({ podSandboxId });
  await h.img.RemoveImage({ image: { image: ref } });
  await h.img.RemoveImage({ image: { image: ref } }); // absent: still OK
  assert.equal((await h.img.ImageStatus({ image: { image: ref } })).image, null);
  console.log(`# pull of a fresh busybox image: ${pullMs} ms`);
});

test('unprivileged runtime pulls and runs an image on overlayfs inside the user namespace', { skip: skip || (process.getuid?.() !== 0 && 'needs root to drop to nobody') }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-rtui-'));
  chownSync(dir, 65534, 65534);
  const sock = join(dir, 'rt.sock');
  const d = await spawnDaemon(sock, join(dir, 'root'), ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']);
  const c = criClients(sock);
  try {
    await c.img.PullImage({ image: { image: ref } });
    const config = sandboxConfig('ui', join(dir, 'logs'));
    const { podSandboxId } = await c.rt.RunPodSandbox({ config });
    const { containerId } = await c.rt.CreateContainer({
      podSandboxId, sandboxConfig: config,
      config: containerConfig('bb', ['sh', '-c', 'echo uid=$(id -u); echo hi > /etc/x && cat /etc/x; grep " / " /proc/mounts'], { image: { image: ref } }),
    });
    await c.rt.StartContainer({ containerId });
    await until(async () => (await c.rt.ContainerStatus({ containerId })).status.state === 'CONTAINER_EXITED', 'exit');
    const log = readFileSync(join(dir, 'logs/bb/0.log'), 'utf8');
    assert.match(log, /stdout F uid=0$/m);
    assert.match(log, /stdout F hi$/m);
    assert.match(log, /stdout F overlay \/ overlay /m);
    await c.rt.RemovePodSandbox({ podSandboxId });
  } finally {
    c.close();
    d.child.kill('SIGTERM');
    assert.equal(await waitExit(d.child), 0);
    rmSync(dir, { recursive: true, force: true });
  }
});
