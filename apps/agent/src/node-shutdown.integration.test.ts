/**
 * Graceful node shutdown on the real agent (embedded runtime; the runtime does not matter here: the manager
 * only tells the pod workers, which kill as for any other reason), two ways in:
 * - systemd-logind over a REAL dbus-daemon (a private "system" bus) with the TEST LOGIND STAND-IN
 *   (testing/logind-standin.py): the agent takes the delay lock (shutdown / kubelet / the kubelet's why / delay),
 *   PrepareForShutdown(true) kills the regular static pod first, the critical one (spec.priority 2000000000)
 *   outlives it, both end Failed / Terminated, a pod added meanwhile is refused (NodeShutdown), and the lock is
 *   released once the critical group is done;
 * - --shutdown-on-sigterm: SIGTERM runs the same path, then the agent exits 0.
 * Upstream behaviour: pkg/kubelet/nodeshutdown (v1.28) and test/e2e_node/node_shutdown_linux_test.go.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { V1Pod } from '@kubernetes/client-node';
import { eventually, freePort, lineReader, stopPid, stopRuntimeOf } from './testing/processes.ts';
import { privateDbusMissing, startLogindStandin, startPrivateSystemBus, type LogindStandin, type PrivateBus } from './testing/private-dbus.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'nodelet-shutdown-it-'));
const agents: Array<{ proc: ChildProcess; rootDir: string }> = [];
let bus: PrivateBus | undefined;
let standin: LogindStandin | undefined;
const missing = privateDbusMissing();
if (missing && process.env.CI === 'true') throw new Error(`the node shutdown D-Bus test needs ${missing} under CI`);

after(async () => {
  for (const a of agents) {
    if (a.proc.pid && a.proc.exitCode === null) await stopPid(a.proc.pid, 5000);
    await stopRuntimeOf(a.rootDir);
  }
  await standin?.stop();
  await bus?.stop();
  rmSync(root, { recursive: true, force: true });
});

const CONFIG = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
shutdownGracePeriod: 20s
shutdownGracePeriodCriticalPods: 10s
authorization: { mode: AlwaysAllow }
`;

/** A pod that needs `stopSeconds` after SIGTERM to exit. */
const pod = (name: string, stopSeconds: number, priority?: number) => `apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default }
spec:
  terminationGracePeriodSeconds: 30
${priority !== undefined ? `  priority: ${priority}\n` : ''}  containers:
    - name: main
      image: nodelet.local/host:latest
      imagePullPolicy: Never
      command: ["sh", "-c", "trap 'sleep ${stopSeconds}; exit 0' TERM; while true; do sleep 0.2; done"]
`;

