/**
 * Eviction and GC on the real agent with the embedded runtime:
 * - a memory.available hard threshold above anything this machine has (1000Ti) puts the node under
 *   MemoryPressure (eviction.state over tRPC, a `pressure` bus event); the static pods (critical, as in the
 *   kubelet) keep running and a BestEffort static pod added under pressure is still admitted — only pods from
 *   an API server could be evicted or refused, and the agent has no API-server source yet;
 * - gc.containers (tRPC mutation, client certificate) removes a crash-looping pod's dead containers
 *   (--maximum-dead-containers-per-container=0) from the runtime; anonymous callers are refused;
 * - gc.images removes an unused image pulled from a loopback registry into the runtime's store;
 * - imagefs/nodefs thresholds above what the disk has: DiskPressure, and the node-level reclaim (container
 *   GC, then image GC) removes an unused image on its own (a `gc` event with trigger "eviction").
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { request as httpsRequest } from 'node:https';
import { createCriClient } from '@nodelet/core/cri';
import { realClock, nullLogger } from '@nodelet/core/util';
import { buildBusyboxOciLayout, pushToRegistry, startLoopbackRegistry, type LoopbackRegistry } from '@nodelet/runtime/testing';
import { doRequest, type TlsClientOptions } from './testing/https-client.ts';
import { eventually, freePort, lineReader, stopPid } from './testing/processes.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'nodelet-evict-it-'));
const agents: Array<{ proc: ChildProcess; rootDir: string }> = [];
let registry: LoopbackRegistry | undefined;

after(async () => {
  for (const a of agents) {
    if (a.proc.pid && a.proc.exitCode === null) await stopPid(a.proc.pid, 5000);
    const pidFile = join(a.rootDir, 'runtime', 'runtime.pid');
    if (existsSync(pidFile)) await stopPid(Number(readFileSync(pidFile, 'utf8').trim()));
  }
  await registry?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Starts the agent (embedded runtime) under rootDir; resolves once the kubelet port listens. */
async function startAgent(rootDir: string, nodeName: string, manifests: string, extra: string[]) {
  const [port, ro, hz] = [await freePort(), await freePort(), await freePort()];
  const proc = spawn(process.execPath, ['--import', 'tsx', main,
    '--root-dir', rootDir, '--pod-manifest-path', manifests, '--node-name', nodeName,
    '--port', String(port), '--read-only-port', String(ro), '--healthz-port', String(hz),
    '--file-check-frequency', '1s', '--address', '127.0.0.1', '--housekeeping-interval', '1s', '--volume-stats-agg-period', '1s', ...extra,
  ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } });
  agents.push({ proc, rootDir });
  await lineReader(proc).waitForLine((l) => l.includes('"msg":"listening","server":"kubelet"'), 'kubelet listening');
  const tls = {
    ca: readFileSync(join(rootDir, 'pki', 'ca.crt'), 'utf8'),
    cert: readFileSync(join(rootDir, 'pki', 'console.crt'), 'utf8'),
    key: readFileSync(join(rootDir, 'pki', 'console.key'), 'utf8'),
  };
  return { port, tls, rootDir };
}

async function pushTestImage(repo: string): Promise<string> {
  registry ??= await startLoopbackRegistry(join(root, 'registry'));
  const layout = await buildBusyboxOciLayout(join(root, `layout-${repo.replace(/[:/]/g, '-')}`));
  return pushToRegistry(layout, registry.host, repo);
}

const pod = (name: string, command: string, restartPolicy = 'Always') => `apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default }
spec:
  restartPolicy: ${restartPolicy}
  containers:
    - name: main
      image: nodelet.local/host:latest
      imagePullPolicy: Never
      command: ["sh", "-c", "${command}"]
`;

