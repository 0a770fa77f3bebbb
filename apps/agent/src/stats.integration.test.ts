/**
 * Stats and metrics against a real agent process with the embedded runtime: /stats/summary (full and
 * only_cpu_and_memory), every metrics path through `promtool check metrics` (exception list), a real Prometheus
 * scraping the read-only port, the cAdvisor REST API, the socket.io metrics stream, and as root the QoS cgroup
 * tree (created for a burstable pod, removed after the pod is deleted) and OOMKilled for a pod over its limit.
 * The agent runs under its own --cgroup-root so parallel agents on the host do not share a QoS tree.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { io as connect, type Socket } from 'socket.io-client';
import { unexpectedLint } from '@nodelet/core/testing';
import { canManageCgroups, cgroupDir, readCgroupFile, removeCgroupTree } from './testing/cgroups.ts';
import { doRequest } from './testing/https-client.ts';
import { eventually, freePort, lineReader, stopPid } from './testing/processes.ts';
import { hasPrometheus, startPrometheus } from './testing/prometheus.ts';
import { checkRootfsAndVolume, fillPod } from './testing/stats-fs-check.ts';
import { buildBusyboxOciLayout, pushToRegistry, startLoopbackRegistry, type LoopbackRegistry } from '@nodelet/runtime/testing';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'nodelet-stats-it-'));
const manifests = join(root, 'manifests');
const cgRoot = `/nodelet-it-${process.pid}`;
const asRoot = canManageCgroups();
const hasPromtool = spawnSync('promtool', ['--version']).status === 0;
const hasImageTools = ['umoci', 'skopeo', 'docker-registry'].every((b) => spawnSync('sh', ['-c', `command -v ${b}`]).status === 0);
let registry: LoopbackRegistry | undefined;
let agent: ChildProcess | undefined;
let socket: Socket | undefined;
let ports = { kubelet: 0, ro: 0 };
let tls = { ca: '', cert: '', key: '' };

const pod = (name: string, command: string, resources: string, extra = '') => `apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default }
spec:
${extra}  containers:
    - name: main
      image: nodelet.local/host:latest
      imagePullPolicy: Never
      command: ["sh", "-c", "${command}"]
      resources: ${resources}
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ro = async (path: string) => doRequest(`http://127.0.0.1:${ports.ro}${path}`);
const secure = async (path: string) => doRequest(`https://127.0.0.1:${ports.kubelet}${path}`, tls);
const json = async (r: Promise<{ status: number; body: string }>): Promise<Json> => {
  const res = await r;
  assert.equal(res.status, 200, res.body);
  return JSON.parse(res.body) as Json;
};
const podsOf = async () => (await json(ro('/pods'))).items as Json[];
const findPod = async (name: string) => (await podsOf()).find((p) => p.metadata.name === `${name}-itest`);

before(async () => {
  mkdirSync(manifests);
  writeFileSync(join(manifests, 'burst.yaml'), pod('burst', 'while true; do echo hi; sleep 1; done', '{ requests: { cpu: 100m, memory: 32Mi }, limits: { cpu: 500m, memory: 64Mi } }', '  terminationGracePeriodSeconds: 1\n'));
  const [port, roPort, hz] = [await freePort(), await freePort(), await freePort()];
  ports = { kubelet: port, ro: roPort };
  agent = spawn(process.execPath, ['--import', 'tsx', main,
    '--root-dir', root, '--pod-manifest-path', manifests, '--node-name', 'itest', '--address', '127.0.0.1',
    '--port', String(port), '--read-only-port', String(roPort), '--healthz-port', String(hz),
    '--file-check-frequency', '1s', '--housekeeping-interval', '1s', '--volume-stats-agg-period', '1s', '--cgroup-root', cgRoot,
  ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } });
  await lineReader(agent).waitForLine((l) => l.includes('"msg":"listening","server":"readonly"'), 'read-only port');
  const pki = (f: string) => readFileSync(join(root, 'pki', f), 'utf8');
  tls = { ca: pki('ca.crt'), cert: pki('console.crt'), key: pki('console.key') };
  await eventually(async () => ((await findPod('burst'))?.status?.phase === 'Running' ? true : undefined), 60_000, 'burst Running');
});

after(async () => {
  socket?.disconnect();
  await registry?.stop();
  if (agent?.pid && agent.exitCode === null) await stopPid(agent.pid, 5000);
  const pidFile = join(root, 'runtime', 'runtime.pid');
  if (existsSync(pidFile)) await stopPid(Number(readFileSync(pidFile, 'utf8').trim()));
  if (asRoot) removeCgroupTree(cgRoot);
  rmSync(root, { recursive: true, force: true });
});

describe('stats and metrics endpoints', () => {
  it('/stats/summary has the node and the pod with cpu and memory for pod and container', async () => {
    const s = await eventually(async () => {
      const sum = await json(ro('/stats/summary'));
      const p = (sum.pods as Json[]).find((x) => x.podRef.name === 'burst-itest');
      return p?.cpu && p.memory && p.containers?.[0]?.cpu && p.containers[0].memory ? sum : undefined;
    }, 30_000, 'pod stats with cpu and memory');
    assert.equal(s.node.nodeName, 'itest');
    for (const k of ['cpu', 'memory', 'fs', 'rlimit', 'systemContainers']) assert.ok(s.node[k], `node.${k}`);
    const p = (s.pods as Json[]).find((x) => x.podRef.name === 'burst-itest') as Json;
    assert.equal(p.containers[0].name, 'main');
    assert.ok(p.containers[0].memory.workingSetBytes > 0);
    assert.ok(p['ephemeral-storage'], 'ephemeral-storage');
    assert.ok(p.containers[0].logs, 'container logs fs');
    const only = await json(ro('/stats/summary?only_cpu_and_memory=true'));
    assert.equal(only.node.fs, undefined);
    const op = (only.pods as Json[]).find((x) => x.podRef.name === 'burst-itest') as Json;
    assert.ok(op.cpu && op.memory);
    assert.equal(op['ephemeral-storage'], undefined);
    assert.equal((await secure('/stats/summary')).status, 200);
    assert.equal((await doRequest(`https://127.0.0.1:${ports.kubelet}/stats/summary`, { ca: tls.ca })).status, 401);
    assert.equal((await doRequest(`http://127.0.0.1:${ports.ro}/stats/summary`, {}, 'POST')).status, 405);
  });

  it('every metrics path parses under promtool, lint-clean but for the exception list', { skip: hasPromtool ? false : 'promtool not installed' }, async () => {
    for (const path of ['/metrics', '/metrics/cadvisor', '/metrics/resource']) {
      const r = await ro(path);
      assert.equal(r.status, 200, path);
      const out = spawnSync('promtool', ['check', 'metrics'], { input: r.body, encoding: 'utf8' });
      assert.ok(out.status === 0 || out.status === 3, `${path}: promtool exit ${out.status}: ${out.stderr}`);
      assert.deepEqual(unexpectedLint(`${out.stdout}\n${out.stderr}`), [], path);
      assert.equal((await secure(path)).status, 200);
    }
    const k = (await ro('/metrics')).body;
    for (const m of ['kubelet_running_pods 1', 'kubelet_pod_start_duration_seconds_count', 'kubelet_runtime_operations_total{operation_type="run_podsandbox"}', 'kubelet_pleg_relist_duration_seconds_count']) {
      assert.ok(k.includes(m), m);
    }
    const c = (await ro('/metrics/cadvisor')).body;
    assert.match(c, /container_cpu_usage_seconds_total\{id="[^"]*\/kubepods\/burstable\/pod[^/"]+\/[0-9a-f]+",name="[0-9a-f]+",image="nodelet.local\/host:latest",pod="burst-itest",namespace="default",container="main"/);
    assert.match(c, /^machine_memory_bytes\{/m);
  });

  it('a real Prometheus scrapes the read-only port', { skip: hasPrometheus() ? false : 'prometheus not installed' }, async () => {
    const target = `127.0.0.1:${ports.ro}`;
    const prom = await startPrometheus([{ name: 'kubelet', target, path: '/metrics' }, { name: 'cadvisor', target, path: '/metrics/cadvisor' }, { name: 'resource', target, path: '/metrics/resource' }]);
    try {
      await eventually(async () => {
        const up = await prom.query('up');
        return up.length === 3 && up.every((r) => r.value[1] === '1') ? true : undefined;
      }, 30_000, 'up == 1 for all three jobs');
      const pods = await eventually(async () => (await prom.query('kubelet_running_pods'))[0], 10_000, 'kubelet_running_pods');
      assert.equal(pods.value[1], '1');
      assert.equal((await prom.query('container_memory_working_set_bytes{job="cadvisor",pod="burst-itest",container="main"}')).length, 1);
      assert.equal((await prom.query('pod_cpu_usage_seconds_total{job="resource",pod="burst-itest"}')).length, 1);
    } finally {
      await prom.stop();
    }
  });

  it('serves the cAdvisor REST API', async () => {
    const m = await json(secure('/api/v1.3/machine'));
    assert.ok(m.num_cores > 0 && m.memory_capacity > 0);
    const spec = await json(secure('/api/v2.0/spec/?recursive=true'));
    const key = Object.keys(spec).find((k) => /\/pod[^/]+\/[0-9a-f]+$/.test(k));
    assert.ok(key, `a container in ${Object.keys(spec).join(',')}`);
    assert.equal(spec[key].image, 'nodelet.local/host:latest');
    assert.equal(spec[key].labels['io.kubernetes.pod.name'], 'burst-itest');
    const stats = await json(secure(`/api/v2.0/stats${key}?count=2`));
    assert.ok(stats[key].length >= 1 && stats[key][0].has_cpu && stats[key][0].memory.working_set > 0);
    const c = await json(secure(`/api/v1.3/containers${key.slice(0, key.lastIndexOf('/'))}`));
    assert.deepEqual(c.subcontainers, [{ name: key }]);
    const ps = (await json(secure(`/api/v2.0/ps${key}`))) as unknown as Json[];
    assert.ok(ps.some((p) => /sleep|sh/.test(p.cmd)), JSON.stringify(ps));
    assert.equal((await ro('/api/v1.3/machine')).status, 404, 'not on the read-only port');
    const trpc = async (proc: string) => (await json(secure(`/trpc/${proc}`))).result.data;
    const tree = await trpc('stats.tree');
    assert.equal(tree.key, '/');
    const keys = JSON.stringify(tree);
    assert.ok(keys.includes(key), 'the container is in the tree');
    assert.equal((await trpc('stats.cgroups')).driver.length > 0, true);
  });

  it('streams samples over socket.io to subscribers only', async () => {
    socket = connect(`https://127.0.0.1:${ports.kubelet}`, { path: '/socket.io', transports: ['websocket'], reconnection: false, ...tls });
    const got: { key: string; sample: Json }[] = [];
    socket.on('nodelet:metrics', (m: { key: string; sample: Json }) => got.push(m));
    await new Promise<void>((resolve, reject) => {
      socket?.once('nodelet:hello', () => resolve());
      socket?.once('connect_error', reject);
    });
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(got.length, 0, 'nothing before subscribing');
    socket.emit('nodelet:metrics:subscribe', { keys: ['/'] });
    const first = await eventually(async () => got.find((m) => m.key === '/'), 10_000, 'a node sample');
    assert.ok(first.sample.cpu.usageNanoseconds > 0);
  });

  it('creates the QoS tree and pod cgroup, and removes it after the pod is deleted', { skip: asRoot ? false : 'needs root and writable cgroups' }, async () => {
    const p = await findPod('burst');
    const podCg = `${cgRoot}/kubepods/burstable/pod${p?.metadata.uid}`;
    for (const cg of [`${cgRoot}/kubepods`, `${cgRoot}/kubepods/burstable`, `${cgRoot}/kubepods/besteffort`, podCg]) assert.ok(existsSync(cgroupDir('memory', cg)), cg);
    assert.equal(readCgroupFile('cpu', podCg, 'cpu.shares'), '102');
    assert.equal(readCgroupFile('cpu', podCg, 'cpu.cfs_quota_us'), '50000');
    assert.equal(readCgroupFile('memory', podCg, 'memory.limit_in_bytes'), String(64 * 1024 * 1024));
    unlinkSync(join(manifests, 'burst.yaml'));
    await eventually(async () => (!existsSync(cgroupDir('memory', podCg)) && !existsSync(cgroupDir('cpu', podCg)) ? true : undefined), 60_000, 'pod cgroup removed');
  });

  it('measures a container\'s writable layer (rootfs, container_fs_usage_bytes) and an emptyDir volume', {
    skip: asRoot && hasImageTools ? false : 'needs root (overlayfs writable layer) and umoci, skopeo, docker-registry', timeout: 240_000,
  }, async () => {
    const work = join(root, 'images');
    registry = await startLoopbackRegistry(join(work, 'registry'));
    const image = await pushToRegistry(await buildBusyboxOciLayout(work), registry.host);
    writeFileSync(join(manifests, 'fill.json'), fillPod('fill', image, 12));
    await checkRootfsAndVolume({ ro, podName: 'fill-itest', rootDir: root, rootfsMiB: 12, volumeMiB: 5 });
    if (hasPromtool) {
      const out = spawnSync('promtool', ['check', 'metrics'], { input: (await ro('/metrics/cadvisor')).body, encoding: 'utf8' });
      assert.deepEqual(unexpectedLint(`${out.stdout}\n${out.stderr}`), [], 'container_fs_* lint-clean but for the exception list');
    }
  });

  it('reports OOMKilled for a container over its memory limit', { skip: asRoot ? false : 'needs root and writable cgroups' }, async () => {
    writeFileSync(join(manifests, 'oom.yaml'), pod('oom', 'head -c 400000000 /dev/zero | tail', '{ limits: { memory: 32Mi } }', '  restartPolicy: Never\n'));
    const st = await eventually(async () => (await findPod('oom'))?.status?.containerStatuses?.[0]?.state?.terminated, 60_000, 'oom container terminated');
    assert.equal(st.reason, 'OOMKilled');
    const trpc = async (proc: string, input: unknown) => (await json(secure(`/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`))).result.data;
    const got = await eventually(async () => {
      const r = await trpc('pods.get', { namespace: 'default', name: 'oom-itest' });
      return (r.events as Json[]).find((e) => e.reason === 'OOMKilling');
    }, 15_000, 'OOMKilling event from the kernel log');
    assert.equal(got.eventType, 'Warning');
    const uid = (await findPod('oom'))?.metadata.uid;
    const ooms = (await json(secure('/trpc/stats.ooms'))).result.data as Json[];
    assert.ok(ooms.some((o) => o.podUid === uid && o.containerId), JSON.stringify(ooms));
  });
});