async function startAgent(name: string, env: Record<string, string>, extra: string[] = []) {
  const rootDir = join(root, name);
  const manifests = join(rootDir, 'manifests');
  mkdirSync(manifests, { recursive: true });
  writeFileSync(join(rootDir, 'config.yaml'), CONFIG);
  writeFileSync(join(manifests, 'regular.yaml'), pod('regular', 2));
  writeFileSync(join(manifests, 'critical.yaml'), pod('critical', 1, 2000000000));
  const [port, ro, hz] = [await freePort(), await freePort(), await freePort()];
  const proc = spawn(process.execPath, ['--import', 'tsx', main, '--config', join(rootDir, 'config.yaml'),
    '--root-dir', rootDir, '--pod-manifest-path', manifests, '--node-name', name,
    '--port', String(port), '--read-only-port', String(ro), '--healthz-port', String(hz),
    '--file-check-frequency', '1s', '--address', '127.0.0.1', ...extra,
  ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json', ...env } });
  agents.push({ proc, rootDir });
  const log = lineReader(proc);
  await log.waitForLine((l) => l.includes('"msg":"listening","server":"kubelet"'), 'kubelet listening');
  const pods = async (): Promise<Record<string, V1Pod>> => {
    const r = await fetch(`http://127.0.0.1:${ro}/pods`);
    const list = (await r.json()) as { items: V1Pod[] };
    // Static pods are named <name>-<node name>.
    return Object.fromEntries(list.items.map((p) => [(p.metadata?.name ?? '').replace(`-${name}`, ''), p]));
  };
  const running = () => eventually(async () => {
    const p = await pods();
    return p.regular?.status?.phase === 'Running' && p.critical?.status?.phase === 'Running' ? p : undefined;
  }, 60_000, 'both pods running');
  return { proc, log, pods, running, manifests };
}

/** Polls until both pods are Failed; returns what each poll saw (regular, critical phases). */
async function watchTermination(pods: () => Promise<Record<string, V1Pod>>): Promise<{ seen: string[]; last: Record<string, V1Pod> }> {
  const seen: string[] = [];
  const last = await eventually(async () => {
    const p = await pods();
    seen.push(`${p.regular?.status?.phase}/${p.critical?.status?.phase}`);
    return p.regular?.status?.phase === 'Failed' && p.critical?.status?.phase === 'Failed' ? p : undefined;
  }, 60_000, 'both pods Failed');
  return { seen, last };
}

function assertShutdownStatus(p: V1Pod | undefined) {
  assert.equal(p?.status?.phase, 'Failed');
  assert.equal(p?.status?.reason, 'Terminated');
  assert.equal(p?.status?.message, 'Pod was terminated in response to imminent node shutdown.');
  const c = p?.status?.conditions?.find((x) => x.type === 'DisruptionTarget');
  assert.equal(c?.reason, 'TerminationByKubelet');
  assert.equal(c?.status, 'True');
}

describe('graceful node shutdown', () => {
  it('through systemd-logind on a real D-Bus (test stand-in): lock, regular pods first, refusal, release', { skip: missing }, async () => {
    bus = await startPrivateSystemBus(mkdtempSync(join(root, 'bus-')));
    standin = await startLogindStandin(bus.address, 30_000_000);
    const a = await startAgent('logind-node', { DBUS_SYSTEM_BUS_ADDRESS: bus.address });
    const lock = await standin.waitFor((l) => l.startsWith('inhibit '), 'the delay lock');
    assert.equal(lock, 'inhibit 1 shutdown|kubelet|Kubelet needs time for critical node pods to terminate|delay');
    await a.running();

    standin.send('shutdown true');
    await a.log.waitForLine((l) => l.includes('Shutdown manager detected new shutdown event') && l.includes('"event":"shutdown"'), 'the shutdown event');
    writeFileSync(join(a.manifests, 'late.yaml'), pod('late', 0));
    const { seen, last } = await watchTermination(a.pods);
    assert.ok(seen.includes('Failed/Running'), `the critical pod outlives the regular one: ${seen.join(' ')}`);
    assert.ok(!seen.includes('Running/Failed'), `never the critical pod first: ${seen.join(' ')}`);
    assertShutdownStatus(last.regular);
    assertShutdownStatus(last.critical);

    await standin.waitFor((l) => l === 'released 1', 'the lock released');
    const late = await eventually(async () => ((await a.pods()).late?.status?.phase === 'Failed' ? (await a.pods()).late : undefined), 20_000, 'the late pod refused');
    assert.equal(late?.status?.reason, 'NodeShutdown');
    assert.equal(late?.status?.message, 'Pod was rejected: Pod was rejected as the node is shutting down.');

    // A cancelled shutdown: the lock is taken again.
    standin.send('shutdown false');
    await standin.waitFor((l) => l.startsWith('inhibit 2 '), 'the lock taken again after PrepareForShutdown(false)');
  });

  it('--shutdown-on-sigterm: SIGTERM terminates regular pods, then critical ones, then the agent exits', async () => {
    const a = await startAgent('sigterm-node', { DBUS_SYSTEM_BUS_ADDRESS: `unix:path=${join(root, 'no-bus')}` }, ['--shutdown-on-sigterm']);
    await a.running();
    const exited = new Promise<number | null>((r) => a.proc.once('exit', (code) => r(code)));
    a.proc.kill('SIGTERM');
    const { seen, last } = await watchTermination(a.pods);
    assert.ok(seen.includes('Failed/Running'), `the critical pod outlives the regular one: ${seen.join(' ')}`);
    assertShutdownStatus(last.regular);
    assertShutdownStatus(last.critical);
    assert.equal(await exited, 0);
    const order = a.log.lines.filter((l) => l.includes('Shutdown manager')).map((l) => (JSON.parse(l) as { msg: string; pod?: string }));
    assert.deepEqual(order.filter((o) => o.msg === 'Shutdown manager killing pod with gracePeriod').map((o) => o.pod), ['default/regular-sigterm-node', 'default/critical-sigterm-node']);
    assert.equal(order.at(-1)?.msg, 'Shutdown manager completed processing shutdown event, node will shutdown shortly');
  });
});
