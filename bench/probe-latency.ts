// bench/probe-latency: how fast a readiness flip travels. A hostNetwork pod (apps/agent/src/testing/probe-server.cjs)
// with an httpGet readiness probe (periodSeconds 1, failureThreshold 1); the bench flips /ready N times and
// measures, from the start of the probe run that saw the flip (probe event time − its latency):
//   run            the probe run itself (HTTP GET on the pod)
//   → status       the status manager's new version (podStatus event stamp, server clock)
//   → /pods        GET /pods on the read-only port shows the container's ready flag flipped (polled every 5 ms)
//   → socket.io    a socket.io client on 10250 (console certificate) receives the probe event
// and, for scale, flip → socket.io (includes waiting for the next period). Same host, same clock.
// On containerd (root, `--runtime containerd|both`): an isolated busybox httpd pod on its CNI address, /ready
// flipped over CRI ExecSync.
// Usage: node --import tsx bench/probe-latency.ts [--runs N] [--runtime embedded|containerd|both]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createCriClient } from '@nodelet/core/cri';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import type { NodeletEvent, PodStatusBusEvent, ProbeBusEvent } from '@nodelet/core/events';
import { freePort, repoRoot, startStack, waitUntil, type Stack } from '../e2e/harness.ts';
import { fmtMs, percentile, table } from './stats.ts';

const RUNS = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 30;
const SERVER = join(repoRoot, 'apps/agent/src/testing/probe-server.cjs');

interface Sample {
  run: number;
  status: number;
  pods: number;
  socket: number;
  flipToSocket: number;
}

interface Target {
  name: string;
  agentArgs: string[];
  /** The pod's container (and how to reach its /ready). */
  container(httpPort: number): Record<string, unknown>;
  hostNetwork: boolean;
  flip(stack: Stack, httpPort: number, ready: boolean): Promise<void>;
  stop(): Promise<void>;
}

function manifest(t: Target, httpPort: number): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'probe', namespace: 'bench' },
    spec: { hostNetwork: t.hostNetwork, terminationGracePeriodSeconds: 1, containers: [t.container(httpPort)] },
  });
}

const readiness = (port: number) => ({ httpGet: { port, path: '/ready' }, periodSeconds: 1, failureThreshold: 1 });

const embedded: Target = {
  name: 'embedded',
  agentArgs: [],
  hostNetwork: true,
  container: (httpPort) => ({
    name: 'server',
    image: 'nodelet.local/host:latest',
    imagePullPolicy: 'Never',
    command: ['node', '-e', readFileSync(SERVER, 'utf8')],
    env: [{ name: 'HTTP_PORT', value: String(httpPort) }],
    readinessProbe: readiness(httpPort),
  }),
  flip: async (_stack, httpPort, ready) => void (await fetch(`http://127.0.0.1:${httpPort}/set?ready=${ready ? 1 : 0}`)),
  stop: async () => {},
};

