/**
 * Probes end to end on containerd (root only; skipped when scripts/containerd-up.sh cannot start one): isolated
 * busybox pods with real CNI addresses. httpd serves /ready and /healthz files that the test removes/creates over
 * CRI ExecSync: a readiness flip seen on /pods, a liveness failure restarting the container, startup (tcp)
 * gating, a closed port's connection error with the pod IP, a hung exec timing out at timeoutSeconds while the
 * pod's other probe keeps running. gRPC is covered on the embedded runtime only (busybox has no gRPC server).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { V1Pod } from '@kubernetes/client-node';
import { createCriClient } from '@nodelet/core';
import type { K8sBusEvent } from '@nodelet/core/events/types.ts';
import { doRequest } from './testing/https-client.ts';
import { eventually, freePort, lineReader, stopPid } from './testing/processes.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const script = (name: string) => fileURLToPath(new URL(`../../../scripts/${name}`, import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'nodelet-probes-ctd-'));
const state = join(root, 'containerd');

function up(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const out = execFileSync(script('containerd-up.sh'), [state], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return /^ENDPOINT=(.*)$/m.exec(out)?.[1];
  } catch {
    return undefined;
  }
}

const endpoint = up();
let agent: ChildProcess | undefined;

/** Removes every pod sandbox through CRI, so containerd reaps its shims before it is stopped. */
async function drain(ep: string): Promise<void> {
  const cri = createCriClient(ep);
  try {
    for (const sb of (await cri.listPodSandbox({})).items ?? []) {
      await cri.stopPodSandbox({ podSandboxId: sb.id });
      await cri.removePodSandbox({ podSandboxId: sb.id });
    }
  } finally {
    cri.close();
  }
}

after(async () => {
  if (agent?.pid && agent.exitCode === null) await stopPid(agent.pid, 10_000);
  if (endpoint) await drain(endpoint).catch(() => undefined);
  if (endpoint) execFileSync(script('containerd-down.sh'), [state], { stdio: 'ignore' });
  rmSync(root, { recursive: true, force: true });
});

const httpd = 'mkdir -p /www && echo ok > /www/ready && echo ok > /www/healthz && exec httpd -f -p 8080 -h /www';
const busybox = { image: 'localhost/busybox:latest', imagePullPolicy: 'IfNotPresent' };
const pod = (name: string, spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { terminationGracePeriodSeconds: 2, ...spec } });

