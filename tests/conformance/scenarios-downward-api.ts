// The downward API read from inside a container on the real agent. Our own test of what upstream checks in
// test/e2e/common/storage/downwardapi_volume.go and projected_downwardapi.go ("should provide podname only",
// "should set DefaultMode on files", "should set mode on item file", "should provide container's cpu/memory
// limit/request", "should provide node allocatable (cpu|memory) as default ... limit if the limit is not set") and
// test/e2e/common/node/downwardapi.go ("should provide container's limits.cpu/memory and requests.cpu/memory as
// env vars", "should provide default limits.cpu/memory from node allocatable", "should provide pod name,
// namespace and IP address as env vars", "should provide host IP as an env var", "should provide pod UID as env
// vars"). Label / annotation updates need the API server (not covered here; see docs/conformance.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { SuiteContext } from './suite-context.ts';
import { ctr, fullName, logs, NS, removePod, waitPod, writePod } from './pods.ts';
import { waitUntil } from '../../e2e/harness.ts';

const FILES = ['podname', 'labels', 'annotations', 'cpu_limit', 'cpu_request', 'memory_limit', 'memory_request', 'bare_cpu_limit', 'bare_memory_limit'];
const ENV = ['POD_NAME', 'POD_NAMESPACE', 'POD_UID', 'POD_IP', 'HOST_IP', 'APP', 'CPU_LIMIT', 'MEMORY_LIMIT', 'CPU_REQUEST', 'MEMORY_REQUEST', 'CPU_MILLI'];
const SCRIPT = [
  ...ENV.map((e) => `echo "env ${e}=$${e}"`),
  ...['podinfo', 'projected'].flatMap((d) => FILES.map((f) => `echo "${d} ${f}=$(cat /etc/${d}/${f} | tr '\\n' '|')"`)),
  ...['podinfo', 'projected'].map((d) => `echo "${d} mode=$(stat -L -c %A /etc/${d}/podname) $(stat -L -c %A /etc/${d}/labels)"`),
  'echo done; while true; do sleep 1; done',
].join('; ');