function containerd(): Target | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const state = mkdtempSync(join(tmpdir(), 'nodelet-bench-probe-ctd-'));
  let endpoint: string;
  try {
    const out = execFileSync(join(repoRoot, 'scripts/containerd-up.sh'), [state], { encoding: 'utf8' });
    endpoint = /^ENDPOINT=(.*)$/m.exec(out)?.[1] ?? '';
  } catch (e) {
    console.error(`containerd not available: ${String(e)}`);
    rmSync(state, { recursive: true, force: true });
    return undefined;
  }
  const cri = createCriClient(endpoint);
  return {
    name: 'containerd',
    agentArgs: ['--container-runtime-endpoint', endpoint],
    hostNetwork: false,
    container: () => ({
      name: 'server',
      image: 'localhost/busybox:latest',
      imagePullPolicy: 'IfNotPresent',
      command: ['sh', '-c', 'mkdir -p /www && echo ok > /www/ready && exec httpd -f -p 8080 -h /www'],
      readinessProbe: readiness(8080),
    }),
    flip: async (stack, _port, ready) => {
      const r = await fetch(`${stack.readOnlyUrl}/pods`);
      const body = (await r.json()) as { items: Array<{ metadata: { name: string }; status?: { containerStatuses?: Array<{ containerID?: string }> } }> };
      const id = body.items.find((p) => p.metadata.name === `probe-${stack.nodeName}`)?.status?.containerStatuses?.[0]?.containerID ?? '';
      await cri.execSync({ containerId: id.replace(/^.*:\/\//, ''), cmd: ['sh', '-c', ready ? 'echo ok > /www/ready' : 'rm -f /www/ready'], timeout: 5 });
    },
    stop: async () => {
      for (const sb of (await cri.listPodSandbox({}).catch(() => ({ items: [] }))).items ?? []) {
        await cri.stopPodSandbox({ podSandboxId: sb.id }).catch(() => undefined);
        await cri.removePodSandbox({ podSandboxId: sb.id }).catch(() => undefined);
      }
      cri.close();
      execFileSync(join(repoRoot, 'scripts/containerd-down.sh'), [state]);
    },
  };
}

async function readyOnPods(stack: Stack): Promise<boolean | undefined> {
  const r = await fetch(`${stack.readOnlyUrl}/pods`);
  const body = (await r.json()) as { items: Array<{ metadata: { name: string }; status?: { containerStatuses?: Array<{ ready: boolean }> } }> };
  return body.items.find((p) => p.metadata.name === `probe-${stack.nodeName}`)?.status?.containerStatuses?.[0]?.ready;
}

async function measure(stack: Stack, t: Target, httpPort: number): Promise<Sample[]> {
  const pki = join(stack.rootDir, 'pki');
  const received: Array<{ e: NodeletEvent; at: number }> = [];
  const socket = io(`https://127.0.0.1:${stack.ports.kubelet}`, {
    path: '/socket.io',
    transports: ['websocket'],
    ca: readFileSync(join(pki, 'ca.crt'), 'utf8'),
    cert: readFileSync(join(pki, 'console.crt'), 'utf8'),
    key: readFileSync(join(pki, 'console.key'), 'utf8'),
  });
  socket.on('nodelet:event', (e: NodeletEvent) => received.push({ e, at: Date.now() }));
  await new Promise<void>((resolve, reject) => {
    socket.once('nodelet:hello', () => resolve());
    socket.once('connect_error', reject);
  });
  socket.emit('nodelet:subscribe', { namespace: 'bench', types: ['probe', 'podStatus'] });
  const samples: Sample[] = [];
  try {
    await waitUntil(`${t.name}: pod ready`, async () => (await readyOnPods(stack)) === true, 90_000);
    for (let i = 0; i < RUNS; i++) {
      const want = i % 2 === 1;
      const mark = received.length;
      const flipAt = Date.now();
      await t.flip(stack, httpPort, want);
      let podsAt = NaN;
      for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 5))) {
        if ((await readyOnPods(stack)) === want) {
          podsAt = Date.now();
          break;
        }
      }
      for (const end = Date.now() + 5_000; Date.now() < end && !findFlip(received.slice(mark), want); ) await new Promise((r) => setTimeout(r, 5));
      if (!findFlip(received.slice(mark), want)) throw new Error(`flip ${i}: no probe/podStatus events on the socket`);
      const f = findFlip(received.slice(mark), want)!;
      const runStart = Date.parse(f.probe.e.time) - f.probe.e.latencyMs;
      samples.push({
        run: f.probe.e.latencyMs,
        status: Date.parse(f.status.time) - runStart,
        pods: podsAt - runStart,
        socket: f.probe.at - runStart,
        flipToSocket: f.probe.at - flipAt,
      });
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 400));
    }
  } finally {
    socket.disconnect();
  }
  return samples;
}

function findFlip(list: Array<{ e: NodeletEvent; at: number }>, want: boolean) {
  const probe = list.find((x): x is { e: ProbeBusEvent; at: number } => x.e.type === 'probe' && x.e.result === (want ? 'success' : 'failure'));
  const status = list.map((x) => x.e).find((e): e is PodStatusBusEvent => e.type === 'podStatus' && e.containers[0]?.ready === want);
  return probe && status ? { probe, status } : undefined;
}

async function benchTarget(t: Target): Promise<string[][]> {
  const stack = await startStack({ nodeName: 'bench', withConsole: false, extraAgentArgs: t.agentArgs });
  let samples: Sample[] = [];
  try {
    const httpPort = await freePort();
    writeFileSync(join(stack.manifests, 'probe.json'), manifest(t, httpPort));
    samples = await measure(stack, t, httpPort);
  } finally {
    await stack.stop();
  }
  const col = (label: string, pick: (s: Sample) => number) => {
    const v = samples.map(pick);
    return [t.name, label, fmtMs(percentile(v, 50)), fmtMs(percentile(v, 99)), fmtMs(Math.max(...v))];
  };
  return [
    col('run done (probe latency)', (s) => s.run),
    col('status manager new version', (s) => s.status),
    col('GET /pods shows it (5 ms poll)', (s) => s.pods),
    col('socket.io client receives event', (s) => s.socket),
    col('(flip → socket.io, incl. period wait)', (s) => s.flipToSocket),
  ];
}

async function main(): Promise<void> {
  const which = process.argv.includes('--runtime') ? process.argv[process.argv.indexOf('--runtime') + 1] : 'embedded';
  const makers: Array<() => Target | undefined> = [];
  if (which === 'embedded' || which === 'both') makers.push(() => embedded);
  if (which === 'containerd' || which === 'both') makers.push(containerd);
  const rows: string[][] = [];
  for (const make of makers) {
    const t = make();
    if (!t) continue;
    try {
      rows.push(...(await benchTarget(t)));
    } finally {
      await t.stop();
    }
  }
  console.log(`\nprobe latency: readiness httpGet flips (${RUNS} per runtime), from the start of the probe run that saw the flip`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}\n`);
  console.log(table(['runtime', 'from probe run start to', 'p50', 'p99', 'max'], rows));
}

await main();
