/**
 * Probes of an isolated pod (no hostNetwork) on the embedded runtime, which runs the CNI bridge plugin itself as
 * root: the pod gets a 10.89.x.y address, its httpGet readiness, tcp liveness and grpc (service "ok") startup
 * probes pass against testing/probe-server.cjs inside the pod, a readiness flip is seen on /pods, and a closed
 * port's failure names the pod IP. hostIP is the node's. Needs root and containernetworking-plugins: skipped
 * without, failed under CI=true.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { V1Pod } from '@kubernetes/client-node';
import { findCniBinDir } from '@nodelet/runtime';
import { doRequest } from './testing/https-client.ts';
import { eventually, freePort, lineReader, stopPid, stopRuntimeOf } from './testing/processes.ts';

const why = process.getuid?.() !== 0 ? 'needs root' : !findCniBinDir() ? 'needs containernetworking-plugins (bridge, host-local)' : '';
if (why && process.env.CI === 'true') throw new Error(`probes on the embedded pod network cannot run under CI: ${why}`);

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
// Inline: the container's /tmp is its own tmpfs, a checkout under /tmp is invisible inside it.
const server = ['-e', readFileSync(fileURLToPath(new URL('./testing/probe-server.cjs', import.meta.url)), 'utf8')];
const root = mkdtempSync(join(tmpdir(), 'nodelet-probes-podnet-'));
let agent: ChildProcess | undefined;

after(async () => {
  if (agent?.pid && agent.exitCode === null) await stopPid(agent.pid, 5000);
  await stopRuntimeOf(root);
  rmSync(root, { recursive: true, force: true });
});

const host = { image: 'nodelet.local/host:latest', imagePullPolicy: 'Never' };
const env = (o: Record<string, number>) => Object.entries(o).map(([name, v]) => ({ name, value: String(v) }));

describe('probes of an isolated pod on the embedded runtime', { skip: why || false }, () => {
  it('httpGet / tcp / grpc against the pod IP', { timeout: 180_000 }, async () => {
    const dir = join(root, 'manifests');
    mkdirSync(dir);
    // Fixed ports: the pod has its own network namespace.
    writeFileSync(join(dir, 'isolated.json'), JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'iso', namespace: 'default' },
      spec: {
        terminationGracePeriodSeconds: 2,
        containers: [
          {
            name: 'server', ...host, command: ['node', ...server], env: env({ HTTP_PORT: 8080, TCP_PORT: 8081, GRPC_PORT: 8082 }),
            ports: [{ name: 'http', containerPort: 8080 }],
            startupProbe: { grpc: { port: 8082, service: 'ok' }, periodSeconds: 1, failureThreshold: 30 },
            livenessProbe: { tcpSocket: { port: 8081 }, periodSeconds: 1 },
            readinessProbe: { httpGet: { port: 'http', path: '/ready' }, periodSeconds: 1, failureThreshold: 1 },
          },
          { name: 'closed', ...host, command: ['sleep', '3600'], readinessProbe: { tcpSocket: { port: 9999 }, periodSeconds: 1 } },
        ],
      },
    }));
    const [port, ro, hz] = [await freePort(), await freePort(), await freePort()];
    agent = spawn(process.execPath, ['--import', 'tsx', main,
      '--root-dir', root, '--pod-manifest-path', dir, '--node-name', 'pn', '--port', String(port),
      '--read-only-port', String(ro), '--healthz-port', String(hz), '--file-check-frequency', '1s', '--address', '127.0.0.1',
    ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } });
    await lineReader(agent).waitForLine((l) => l.includes('"msg":"listening","server":"healthz"'), 'agent listening');
    const get = async (): Promise<V1Pod | undefined> =>
      (JSON.parse((await doRequest(`http://127.0.0.1:${ro}/pods`)).body).items as V1Pod[]).find((x) => x.metadata?.name === 'iso-pn');
    const cs = (x: V1Pod | undefined, c: string) => x?.status?.containerStatuses?.find((s) => s.name === c);
    const until = <T>(what: string, fn: () => Promise<T | undefined>, ms = 90_000) => eventually(fn, ms, what);

    const pod = await until('server ready', async () => { const p = await get(); return cs(p, 'server')?.ready ? p : undefined; });
    const ip = pod.status?.podIP ?? '';
    assert.match(ip, /^10\.89\.\d+\.\d+$/, 'a bridge address from the embedded runtime');
    assert.equal(cs(pod, 'server')?.started, true, 'grpc startup probe passed');
    assert.ok(pod.status?.hostIP && pod.status.hostIP !== ip, 'hostIP is the node, not the pod');
    // The server is reachable from the host at the pod IP (the probes go the same way).
    assert.equal((await doRequest(`http://${ip}:8080/ready`)).body, 'ready');

    // readiness flip over the pod IP
    await doRequest(`http://${ip}:8080/set?ready=0`);
    await until('server not ready', async () => (cs(await get(), 'server')?.ready === false ? true : undefined), 20_000);
    await doRequest(`http://${ip}:8080/set?ready=1`);
    await until('server ready again', async () => (cs(await get(), 'server')?.ready ? true : undefined), 20_000);
    assert.equal(cs(await get(), 'server')?.restartCount, 0, 'tcp liveness kept passing');
    const tls = {
      ca: readFileSync(join(root, 'pki', 'ca.crt'), 'utf8'),
      cert: readFileSync(join(root, 'pki', 'console.crt'), 'utf8'),
      key: readFileSync(join(root, 'pki', 'console.key'), 'utf8'),
    };
    const refused = await until('closed Unhealthy', async () => {
      const ev = JSON.parse((await doRequest(`https://127.0.0.1:${port}/trpc/events.recent?input=${encodeURIComponent(JSON.stringify({ types: ['k8sEvent'], limit: 500 }))}`, tls)).body).result.data as Array<{ reason: string; message: string; involvedObject: { fieldPath?: string } }>;
      return ev.find((e) => e.reason === 'Unhealthy' && e.involvedObject.fieldPath === 'spec.containers{closed}');
    });
    assert.equal(refused.message, `Readiness probe failed: dial tcp ${ip}:9999: connect: connection refused`);
  });
});