const items = [
  { path: 'podname', fieldRef: { fieldPath: 'metadata.name' }, mode: 0o400 },
  { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
  { path: 'annotations', fieldRef: { fieldPath: 'metadata.annotations' } },
  { path: 'cpu_limit', resourceFieldRef: { containerName: 'c', resource: 'limits.cpu' } },
  { path: 'cpu_request', resourceFieldRef: { containerName: 'c', resource: 'requests.cpu' } },
  { path: 'memory_limit', resourceFieldRef: { containerName: 'c', resource: 'limits.memory' } },
  { path: 'memory_request', resourceFieldRef: { containerName: 'c', resource: 'requests.memory' } },
  { path: 'bare_cpu_limit', resourceFieldRef: { containerName: 'bare', resource: 'limits.cpu' } },
  { path: 'bare_memory_limit', resourceFieldRef: { containerName: 'bare', resource: 'limits.memory', divisor: '1Mi' } },
];
const field = (name: string, fieldPath: string) => ({ name, valueFrom: { fieldRef: { fieldPath } } });
const res = (name: string, resource: string, divisor?: string) => ({ name, valueFrom: { resourceFieldRef: { resource, ...(divisor ? { divisor } : {}) } } });

export function defineDownwardApiScenarios(ctx: SuiteContext): void {
  describe('downward API', () => {
    it('env and volume / projected files: metadata, resources with divisors, node allocatable defaults, file modes', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'dapi', {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 1,
        volumes: [
          { name: 'podinfo', downwardAPI: { defaultMode: 0o440, items } },
          { name: 'projected', projected: { defaultMode: 0o440, sources: [{ downwardAPI: { items } }] } },
        ],
        containers: [
          ctr('c', rt.image, SCRIPT, {
            resources: { requests: { cpu: '250m', memory: '32Mi' }, limits: { cpu: '1250m', memory: '64Mi' } },
            volumeMounts: [{ name: 'podinfo', mountPath: '/etc/podinfo' }, { name: 'projected', mountPath: '/etc/projected' }],
            env: [
              field('POD_NAME', 'metadata.name'),
              field('POD_NAMESPACE', 'metadata.namespace'),
              field('POD_UID', 'metadata.uid'),
              field('POD_IP', 'status.podIP'),
              field('HOST_IP', 'status.hostIP'),
              field('APP', "metadata.labels['app']"),
              res('CPU_LIMIT', 'limits.cpu'),
              res('MEMORY_LIMIT', 'limits.memory'),
              res('CPU_REQUEST', 'requests.cpu'),
              res('MEMORY_REQUEST', 'requests.memory'),
              res('CPU_MILLI', 'limits.cpu', '1m'),
            ],
          }),
          ctr('bare', rt.image, `echo "CPU_LIMIT=$CPU_LIMIT MEMORY_LIMIT=$MEMORY_LIMIT"; while true; do sleep 1; done`, { env: [res('CPU_LIMIT', 'limits.cpu'), res('MEMORY_LIMIT', 'limits.memory')] }),
        ],
      }, { labels: { app: 'dapi', tier: 'x' }, annotations: { builder: 'bar' } });
      const p = await waitPod(a, 'dapi', 'running', (x) => (x.status?.containerStatuses ?? []).filter((s) => s.state?.running).length === 2).catch((e: unknown) => {
        const lines = a.logTail(200_000).split('\n').filter((l) => /dapi|downward|resource/i.test(l));
        throw new Error(`${String(e)}\nagent log:\n${lines.slice(-10).join('\n')}`);
      });
      let out = '';
      await waitUntil('c printed everything', async () => {
        out = (await logs(a, 'dapi', 'c')).body;
        return out.includes('done\n');
      }, 30_000);
      const got = new Map(out.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as [string, string]));
      const name = fullName(a, 'dapi');
      const want: Record<string, string> = {
        'env POD_NAME': name,
        'env POD_NAMESPACE': NS,
        'env POD_UID': p.metadata?.uid ?? '',
        'env POD_IP': p.status?.podIP ?? '',
        'env HOST_IP': p.status?.hostIP ?? '',
        'env APP': 'dapi',
        'env CPU_LIMIT': '2',
        'env MEMORY_LIMIT': '67108864',
        'env CPU_REQUEST': '1',
        'env MEMORY_REQUEST': '33554432',
        'env CPU_MILLI': '1250',
      };
      for (const d of ['podinfo', 'projected']) {
        Object.assign(want, {
          [`${d} podname`]: name, // the kubelet writes the value without a newline
          [`${d} cpu_limit`]: '2',
          [`${d} cpu_request`]: '1',
          [`${d} memory_limit`]: '67108864',
          [`${d} memory_request`]: '33554432',
        });
        assert.match(got.get(`${d} labels`) ?? '', /app="dapi"\|tier="x"/, `${d} labels`);
        assert.match(got.get(`${d} annotations`) ?? '', /builder="bar"/, `${d} annotations`);
        // mode on the item file (0400) and the defaultMode (0440) on the others
        assert.equal(got.get(`${d} mode`), '-r-------- -r--r-----', `${d} file modes`);
        // no limit on "bare": node allocatable (upstream: "[1-9]"), at most the machine
        const cpu = Number(got.get(`${d} bare_cpu_limit`)?.replace('|', ''));
        const mem = Number(got.get(`${d} bare_memory_limit`)?.replace('|', ''));
        assert.ok(cpu >= 1 && cpu <= cpus().length, `${d} bare_cpu_limit ${cpu}`);
        assert.ok(mem >= 1 && mem <= totalmem() / 2 ** 20, `${d} bare_memory_limit ${mem} Mi`);
      }
      for (const [k, v] of Object.entries(want)) assert.equal(got.get(k), v, k);
      const bare = (await logs(a, 'dapi', 'bare')).body;
      assert.match(bare, /^CPU_LIMIT=[1-9]\d* MEMORY_LIMIT=[1-9]\d*\n/, 'env limits default to node allocatable');
      removePod(a, 'dapi');
      // The tmpfs-backed volumes go with the pod (housekeeping's orphaned-volume cleanup).
      const dir = join(a.rootDir, 'pods', p.metadata?.uid ?? '');
      await waitUntil('dapi volumes torn down', async () => !existsSync(dir), 90_000);
    });
  });
}
