/**
 * Probes end to end on containerd (root only; skipped when scripts/containerd-up.sh cannot start one): isolated
 * busybox pods with real CNI addresses. httpd serves /ready and /healthz files that the test removes/creates over
 * CRI ExecSync: a readiness flip seen on /pods, a liveness failure restarting the container, startup (tcp)
 * gating, a closed port's connection error with the pod IP, a hung exec timing out at timeoutSeconds while the
 * pod's other probe keeps running. gRPC: the host's node binary (and the libraries it links), mounted into a
 * busybox pod through hostPath volumes, serves grpc.health.v1 (testing/probe-server.cjs, passed inline): a
 * readiness flip (service "") and a liveness failure (service "live") restarting the container. A hostNetwork
 * busybox pod gets the node's IP as its pod IP (containerd reports none) and its httpGet/tcp probes pass.
 * Under CI=true a missing containerd is a failure, not a skip.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { dirname } from 'node:path';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { V1Pod } from '@kubernetes/client-node';
import { createCriClient } from '@nodelet/core/cri';
import type { K8sBusEvent } from '@nodelet/core/events';
import { doRequest } from './testing/https-client.ts';
import { eventually, freePort, lineReader, stopPid } from './testing/processes.ts';
import { privateContainerd } from './testing/private-containerd.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'nodelet-probes-ctd-'));
const state = join(root, 'containerd');

const ctd = privateContainerd(state);
const endpoint = ctd.endpoint;
if (!endpoint && process.env.CI === 'true') throw new Error(`probes on containerd: ${ctd.reason} under CI (needs root and the Debian packages)`);
let agent: ChildProcess | undefined;
const manifestDir = join(root, 'manifests');
mkdirSync(manifestDir);
interface Agent { port: number; ro: number; tls: { ca: string; cert: string; key: string } }
let started: Promise<Agent> | undefined;

/** One agent for every test of the file, watching manifestDir (tests add and remove their manifests). */
function startAgent(): Promise<Agent> {
  return (started ??= (async () => {
    const [port, ro, hz] = [await freePort(), await freePort(), await freePort()];
    agent = spawn(process.execPath, ['--import', 'tsx', main,
      '--root-dir', join(root, 'agent'), '--pod-manifest-path', manifestDir, '--node-name', 'ctd', '--port', String(port),
      '--read-only-port', String(ro), '--healthz-port', String(hz), '--file-check-frequency', '1s', '--address', '127.0.0.1',
      '--container-runtime-endpoint', endpoint!, '--crashloop-backoff-initial', '1s',
    ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } });
    await lineReader(agent).waitForLine((l) => l.includes('"msg":"listening","server":"healthz"'), 'agent listening');
    const pki = (f: string) => readFileSync(join(root, 'agent', 'pki', f), 'utf8');
    return { port, ro, tls: { ca: pki('ca.crt'), cert: pki('console.crt'), key: pki('console.key') } };
  })());
}

const getPod = async (a: Agent, name: string): Promise<V1Pod | undefined> =>
  (JSON.parse((await doRequest(`http://127.0.0.1:${a.ro}/pods`)).body).items as V1Pod[]).find((x) => x.metadata?.name === `${name}-ctd`);
const statusOf = (x: V1Pod | undefined, c: string) => x?.status?.containerStatuses?.find((s) => s.name === c);
const recentEvents = async (a: Agent): Promise<K8sBusEvent[]> =>
  JSON.parse((await doRequest(`https://127.0.0.1:${a.port}/trpc/events.recent?input=${encodeURIComponent(JSON.stringify({ types: ['k8sEvent'], limit: 2000 }))}`, a.tls)).body).result.data;

after(async () => {
  if (agent?.pid && agent.exitCode === null) await stopPid(agent.pid, 10_000);
  await ctd.down();
  rmSync(root, { recursive: true, force: true });
});

// The host's node and the directories of the libraries it links (ldd), for busybox pods through hostPath.
const nodeBin = process.execPath;
const nodeVolumes = [nodeBin, ...execFileSync('ldd', [nodeBin], { encoding: 'utf8' }).split('\n').map((l) => /(\/\S+) \(0x/.exec(l)?.[1]).filter((x): x is string => !!x)]
  .map((p, i) => ({ name: `node${i}`, path: i === 0 ? p : dirname(p) }))
  .filter((v, i, all) => all.findIndex((w) => w.path === v.path) === i);
// Inline: a checkout under /tmp is not visible inside containers.
const probeServer = readFileSync(fileURLToPath(new URL('./testing/probe-server.cjs', import.meta.url)), 'utf8');
const httpd = 'mkdir -p /www && echo ok > /www/ready && echo ok > /www/healthz && exec httpd -f -p 8080 -h /www';
const busybox = { image: 'localhost/busybox:latest', imagePullPolicy: 'IfNotPresent' };
const pod = (name: string, spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { terminationGracePeriodSeconds: 2, ...spec } });