describe('probes on containerd', { skip: endpoint ? false : 'containerd not available (needs root and the Debian packages)' }, () => {
  it('http/tcp/exec probes against real pod IPs', { timeout: 240_000 }, async () => {
    const dir = join(root, 'manifests');
    mkdirSync(dir);
    writeFileSync(join(dir, 'web.json'), pod('web', {
      containers: [{
        name: 'httpd', ...busybox, command: ['sh', '-c', httpd], ports: [{ name: 'http', containerPort: 8080 }],
        startupProbe: { tcpSocket: { port: 8080 }, periodSeconds: 1, failureThreshold: 30 },
        livenessProbe: { httpGet: { port: 'http', path: '/healthz' }, periodSeconds: 1, failureThreshold: 2 },
        readinessProbe: { httpGet: { port: 8080, path: '/ready' }, periodSeconds: 1, failureThreshold: 1 },
      }],
    }));
    writeFileSync(join(dir, 'mixed.json'), pod('mixed', {
      containers: [
        { name: 'closed', ...busybox, command: ['sleep', '3600'], readinessProbe: { tcpSocket: { port: 9999 }, periodSeconds: 1 } },
        { name: 'slow', ...busybox, command: ['sleep', '3600'], readinessProbe: { exec: { command: ['sleep', '30'] }, timeoutSeconds: 1, periodSeconds: 2 } },
        { name: 'quick', ...busybox, command: ['sleep', '3600'], readinessProbe: { exec: { command: ['true'] }, periodSeconds: 1 } },
      ],
    }));
    const [port, ro, hz] = [await freePort(), await freePort(), await freePort()];
    agent = spawn(process.execPath, ['--import', 'tsx', main,
      '--root-dir', join(root, 'agent'), '--pod-manifest-path', dir, '--node-name', 'ctd', '--port', String(port),
      '--read-only-port', String(ro), '--healthz-port', String(hz), '--file-check-frequency', '1s', '--address', '127.0.0.1',
      '--container-runtime-endpoint', endpoint!, '--crashloop-backoff-initial', '1s',
    ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } });
    const out = lineReader(agent);
    await out.waitForLine((l) => l.includes('"msg":"listening","server":"healthz"'), 'agent listening');
    const tls = {
      ca: readFileSync(join(root, 'agent', 'pki', 'ca.crt'), 'utf8'),
      cert: readFileSync(join(root, 'agent', 'pki', 'console.crt'), 'utf8'),
      key: readFileSync(join(root, 'agent', 'pki', 'console.key'), 'utf8'),
    };
    const cri = createCriClient(endpoint!);
    try {
      const get = async (name: string): Promise<V1Pod | undefined> =>
        (JSON.parse((await doRequest(`http://127.0.0.1:${ro}/pods`)).body).items as V1Pod[]).find((x) => x.metadata?.name === `${name}-ctd`);
      const cs = (x: V1Pod | undefined, c: string) => x?.status?.containerStatuses?.find((s) => s.name === c);
      const events = async (): Promise<K8sBusEvent[]> =>
        JSON.parse((await doRequest(`https://127.0.0.1:${port}/trpc/events.recent?input=${encodeURIComponent(JSON.stringify({ types: ['k8sEvent'], limit: 2000 }))}`, tls)).body).result.data;
      const exec = async (x: V1Pod | undefined, cmd: string) =>
        cri.execSync({ containerId: (cs(x, 'httpd')?.containerID ?? '').replace('containerd://', ''), cmd: ['sh', '-c', cmd], timeout: 5 });
      const until = <T>(what: string, fn: () => Promise<T | undefined>, ms = 90_000) => eventually(fn, ms, what);

      const web = await until('web ready', async () => { const w = await get('web'); return cs(w, 'httpd')?.ready ? w : undefined; });
      assert.match(web.status?.podIP ?? '', /^10\.88\./, 'a CNI address');
      assert.equal(cs(web, 'httpd')?.started, true);

      await exec(web, 'rm /www/ready');
      await until('web not ready', async () => (cs(await get('web'), 'httpd')?.ready === false ? true : undefined), 20_000);
      assert.equal((await get('web'))?.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'False');
      await exec(web, 'echo ok > /www/ready');
      await until('web ready again', async () => (cs(await get('web'), 'httpd')?.ready ? true : undefined), 20_000);

      await exec(web, 'rm /www/healthz');
      await until('web restarted', async () => ((cs(await get('web'), 'httpd')?.restartCount ?? 0) >= 1 ? true : undefined));
      const ev = await events();
      assert.ok(ev.some((e) => e.reason === 'Unhealthy' && e.message === 'Liveness probe failed: HTTP probe failed with statuscode: 404'), 'liveness Unhealthy');
      assert.ok(ev.some((e) => e.reason === 'Killing' && e.message === 'Container httpd failed liveness probe, will be restarted'));
      await until('web ready after restart', async () => (cs(await get('web'), 'httpd')?.ready ? true : undefined));

      const mixed = await until('quick ready', async () => { const m = await get('mixed'); return cs(m, 'quick')?.ready ? m : undefined; });
      const ip = mixed.status?.podIP ?? '';
      assert.match(ip, /^10\.88\./);
      const closed = await until('closed Unhealthy', async () => (await events()).find((e) => e.involvedObject.fieldPath === 'spec.containers{closed}' && e.reason === 'Unhealthy'));
      assert.equal(closed.message, `Readiness probe failed: dial tcp ${ip}:9999: connect: connection refused`);
      const slow = await until('slow Unhealthy', async () => (await events()).find((e) => e.involvedObject.fieldPath === 'spec.containers{slow}' && e.reason === 'Unhealthy'));
      assert.equal(slow.message, "Readiness probe failed: command 'sleep 30' timed out");
      assert.equal(cs(await get('mixed'), 'slow')?.ready, false);
    } finally {
      cri.close();
    }
  });
});
