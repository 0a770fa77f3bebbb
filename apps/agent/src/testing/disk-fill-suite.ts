/**
 * Image GC and disk-pressure eviction on a REAL small image filesystem (a 96 MiB tmpfs), for either runtime
 * (eviction-disk.integration.test.ts: embedded; eviction-disk.containerd.test.ts: containerd's root):
 * 1. Image GC (high 60 %, low 50 %, minimum age 0 s; period 2 s through the kubelet factory's overrides): distinct busybox
 *    images with 6 MiB of random filler each are pulled from a loopback registry one at a time until usage passes
 *    the high threshold; GC removes the least recently used (oldest detected) unused images until usage is under
 *    the low threshold — a `gc` event (trigger periodic) names them oldest first, the newest stays. The agent's
 *    imagefs is the runtime's (CRI ImageFsInfo mountpoint): its capacity is the tmpfs's. With `exactSizes`
 *    (the runtime's image size is what removing it frees) GC frees what it needs and no more: freedBytes matches
 *    the measured drop, and one image fewer would have left usage above the low threshold.
 * 2. An API-server pod runs the newest image; the agent restarts (pods survive) with --eviction-hard
 *    imagefs.available<N% where N is above what reclaiming every unused image can free: DiskPressure, node-level
 *    reclaim first (container GC, image GC, trigger eviction), then the API-server pod is evicted (Failed / Evicted,
 *    ephemeral-storage message); the static pod stays. The pressure timeline is printed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { createCriClient, type CriClient } from '@nodelet/core/cri';
import { realClock, nullLogger } from '@nodelet/core/util';
import type { ApiServerDouble } from '@nodelet/apiserver-double';
import { buildBusyboxOciLayout, pushToRegistry } from '@nodelet/runtime/testing';
import { boundPod, startApiNode, staticPodYaml, testCgroupRoot } from './api-node.ts';
import { removeCgroupTree } from './cgroups.ts';
import { call, type NodeAgent } from './cluster-node.ts';
import { eventually } from './processes.ts';
import { formatTimeline, pressureTimeline, type TimelineRow } from './pressure-timeline.ts';

const HIGH = 60;
const LOW = 50;
const MIB = 1048576;

export interface DiskFillTarget {
  /** The image filesystem (a tmpfs mount) whose statfs the test watches. */
  imageFs: string;
  /** The agent's root dir (the embedded runtime keeps its images under it); default a temp dir. */
  agentRoot?: string;
  /** --container-runtime-endpoint (undefined: the embedded runtime). */
  endpoint?: string;
  /** The test's own CRI connection. */
  criEndpoint: string;
  /** host:port of a loopback registry the runtime pulls from over plain HTTP. */
  registryHost: string;
  /** The static pod's image (present without a pull). */
  staticImage: string;
}

export interface DiskFillOptions {
  runtime: string;
  node: string;
  /** The runtime's image size is what removing the image frees (assert GC stops at the low threshold). */
  exactSizes: boolean;
  skip: string | false;
  setup(work: string): Promise<DiskFillTarget>;
  teardown(): Promise<void>;
}

/** Mounts a tmpfs of `size` at `dir` (created); returns the unmount. */
export function mountTmpfs(dir: string, size = '96m'): () => void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  // containerd-down.sh may have unmounted it already (it unmounts everything under its state dir).
  return () => {
    if (readFileSync('/proc/mounts', 'utf8').split('\n').some((l) => l.split(' ')[1] === dir)) execFileSync('umount', ['-l', dir]);
  };
}

interface Tls { cert: string; key: string }
interface GcEvent { time: string; kind: string; trigger: string; removed: string[]; freedBytes: number }

async function recentGc(port: number, tls: Tls): Promise<GcEvent[]> {
  const r = await call(`https://127.0.0.1:${port}/trpc/events.recent?input=${encodeURIComponent(JSON.stringify({ types: ['gc'] }))}`, tls);
  return (JSON.parse(r.body) as { result: { data: GcEvent[] } }).result.data;
}