describe('probes on containerd', { skip: endpoint ? false : 'containerd not available (needs root and the Debian packages)' }, () => {
  it('http/tcp/exec probes against real pod IPs', { timeout: 240_000 }, async () => {
    const dir = manifestDir;
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
    const a = await startAgent();
    const cri = createCriClient(endpoint!);
    try {
      const get = (name: string) => getPod(a, name);
      const cs = statusOf;
      const events = () => recentEvents(a);
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
      // The next test's pods get the node to themselves.
      for (const f of ['web.json', 'mixed.json']) rmSync(join(dir, f), { force: true });
    }
  });

  it('grpc readiness flip and liveness restart against a real server; hostNetwork pods probe the node IP', { timeout: 240_000 }, async () => {
    writeFileSync(join(manifestDir, 'grpc.json'), pod('grpc', {
      volumes: nodeVolumes.map((v) => ({ name: v.name, hostPath: { path: v.path } })),
      containers: [{
        name: 'health', ...busybox, command: [nodeBin, '-e', probeServer], env: [{ name: 'GRPC_PORT', value: '50051' }],
        volumeMounts: nodeVolumes.map((v) => ({ name: v.name, mountPath: v.path, readOnly: true })),
        // node may take seconds to listen on a loaded machine: startup holds the other two back until then
        startupProbe: { grpc: { port: 50051, service: 'ok' }, periodSeconds: 1, failureThreshold: 120 },
        readinessProbe: { grpc: { port: 50051 }, periodSeconds: 1, failureThreshold: 1 },
        livenessProbe: { grpc: { port: 50051, service: 'live' }, periodSeconds: 1, failureThreshold: 2 },
      }],
    }));
    const hostPort = await freePort();
    writeFileSync(join(manifestDir, 'hostweb.json'), pod('hostweb', {
      hostNetwork: true,
      containers: [{
        name: 'httpd', ...busybox, command: ['sh', '-c', `mkdir -p /www && echo ok > /www/ready && exec httpd -f -p ${hostPort} -h /www`],
        readinessProbe: { httpGet: { port: hostPort, path: '/ready' }, periodSeconds: 1 },
        livenessProbe: { tcpSocket: { port: hostPort }, periodSeconds: 1 },
      }],
    }));
    const a = await startAgent();
    const cri = createCriClient(endpoint!);
    const until = <T>(what: string, fn: () => Promise<T | undefined>, ms = 90_000) => eventually(fn, ms, what);
    const ready = (name: string, c: string) => async () => (statusOf(await getPod(a, name), c)?.ready ? await getPod(a, name) : undefined);
    try {
      const host = await until('hostweb ready', ready('hostweb', 'httpd'));
      const nodeIps = Object.values(networkInterfaces()).flat().map((x) => x?.address);
      assert.ok(host.status?.podIP && nodeIps.includes(host.status.podIP), `hostNetwork pod IP ${host.status?.podIP} is a node address`);
      assert.equal(host.status?.podIP, host.status?.hostIP, 'a hostNetwork pod has the node IP');
      assert.deepEqual(host.status?.podIPs, [{ ip: host.status?.hostIP }]);

      const g = await until('grpc ready', ready('grpc', 'health'));
      assert.match(g.status?.podIP ?? '', /^10\.88\./);
      assert.equal(g.status?.hostIP, host.status?.hostIP, 'hostIP on every pod');
      const kill = (sig: string) => cri.execSync({ containerId: (statusOf(g, 'health')?.containerID ?? '').replace('containerd://', ''), cmd: ['kill', `-${sig}`, '1'], timeout: 5 });
      const unhealthy = (message: string) => async () => (await recentEvents(a)).find((e) => e.involvedObject.name === 'grpc-ctd' && e.reason === 'Unhealthy' && e.message === message);
      assert.equal(statusOf(g, 'health')?.restartCount, 0);

      await kill('HUP'); // service "" → NOT_SERVING
      await until('grpc not ready', async () => (statusOf(await getPod(a, 'grpc'), 'health')?.ready === false ? true : undefined), 30_000);
      await until('readiness Unhealthy', unhealthy('Readiness probe failed: service unhealthy (responded with "NOT_SERVING")'));
      await kill('HUP');
      await until('grpc ready again', ready('grpc', 'health'), 30_000);

      await kill('USR2'); // service "live" → NOT_SERVING
      await until('grpc restarted', async () => ((statusOf(await getPod(a, 'grpc'), 'health')?.restartCount ?? 0) >= 1 ? true : undefined));
      await until('liveness Unhealthy', unhealthy('Liveness probe failed: service unhealthy (responded with "NOT_SERVING")'));
      assert.ok((await recentEvents(a)).some((e) => e.reason === 'Killing' && e.message === 'Container health failed liveness probe, will be restarted'));
      await until('grpc ready after restart', ready('grpc', 'health'));
    } finally {
      cri.close();
    }
  });
});
