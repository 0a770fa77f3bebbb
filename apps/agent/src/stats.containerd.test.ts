/**
 * Stats on containerd (root): a busybox container burning CPU under a 200m limit shows that usage in
 * /stats/summary (0 < usageNanoCores ≲ limit) and in /metrics/cadvisor with pod/namespace/container labels; a
 * memory hog over its limit is OOMKilled and its OOMKilling event appears; a container writing 12 MiB into its
 * root filesystem shows them as rootfs usage (containerd's CRI writable_layer) and an emptyDir volume is
 * measured. containerd's cgroups are `<pod cgroup>/<container id>` (the sandbox is `<pod cgroup>/<sandbox id>`).
 * Skipped with what to install when containerd cannot start, except under CI=true where that is a failure.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { removeCgroupTree } from './testing/cgroups.ts';
import { privateContainerd } from './testing/private-containerd.ts';
import { doRequest } from './testing/https-client.ts';
import { eventually, freePort, lineReader, stopPid } from './testing/processes.ts';
import { checkRootfsAndVolume, fillPod } from './testing/stats-fs-check.ts';

const PACKAGES = 'containerd runc containernetworking-plugins busybox-static catatonit umoci skopeo docker-registry';
const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'nodelet-stats-ctd-'));
const state = join(root, 'containerd');
const manifests = join(root, 'manifests');
const cgRoot = `/nodelet-ctd-it-${process.pid}`;

const ctd = privateContainerd(state);
const endpoint = ctd.endpoint;
if (!endpoint && process.env.CI === 'true') {
  await ctd.down();
  rmSync(root, { recursive: true, force: true });
  throw new Error(`containerd stats test: containerd cannot start (${ctd.reason}); apt-get install -y ${PACKAGES}`);
}
const skip = endpoint ? false : `containerd not available (${ctd.reason}): run as root with Debian's ${PACKAGES}`;

let agent: ChildProcess | undefined;
let ports = { kubelet: 0, ro: 0 };
let tls = { ca: '', cert: '', key: '' };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ro = async (path: string) => doRequest(`http://127.0.0.1:${ports.ro}${path}`);
const json = async (r: Promise<{ status: number; body: string }>): Promise<Json> => {
  const res = await r;
  assert.equal(res.status, 200, res.body);
  return JSON.parse(res.body) as Json;
};
const findPod = async (name: string) => ((await json(ro('/pods'))).items as Json[]).find((p) => p.metadata.name === `${name}-ctdstats`);

const pod = (name: string, command: string, limits: Record<string, string>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      terminationGracePeriodSeconds: 1,
      ...extra,
      containers: [{ name: 'main', image: 'localhost/busybox:latest', imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', command], resources: { limits } }],
    },
  });

before(async () => {
  if (!endpoint) return;
  mkdirSync(manifests);
  writeFileSync(join(manifests, 'burn.json'), pod('burn', 'trap "exit 0" TERM; while :; do :; done', { cpu: '200m', memory: '64Mi' }));
  const [port, roPort, hz] = [await freePort(), await freePort(), await freePort()];
  ports = { kubelet: port, ro: roPort };
  agent = spawn(process.execPath, ['--import', 'tsx', main,
    '--root-dir', join(root, 'agent'), '--pod-manifest-path', manifests, '--node-name', 'ctdstats', '--address', '127.0.0.1',
    '--port', String(port), '--read-only-port', String(roPort), '--healthz-port', String(hz),
    '--file-check-frequency', '1s', '--housekeeping-interval', '1s', '--volume-stats-agg-period', '1s', '--cgroup-root', cgRoot,
    '--container-runtime-endpoint', endpoint,
  ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } });
  await lineReader(agent).waitForLine((l) => l.includes('"msg":"listening","server":"readonly"'), 'read-only port');
  const pki = (f: string) => readFileSync(join(root, 'agent', 'pki', f), 'utf8');
  tls = { ca: pki('ca.crt'), cert: pki('console.crt'), key: pki('console.key') };
  await eventually(async () => ((await findPod('burn'))?.status?.phase === 'Running' ? true : undefined), 90_000, 'burn Running');
});

after(async () => {
  if (agent?.pid && agent.exitCode === null) await stopPid(agent.pid, 10_000);
  await ctd.down();
  if (process.getuid?.() === 0) removeCgroupTree(cgRoot);
  rmSync(root, { recursive: true, force: true });
});

describe('stats on containerd', { skip }, () => {
  it('a container burning CPU under a 200m limit shows that usage in /stats/summary and /metrics/cadvisor', { timeout: 120_000 }, async () => {
    const c = await eventually(async () => {
      const s = await json(ro('/stats/summary'));
      const p = (s.pods as Json[]).find((x) => x.podRef.name === 'burn-ctdstats');
      const main = (p?.containers as Json[] | undefined)?.find((x) => x.name === 'main');
      return main?.cpu?.usageNanoCores > 50_000_000 ? main : undefined;
    }, 60_000, 'burn usageNanoCores > 50m');
    assert.ok(c.cpu.usageNanoCores <= 300_000_000, `usageNanoCores ${c.cpu.usageNanoCores} within the 200m limit (+ sampling slack)`);
    assert.ok(c.cpu.usageCoreNanoSeconds > 0);
    assert.ok(c.memory.workingSetBytes > 0);
    const uid = (await findPod('burn'))?.metadata.uid as string;
    const body = (await ro('/metrics/cadvisor')).body;
    const line = body.split('\n').find((l) => l.startsWith('container_cpu_usage_seconds_total{') && l.includes('pod="burn-ctdstats"') && l.includes('container="main"'));
    assert.ok(line, 'container_cpu_usage_seconds_total for burn/main');
    assert.match(line, new RegExp(`id="${cgRoot}/kubepods/(burstable/)?pod${uid}/[0-9a-f]{64}"`));
    assert.match(line, /namespace="default"/);
    assert.match(line, /image="localhost\/busybox:latest"/);
    assert.ok(Number(line.slice(line.lastIndexOf(' ') + 1)) > 0);
    // The same container over the cAdvisor REST API, per core where the host has cgroup v1's cpuacct.
    const key = /id="([^"]+)"/.exec(line)?.[1] as string;
    const get = async (p: string) => json(doRequest(`https://127.0.0.1:${ports.kubelet}${p}`, tls));
    const v1 = await get(`/api/v1.3/containers${key}`);
    const last = (v1.stats as Json[]).at(-1) as Json;
    assert.ok(last.cpu.usage.total > 0);
    if (existsSync('/sys/fs/cgroup/cpuacct/cpuacct.usage_percpu')) {
      const perCpu = last.cpu.usage.per_cpu_usage as number[];
      assert.equal(perCpu.length, (await get('/api/v1.3/machine')).num_cores);
      assert.ok(Math.abs(perCpu.reduce((a, b) => a + b, 0) - last.cpu.usage.total) <= last.cpu.usage.total * 0.05, 'per-core sums to the total');
    }
    assert.equal((await doRequest(`https://127.0.0.1:${ports.kubelet}/api/v2.0/stats${key}/nope`, tls)).status, 404);
    const quota = body.split('\n').find((l) => l.startsWith('container_spec_cpu_quota{') && l.includes('pod="burn-ctdstats"') && l.includes('container="main"'));
    if (quota) assert.equal(Number(quota.slice(quota.lastIndexOf(' ') + 1)), 20_000);
  });

  it('the writable layer containerd reports (CRI writable_layer) is rootfs and container_fs_usage_bytes; an emptyDir volume shows', { timeout: 240_000 }, async () => {
    writeFileSync(join(manifests, 'fill.json'), fillPod('fill', 'localhost/busybox:latest', 12));
    await checkRootfsAndVolume({ ro, podName: 'fill-ctdstats', rootDir: join(root, 'agent'), rootfsMiB: 12, volumeMiB: 5 });
  });

  it('a memory hog over its limit is OOMKilled and the OOMKilling event appears', { timeout: 120_000 }, async () => {
    writeFileSync(join(manifests, 'oom.json'), pod('oom', 'dd if=/dev/zero of=/dev/null bs=200M count=1', { memory: '32Mi' }, { restartPolicy: 'Never' }));
    const st = await eventually(async () => (await findPod('oom'))?.status?.containerStatuses?.[0]?.state?.terminated as Json | undefined, 90_000, 'oom container terminated');
    assert.equal(st.reason, 'OOMKilled');
    const secure = async (p: string) => json(doRequest(`https://127.0.0.1:${ports.kubelet}${p}`, tls));
    const got = await eventually(async () => {
      const r = (await secure(`/trpc/pods.get?input=${encodeURIComponent(JSON.stringify({ namespace: 'default', name: 'oom-ctdstats' }))}`)).result.data;
      return (r.events as Json[]).find((e) => e.reason === 'OOMKilling');
    }, 20_000, 'OOMKilling event from the kernel log');
    assert.equal(got.eventType, 'Warning');
    const uid = (await findPod('oom'))?.metadata.uid;
    const ooms = (await secure('/trpc/stats.ooms')).result.data as Json[];
    assert.ok(ooms.some((o) => o.podUid === uid && o.containerId), JSON.stringify(ooms));
  });
});