async function buildFillImages(work: string, registry: string, n: number): Promise<string[]> {
  const refs: string[] = [];
  for (let i = 1; i <= n; i++) {
    const filler = join(work, `filler-${i}`);
    writeFileSync(filler, randomBytes(6 * MIB));
    const layout = await buildBusyboxOciLayout(join(work, `layout-${i}`), { extraFiles: [{ from: filler, to: '/filler' }] });
    refs.push(await pushToRegistry(layout, registry, `fill-${i}:v1`));
  }
  return refs;
}

export function diskFillSuite(o: DiskFillOptions): void {
  const work = mkdtempSync(join(tmpdir(), `nodelet-disk-${o.runtime}-`));
  let api: ApiServerDouble | undefined;
  let agent: NodeAgent | undefined;
  let cri: CriClient | undefined;

  after(async () => {
    cri?.close();
    await agent?.cleanup();
    await api?.stop();
    await o.teardown();
    if (process.getuid?.() === 0) removeCgroupTree(testCgroupRoot(o.node));
    rmSync(work, { recursive: true, force: true });
  });

  describe(`image GC and disk eviction on a small image filesystem (${o.runtime})`, { skip: o.skip, timeout: 360_000 }, () => {
    it('GC removes the oldest unused images to the low threshold; DiskPressure reclaims, then evicts the API pod', async () => {
      const t = await o.setup(work);
      const fs = () => statfsSync(t.imageFs);
      const capacity = fs().blocks * fs().bsize;
      const used = () => (fs().blocks - fs().bavail) * fs().bsize;
      const pct = (bytes: number) => (bytes * 100) / capacity;
      const refs = await buildFillImages(work, t.registryHost, 6);
      let pressure: string[] = [];
      const started = await startApiNode(o.node, {
        staticPod: staticPodYaml('st', { image: t.staticImage }),
        ...(t.endpoint ? { endpoint: t.endpoint } : {}),
        ...(t.agentRoot ? { root: t.agentRoot } : {}),
        kubelet: { imageGcPeriodMs: 2000 },
        args: () => [`--image-gc-high-threshold=${HIGH}`, `--image-gc-low-threshold=${LOW}`, '--minimum-image-gc-age=0s', ...pressure],
      });
      ({ api, agent } = started);
      const tls = { cert: readFileSync(join(agent.root, 'pki', 'console.crt'), 'utf8'), key: readFileSync(join(agent.root, 'pki', 'console.key'), 'utf8') };
      const startedAt = Date.now();
      cri = createCriClient(t.criEndpoint, { logger: nullLogger, clock: realClock });
      const fsInfo = await cri.imageFsInfo({});
      const mountpoint = fsInfo.imageFilesystems[0]?.fsId?.mountpoint ?? '';
      assert.equal(statfsSync(mountpoint).blocks, fs().blocks, `ImageFsInfo's mountpoint ${mountpoint} is on the image tmpfs`);

      const fill = await fillUntilGc(cri, agent, tls, refs, used, pct);
      const { gc, pulled, delta } = fill;
      await eventually(async () => (pct(used()) <= LOW + 1 ? true : undefined), 20_000, `usage under the low threshold (now ${pct(used()).toFixed(1)}%)`);
      const afterGc = used();
      const lastRemoved = delta.get(gc.removed[gc.removed.length - 1]!) ?? 0;
      const removedBytes = gc.removed.reduce((n, r) => n + (delta.get(r) ?? 0), 0);
      const sizing = `GC freed ${(gc.freedBytes / MIB).toFixed(1)}Mi by its sizes, the removed pulls had taken ${(removedBytes / MIB).toFixed(1)}Mi; usage after ${pct(afterGc).toFixed(1)}%, +last removed ${pct(afterGc + lastRemoved).toFixed(1)}%`;
      if (o.exactSizes) {
        assert.ok(Math.abs(gc.freedBytes - removedBytes) <= removedBytes * 0.05 + MIB / 2, `image sizes are what removal frees: ${sizing}`);
        assert.ok(pct(afterGc + lastRemoved) > LOW, `GC frees what it needs, not more: ${sizing}`);
      }
      const listed = (await cri.listImages({})).images.flatMap((i) => i.repoTags);
      for (const r of gc.removed) assert.ok(!listed.includes(r), `${r} removed`);
      const kept = pulled.slice(gc.removed.length);
      for (const r of kept) assert.ok(listed.includes(r), `${r} kept`);

      const rows = await pressurePhase({ api, agent, cri, tls, kept, spare: refs[pulled.length], delta, node: o.node, pct, used, startedAt, setPressure: (p) => (pressure = p) });
      const ctx = `Image GC (${o.runtime}): pulls ${fill.usage.join(', ')}; first GC removed ${gc.removed.join(' ')}; ${sizing}; imagefs ${mountpoint}`;
      const timeline = await pressureTimeline(agent.port, tls, 'imagefs.available', rows.restartAt);
      const pass = [...rows.filling, ...timeline].find((r) => r.what === 'pass');
      assert.match(pass?.detail ?? '', new RegExp(`of ${(capacity / MIB).toFixed(1)}Mi`), 'the agent\'s imagefs is the runtime\'s (capacity of the tmpfs)');
      console.log(`\n${ctx}\nImage GC timeline (imagefs.available, first agent):\n${formatTimeline(rows.filling)}\n`
        + `Pressure timeline (imagefs.available, threshold ${rows.threshold}%, restarted agent):\n${formatTimeline(timeline)}\n`);
    });
  });
}

