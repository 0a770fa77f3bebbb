/**
 * The agent as an unprivileged user (setpriv to nobody) with the embedded runtime: cgroups are not writable, so
 * there is no QoS tree (logged once) and pod/container cpu and memory come from the runtime's /proc-based CRI
 * stats; /stats/summary and /metrics/cadvisor still answer.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cgroupDir } from './testing/cgroups.ts';
import { doRequest } from './testing/https-client.ts';
import { eventually, freePort, lineReader, stopPid } from './testing/processes.ts';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const repo = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const NOBODY = 65534;
const canDrop = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'nodelet-nonroot-it-'));
const cgRoot = `/nodelet-nr-${process.pid}`;
let agent: ChildProcess | undefined;

after(async () => {
  if (agent?.pid && agent.exitCode === null) await stopPid(agent.pid, 5000);
  const pidFile = join(dir, 'root', 'runtime', 'runtime.pid');
  if (existsSync(pidFile)) await stopPid(Number(readFileSync(pidFile, 'utf8').trim()));
  rmSync(dir, { recursive: true, force: true });
});

describe('unprivileged agent', { skip: canDrop ? false : 'needs root to drop to nobody with setpriv' }, () => {
  it('degrades: no QoS tree, logged once, pod stats from the runtime', async () => {
    const manifests = join(dir, 'manifests');
    mkdirSync(manifests);
    writeFileSync(join(manifests, 'p.yaml'), `apiVersion: v1
kind: Pod
metadata: { name: np, namespace: default }
spec:
  terminationGracePeriodSeconds: 1
  containers:
    - name: main
      image: nodelet.local/host:latest
      imagePullPolicy: Never
      command: ["sh", "-c", "x=$(seq 1 20000); sleep 3600"]
      resources: { limits: { memory: 64Mi } }
`);
    for (const p of [dir, manifests, join(manifests, 'p.yaml')]) chownSync(p, NOBODY, NOBODY);
    const [port, ro, hz] = [await freePort(), await freePort(), await freePort()];
    agent = spawn('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, '--import', 'tsx', main,
      '--root-dir', join(dir, 'root'), '--pod-manifest-path', manifests, '--node-name', 'nr', '--address', '127.0.0.1',
      '--port', String(port), '--read-only-port', String(ro), '--healthz-port', String(hz),
      '--file-check-frequency', '1s', '--housekeeping-interval', '1s', '--volume-stats-agg-period', '1s', '--cgroup-root', cgRoot,
    ], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, HOME: dir, NODELET_LOG_FORMAT: 'json' } });
    const out = lineReader(agent);
    await out.waitForLine((l) => l.includes('"msg":"listening","server":"readonly"'), 'read-only port');
    const pod = await eventually(async () => {
      const s = JSON.parse((await doRequest(`http://127.0.0.1:${ro}/stats/summary`)).body);
      const p = s.pods.find((x: { podRef: { name: string } }) => x.podRef.name === 'np-nr');
      return p?.containers?.[0]?.memory?.workingSetBytes > 0 && p.memory ? p : undefined;
    }, 60_000, 'container memory from the runtime');
    assert.ok(pod.containers[0].cpu.usageCoreNanoSeconds >= 0);
    assert.equal(existsSync(cgroupDir('memory', cgRoot)), false, 'no QoS tree created');
    assert.equal(out.lines.filter((l) => l.includes('cgroups not manageable here')).length, 1);
    const cad = (await doRequest(`http://127.0.0.1:${ro}/metrics/cadvisor`)).body;
    assert.match(cad, /container_memory_working_set_bytes\{[^}]*pod="np-nr",namespace="default",container="main"\} [1-9]/);
  });
});