function post(url: string, tls: TlsClientOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(url), { method: 'POST', ...tls, agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function trpc<T>(port: number, tls: TlsClientOptions, path: string, method: 'GET' | 'POST' = 'GET'): Promise<{ status: number; data: T }> {
  const url = `https://127.0.0.1:${port}/trpc/${path}`;
  const r = method === 'POST' ? await post(url, tls) : await doRequest(url, tls);
  const body = JSON.parse(r.body) as { result?: { data: T }; error?: unknown };
  return { status: r.status, data: (body.result?.data ?? body.error) as T };
}

interface StateView {
  conditions: string[];
  signals: Array<{ signal: string; observed?: { available: number }; thresholds: Array<{ met: boolean; raw: string }> }>;
}

describe('eviction and GC on the real agent', () => {
  it('reports MemoryPressure, keeps critical pods, and runs container and image GC on demand', async () => {
    const manifests = join(root, 'a', 'manifests');
    mkdirSync(manifests, { recursive: true });
    writeFileSync(join(manifests, 'steady.yaml'), pod('steady', 'sleep 3600'));
    writeFileSync(join(manifests, 'crasher.yaml'), pod('crasher', 'exit 1'));
    const { port, tls, rootDir } = await startAgent(join(root, 'a'), 'evict', manifests, [
      '--eviction-hard=memory.available<1000Ti', '--crashloop-backoff-initial=1s',
      '--maximum-dead-containers-per-container=0', '--minimum-image-gc-age=0s',
    ]);

    // Pressure: the threshold is met on the first pass with stats (every 10 s).
    const state = await eventually(async () => {
      const s = (await trpc<StateView | null>(port, tls, 'eviction.state')).data;
      return s?.conditions.includes('MemoryPressure') ? s : undefined;
    }, 60_000, 'MemoryPressure');
    const mem = state.signals.find((s) => s.signal === 'memory.available');
    assert.ok((mem?.observed?.available ?? 0) > 0, 'memory.available observed from real stats');
    assert.deepEqual(mem?.thresholds.map((t) => [t.raw, t.met]), [['1000Ti', true]]);
    const events = (await trpc<Array<{ type: string; conditions?: string[] }>>(port, tls, `events.recent?input=${encodeURIComponent(JSON.stringify({ types: ['pressure'] }))}`)).data;
    assert.ok(events.some((e) => e.type === 'pressure' && e.conditions?.includes('MemoryPressure')));

    // Static pods are critical: admitted under pressure (even BestEffort) and never evicted.
    writeFileSync(join(manifests, 'late.yaml'), pod('late', 'sleep 3600'));
    const phases = async () => {
      const list = JSON.parse((await doRequest(`https://127.0.0.1:${port}/pods`, tls)).body) as { items: Array<{ metadata: { name: string }; status?: { phase?: string; reason?: string } }> };
      return new Map(list.items.map((p) => [p.metadata.name, p.status]));
    };
    await eventually(async () => ((await phases()).get('late-evict')?.phase === 'Running' ? true : undefined), 60_000, 'late-evict Running under MemoryPressure');
    await new Promise((r) => setTimeout(r, 11_000));
    const after = await phases();
    assert.equal(after.get('steady-evict')?.phase, 'Running');
    assert.notEqual(after.get('late-evict')?.reason, 'Evicted');

    // Container GC on demand: the crash-looping pod's dead containers go.
    const cri = createCriClient(`unix://${join(rootDir, 'runtime', 'nodelet.sock')}`, { logger: nullLogger, clock: realClock });
    try {
      await eventually(async () => {
        const list = await cri.listContainers({});
        return list.containers.some((c) => c.metadata?.name === 'main' && c.state === 'CONTAINER_EXITED' && c.labels['io.kubernetes.pod.name'] === 'crasher-evict') ? true : undefined;
      }, 60_000, 'a dead crasher container');
      const anon = await post(`https://127.0.0.1:${port}/trpc/gc.containers`, { ca: tls.ca });
      assert.equal(anon.status, 401, 'no client certificate: refused before tRPC');
      const gcC = await trpc<{ removed: string[]; freedBytes: number }>(port, tls, 'gc.containers', 'POST');
      assert.equal(gcC.status, 200);
      assert.ok(gcC.data.removed.some((r) => r.startsWith('default/crasher-evict/main')), JSON.stringify(gcC.data));

      // Image GC on demand: an unused image pulled from a loopback registry is removed.
      const ref = await pushTestImage('gc-victim:1');
      await cri.pullImage({ image: { image: ref } });
      assert.ok((await cri.listImages({})).images.some((i) => i.repoTags.includes(ref)));
      const gcI = await trpc<{ removed: string[]; freedBytes: number }>(port, tls, 'gc.images', 'POST');
      assert.equal(gcI.status, 200);
      assert.deepEqual(gcI.data.removed, [ref]);
      assert.ok(gcI.data.freedBytes > 0);
      const left = (await cri.listImages({})).images.flatMap((i) => i.repoTags);
      assert.ok(!left.includes(ref));
      assert.ok(left.includes('nodelet.local/host:latest'), 'the reserved host image stays');
      const last = (await trpc<{ images: { removed: string[] } | null }>(port, tls, 'gc.last')).data;
      assert.deepEqual(last.images?.removed, [ref]);
    } finally {
      cri.close();
    }
  });

  it('disk pressure reclaims node-level resources first: unused images go before any pod', async () => {
    const manifests = join(root, 'b', 'manifests');
    mkdirSync(manifests, { recursive: true });
    writeFileSync(join(manifests, 'steady.yaml'), pod('steady', 'sleep 3600'));
    const { port, tls, rootDir } = await startAgent(join(root, 'b'), 'disk', manifests, [
      // Any real disk is less than 99.9% free: imagefs (and nodefs) pressure from the first pass.
      '--eviction-hard=imagefs.available<99.9%,nodefs.available<99.9%', '--minimum-image-gc-age=0s',
    ]);
    const cri = createCriClient(`unix://${join(rootDir, 'runtime', 'nodelet.sock')}`, { logger: nullLogger, clock: realClock });
    try {
      const ref = await pushTestImage('disk-victim:1');
      await cri.pullImage({ image: { image: ref } });
      const gc = await eventually(async () => {
        const evs = (await trpc<Array<{ type: string; kind?: string; trigger?: string; removed?: string[] }>>(port, tls, `events.recent?input=${encodeURIComponent(JSON.stringify({ types: ['gc'] }))}`)).data;
        return evs.find((e) => e.kind === 'images' && e.trigger === 'eviction' && e.removed?.includes(ref));
      }, 60_000, 'image GC triggered by disk pressure');
      assert.ok(gc);
      assert.ok(!(await cri.listImages({})).images.some((i) => i.repoTags.includes(ref)));
      const s = (await trpc<StateView | null>(port, tls, 'eviction.state')).data;
      assert.ok(s?.conditions.includes('DiskPressure'));
      const k8s = (await trpc<Array<{ type: string; reason?: string; message?: string }>>(port, tls, `events.recent?input=${encodeURIComponent(JSON.stringify({ types: ['k8sEvent'] }))}`)).data;
      assert.ok(k8s.some((e) => e.reason === 'EvictionThresholdMet' && e.message === 'Attempting to reclaim ephemeral-storage'));
      const pods = JSON.parse((await doRequest(`https://127.0.0.1:${port}/pods`, tls)).body) as { items: Array<{ metadata: { name: string }; status?: { phase?: string } }> };
      assert.equal(pods.items.find((p) => p.metadata.name === 'steady-disk')?.status?.phase === 'Failed', false, 'the static pod is never evicted');
    } finally {
      cri.close();
    }
  });
});