interface Fill { gc: GcEvent; pulled: string[]; usage: string[]; delta: Map<string, number> }

/** Pulls images one at a time until the periodic image GC removes some; each pull's usage increase is measured. */
async function fillUntilGc(cri: CriClient, agent: NodeAgent, tls: Tls, refs: string[], used: () => number, pct: (b: number) => number): Promise<Fill> {
  const pulled: string[] = [];
  const usage: string[] = [];
  const delta = new Map<string, number>();
  let gc: GcEvent | undefined;
  for (const ref of refs) {
    const before = used();
    await cri.pullImage({ image: { image: ref } });
    delta.set(ref, used() - before);
    pulled.push(ref);
    usage.push(`${ref.split('/')[1]}: ${pct(used()).toFixed(1)}%`);
    // Past the high threshold the periodic GC (every 2 s) must come: up to 30 s for a loaded machine; below it, a
    // short look (a GC then would be a wrong one, which the assertions below name).
    const until = Date.now() + (pct(used()) > HIGH ? 30_000 : 3_000);
    while (!gc && Date.now() < until) {
      gc = (await recentGc(agent.port, tls)).find((e) => e.kind === 'images' && e.trigger === 'periodic' && e.removed.length > 0);
      if (!gc) await new Promise((r) => setTimeout(r, 500));
    }
    if (gc) break;
  }
  assert.ok(gc, `image GC never ran; usage after each pull: ${usage.join(', ')}`);
  assert.ok(pulled.length >= 3 && pulled.length < refs.length, `GC after ${pulled.length} pulls (${usage.join(', ')})`);
  assert.deepEqual(gc.removed, pulled.slice(0, gc.removed.length), 'least recently used (oldest) first');
  assert.ok(gc.removed.length < pulled.length, `the newest image stays: removed ${gc.removed.join(' ')}; usage ${usage.join(', ')}`);
  return { gc, pulled, usage, delta };
}

interface PressureCtx {
  api: ApiServerDouble;
  agent: NodeAgent;
  cri: CriClient;
  tls: Tls;
  kept: string[];
  /** A fill image not pulled yet. */
  spare: string | undefined;
  delta: Map<string, number>;
  node: string;
  pct: (b: number) => number;
  used: () => number;
  startedAt: number;
  setPressure(args: string[]): void;
}

