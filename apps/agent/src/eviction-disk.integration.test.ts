/**
 * Image GC and disk-pressure eviction on a REAL small filesystem (root only): a 96 MiB tmpfs is the agent's
 * root dir, so the embedded runtime's image store, ImageFsInfo and statfs all see its real usage.
 * 1. Image GC (high 60 %, low 50 %, minimum age 0 s; period shortened to 2 s with NODELET_IMAGE_GC_PERIOD_MS):
 *    distinct busybox images with 6 MiB of random filler each are pulled from a loopback registry one at a time
 *    until usage passes the high threshold; GC removes the least recently used (oldest detected) unused images
 *    until usage is under the low threshold — a `gc` event (trigger periodic) names them oldest first, ListImages
 *    no longer has them, the newest stays.
 * 2. An API-server pod (test double) runs the newest image; the agent restarts (pods survive) with
 *    --eviction-hard imagefs.available<N% where N is above what reclaiming every unused image can free:
 *    DiskPressure, node-level reclaim first (image GC, trigger eviction), then the API-server pod is evicted
 *    (Failed / Evicted, ephemeral-storage message); the static pod stays.
 * Not root: skipped with the reason, or a failure under CI=true.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { createCriClient } from '@nodelet/core';
import type { CriClient } from '@nodelet/core/cri/types.ts';
import { realClock } from '@nodelet/core/util/clock.ts';
import { nullLogger } from '@nodelet/core/util/logger.ts';
import { startApiServerDouble, type ApiServerDouble } from '@nodelet/apiserver-double';
import { buildBusyboxOciLayout, pushToRegistry, startLoopbackRegistry, type LoopbackRegistry } from '@nodelet/runtime/images/testing/build-busybox.ts';
import { call, nodeAgent, type NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';
import { formatTimeline, pressureTimeline } from './testing/pressure-timeline.ts';

const isRoot = process.getuid?.() === 0;
const skipReason = isRoot ? false : 'needs root to mount a tmpfs as the agent root dir';
const work = mkdtempSync(join(tmpdir(), 'nodelet-disk-it-'));
const mnt = join(work, 'root');
let mounted = false;
let registry: LoopbackRegistry | undefined;
let api: ApiServerDouble | undefined;
let agent: NodeAgent | undefined;
let cri: CriClient | undefined;

after(async () => {
  cri?.close();
  await agent?.cleanup();
  await api?.stop();
  await registry?.stop();
  if (mounted) execFileSync('umount', ['-l', mnt]);
  rmSync(work, { recursive: true, force: true });
});

const usedPercent = () => {
  const s = statfsSync(mnt);
  return 100 - (s.bavail * 100) / s.blocks;
};
const availPercent = () => 100 - usedPercent();

interface Tls { cert: string; key: string }
async function recentGc(port: number, tls: Tls) {
  const r = await call(`https://127.0.0.1:${port}/trpc/events.recent?input=${encodeURIComponent(JSON.stringify({ types: ['gc'] }))}`, tls);
  return (JSON.parse(r.body) as { result: { data: Array<{ time: string; kind: string; trigger: string; removed: string[] }> } }).result.data;
}

const staticPod = `apiVersion: v1
kind: Pod
metadata: { name: st, namespace: default }
spec:
  containers:
    - name: main
      image: nodelet.local/host:latest
      imagePullPolicy: Never
      command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 1; done"]
`;

if (!isRoot && process.env.CI === 'true') {
  it('disk-pressure integration test can run', () => assert.fail(`cannot run under CI: ${skipReason}`));
}

describe('image GC and disk eviction on a small tmpfs', { skip: skipReason, timeout: 300_000 }, () => {
  it('GC removes the oldest unused images to the low threshold; DiskPressure reclaims, then evicts the API pod', async () => {
    mkdirSync(mnt);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', mnt]);
    mounted = true;
    registry = await startLoopbackRegistry(join(work, 'registry'));
    const refs: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const filler = join(work, `filler-${i}`);
      writeFileSync(filler, randomBytes(6 * 1048576));
      const layout = await buildBusyboxOciLayout(join(work, `layout-${i}`), { extraFiles: [{ from: filler, to: '/filler' }] });
      refs.push(await pushToRegistry(layout, registry.host, `fill-${i}:v1`));
    }
    api = await startApiServerDouble({ kubeletPreferredAddressTypes: ['InternalIP'] });
    let pressure: string[] = [];
    const apiRef = api;
    agent = await nodeAgent('node-d', (root) => {
      const manifests = join(root, 'manifests');
      mkdirSync(manifests, { recursive: true });
      writeFileSync(join(manifests, 'st.yaml'), staticPod);
      const cfg = join(root, 'kubelet-config.yaml');
      writeFileSync(cfg, 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: 2s\nfileCheckFrequency: 1s\nauthorization: { mode: AlwaysAllow }\n');
      return ['--config', cfg, '--kubeconfig', apiRef.kubeconfigFor('node-d', { auth: 'cert', path: join(root, 'kubeconfig') }), '--node-ip', '127.0.0.1',
        '--pod-manifest-path', manifests, '--housekeeping-interval', '1s',
        '--image-gc-high-threshold=60', '--image-gc-low-threshold=50', '--minimum-image-gc-age=0s', ...pressure];
    }, { root: mnt, env: { NODELET_IMAGE_GC_PERIOD_MS: '2000' } });
    await agent.start();
    const tls = { cert: readFileSync(join(mnt, 'pki', 'console.crt'), 'utf8'), key: readFileSync(join(mnt, 'pki', 'console.key'), 'utf8') };
    const startedAt = Date.now();
    cri = createCriClient(`unix://${join(mnt, 'runtime', 'nodelet.sock')}`, { logger: nullLogger, clock: realClock });
    const c = cri;

    // 1. Fill until the periodic image GC acts (pulls 3 s apart: distinct first-detected times).
    const pulled: string[] = [];
    const usage: string[] = [];
    let gc: { removed: string[]; time: string } | undefined;
    for (const ref of refs) {
      await c.pullImage({ image: { image: ref } });
      pulled.push(ref);
      usage.push(`${ref.split('/')[1]}: ${usedPercent().toFixed(1)}%`);
      const until = Date.now() + 5_000;
      while (!gc && Date.now() < until) {
        gc = (await recentGc(agent.port, tls)).find((e) => e.kind === 'images' && e.trigger === 'periodic' && e.removed.length > 0);
        if (!gc) await new Promise((r) => setTimeout(r, 500));
      }
      if (gc) break;
    }
    assert.ok(gc, `image GC never ran; usage after each pull: ${usage.join(', ')}`);
    assert.ok(pulled.length >= 3 && pulled.length < refs.length, `GC after ${pulled.length} pulls (${usage.join(', ')})`);
    assert.deepEqual(gc.removed, pulled.slice(0, gc.removed.length), 'least recently used (oldest) first');
    assert.ok(gc.removed.length < pulled.length, `the newest image stays: removed ${gc.removed.join(' ')}; usage ${usage.join(', ')}; now ${usedPercent().toFixed(1)}%`);
    await eventually(async () => (usedPercent() <= 51 ? true : undefined), 10_000, `usage under the low threshold (now ${usedPercent().toFixed(1)}%)`);
    const listed = (await c.listImages({})).images.flatMap((i) => i.repoTags);
    for (const r of gc.removed) assert.ok(!listed.includes(r), `${r} removed`);
    const kept = pulled.slice(gc.removed.length);
    for (const r of kept) assert.ok(listed.includes(r), `${r} kept`);

    // 2. An API-server pod runs the newest image, then the agent restarts with an imagefs threshold that
    //    reclaiming every unused image cannot satisfy.
    const newest = kept[kept.length - 1]!;
    api.store.create({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'hog', namespace: 'default' },
      spec: { nodeName: 'node-d', terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: newest, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1; done"] }] },
    });
    const getPod = (n: string) => api!.store.get('pods', 'default', n) as V1Pod | undefined;
    await eventually(async () => (getPod('hog')?.status?.phase === 'Running' && getPod('st-node-d')?.status?.phase === 'Running' ? true : undefined), 60_000, 'hog and st Running');
    const unused = (await c.listImages({})).images.filter((i) => !i.repoTags.includes(newest) && !i.repoTags.some((t) => t.startsWith('nodelet.local/')));
    const reclaimable = unused.reduce((n, i) => n + Number(i.size), 0);
    const threshold = Math.min(99, Math.ceil(availPercent() + (reclaimable * 100) / (statfsSync(mnt).blocks * statfsSync(mnt).bsize) + 8));
    pressure = [`--eviction-hard=imagefs.available<${threshold}%`];
    const restartAt = Date.now();
    await agent.kill('SIGKILL');
    await agent.start();

    const hog = await eventually(async () => (getPod('hog')?.status?.reason === 'Evicted' ? getPod('hog') : undefined), 90_000, `hog evicted (imagefs.available<${threshold}%)`);
    assert.equal(hog?.status?.phase, 'Failed');
    assert.match(hog?.status?.message ?? '', /^The node was low on resource: ephemeral-storage\./);
    const reclaim = (await recentGc(agent.port, tls)).filter((e) => e.kind === 'images' && e.trigger === 'eviction' && Date.parse(e.time) >= restartAt);
    assert.ok(reclaim.length > 0, 'image GC ran as node-level reclaim');
    for (const i of unused) for (const t of i.repoTags) assert.ok(reclaim.some((e) => e.removed.includes(t)), `${t} reclaimed`);
    const evictedAt = Date.parse(String(hog?.status?.conditions?.find((x) => x.type === 'DisruptionTarget')?.lastTransitionTime ?? ''));
    assert.ok(Date.parse(reclaim[0]!.time) <= evictedAt + 999, 'reclaim before eviction');
    assert.equal(getPod('st-node-d')?.status?.phase, 'Running', 'the static pod is never evicted');

    // The eviction is recorded (and counted) once the kill completes.
    await eventually(async () => {
      const m = await call(`https://127.0.0.1:${agent!.port}/metrics`, tls);
      return /^kubelet_evictions\{eviction_signal="imagefs.available"\} 1$/m.test(m.body) ? true : undefined;
    }, 30_000, 'kubelet_evictions{eviction_signal="imagefs.available"} 1');
    const rows = await pressureTimeline(agent.port, tls, 'imagefs.available', startedAt);
    assert.ok(rows.some((r) => r.what === 'eviction' && r.detail.startsWith('default/hog ')), 'the eviction in eviction.state');
    console.log(`\nImage GC pulls: ${usage.join(', ')}; first GC removed ${gc.removed.join(' ')}\nPressure timeline (imagefs.available, threshold ${threshold}%, restarted agent):\n${formatTimeline(rows)}\n`);
  });
});