/** An API pod on the newest image; restart with an imagefs threshold reclaim cannot meet; reclaim, then evict. */
async function pressurePhase(c: PressureCtx): Promise<{ threshold: number; filling: TimelineRow[]; restartAt: number }> {
  const newest = c.kept[c.kept.length - 1]!;
  c.api.store.create(boundPod('hog', c.node, { image: newest, graceSeconds: 1 }));
  const getPod = (n: string) => c.api.store.get('pods', 'default', n) as V1Pod | undefined;
  await eventually(async () => (getPod('hog')?.status?.phase === 'Running' && getPod(`st-${c.node}`)?.status?.phase === 'Running' ? true : undefined), 120_000, 'hog and st Running')
    .catch((err: Error) => {
      const brief = (n: string) => `${n}: ${JSON.stringify(getPod(n)?.status ?? null).slice(0, 600)}`;
      throw new Error(`${err.message}\n${brief('hog')}\n${brief(`st-${c.node}`)}\n${c.agent.lines.filter((l) => /hog|"level":"(warn|error)"/.test(l)).slice(-20).join('\n')}`);
    });
  const unused = c.kept.filter((r) => r !== newest);
  if (unused.length === 0 && c.spare !== undefined) {
    // GC left nothing unused (containerd's sizes undercount): one more image, for the node-level reclaim to take.
    const before = c.used();
    await c.cri.pullImage({ image: { image: c.spare } });
    c.delta.set(c.spare, c.used() - before);
    unused.push(c.spare);
  }
  const sizes = new Map((await c.cri.listImages({})).images.flatMap((i) => i.repoTags.map((t) => [t, Number(i.size)] as const)));
  const reclaimable = unused.reduce((n, r) => n + Math.max(sizes.get(r) ?? 0, c.delta.get(r) ?? 0), 0);
  const availPct = 100 - c.pct(c.used());
  const threshold = Math.min(99, Math.ceil(availPct + c.pct(reclaimable) + 8));
  c.setPressure([`--eviction-hard=imagefs.available<${threshold}%`]);
  const filling = await pressureTimeline(c.agent.port, c.tls, 'imagefs.available', c.startedAt);
  const restartAt = Date.now();
  await c.agent.kill('SIGKILL');
  await c.agent.start();

  const hog = await eventually(async () => (getPod('hog')?.status?.reason === 'Evicted' ? getPod('hog') : undefined), 120_000, `hog evicted (imagefs.available<${threshold}%)`);
  assert.equal(hog.status?.phase, 'Failed');
  assert.match(hog.status?.message ?? '', /^The node was low on resource: ephemeral-storage\./);
  const reclaim = (await recentGc(c.agent.port, c.tls)).filter((e) => e.kind === 'images' && e.trigger === 'eviction' && Date.parse(e.time) >= restartAt);
  assert.ok(reclaim.length > 0, 'image GC ran as node-level reclaim');
  for (const r of unused) assert.ok(reclaim.some((e) => e.removed.includes(r)), `${r} reclaimed`);
  const evictedAt = Date.parse(String(hog.status?.conditions?.find((x) => x.type === 'DisruptionTarget')?.lastTransitionTime ?? ''));
  assert.ok(Date.parse(reclaim[0]!.time) <= evictedAt + 999, 'reclaim before eviction');
  assert.equal(getPod(`st-${c.node}`)?.status?.phase, 'Running', 'the static pod is never evicted');
  await eventually(async () => {
    const m = await call(`https://127.0.0.1:${c.agent.port}/metrics`, c.tls);
    return /^kubelet_evictions\{eviction_signal="imagefs.available"\} 1$/m.test(m.body) ? true : undefined;
  }, 30_000, 'kubelet_evictions{eviction_signal="imagefs.available"} 1');
  const rows = await pressureTimeline(c.agent.port, c.tls, 'imagefs.available', restartAt);
  assert.ok(rows.some((r) => r.what === 'eviction' && r.detail.startsWith('default/hog ')), 'the eviction in eviction.state');
  return { threshold, filling, restartAt };
}
