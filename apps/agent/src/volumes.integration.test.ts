/**
 * Volumes end to end (root): an agent on the embedded runtime joined to the API server TEST DOUBLE runs a pod
 * with a configMap, a secret, an emptyDir shared by two containers, a Memory emptyDir (tmpfs) and the
 * kube-api-access projected volume (added by the double's ServiceAccount admission: TokenRequest token +
 * kube-root-ca.crt + namespace), env from a
 * configMapKeyRef. File contents are read from inside the container (its log, /containerLogs on
 * 10250); a configMap update reaches the mounted file within a sync; a missing configMap gives FailedMount
 * and the pod starts once it is created; an undeclared volume is a CreateContainerConfigError; the pod dir
 * and its tmpfs are gone after deletion; a static pod gets its emptyDir and may not reference a configMap.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { ApiServerDouble, KubeObject } from '@nodelet/apiserver-double';
import { kubeApiAccessVolume } from '@nodelet/apiserver-double';
import { boundPod, startApiNode, writeStaticPod } from './testing/api-node.ts';
import { call, type NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';

const NODE = 'node-vol';
// Not /var/run/secrets/...: the embedded runtime resolves mount points through host symlinks (/var/run -> /run)
// and creates them in bind-mounted host dirs, which would leave /run/secrets on the host.
const SA_DIR = '/serviceaccount';
const isRoot = process.getuid?.() === 0;

const STATIC = [
  'apiVersion: v1', 'kind: Pod', 'metadata: { name: stv, namespace: default }', 'spec:',
  '  volumes: [{ name: cache, emptyDir: {} }]', '  containers:',
  '    - name: main', '      image: nodelet.local/host:latest', '      imagePullPolicy: Never',
  '      volumeMounts: [{ name: cache, mountPath: /cache }]',
  `      command: ["sh", "-c", "echo static-data > /cache/f; trap 'exit 0' TERM; while true; do echo \\"static=$(cat /cache/f)\\"; sleep 1; done"]`, '',
].join('\n');

let api: ApiServerDouble;
let agent: NodeAgent;
const tls = () => ({ cert: readFileSync(join(agent.root, 'pki', 'console.crt'), 'utf8'), key: readFileSync(join(agent.root, 'pki', 'console.key'), 'utf8') });
const admin = () => ({ headers: { Authorization: `Bearer ${api.adminToken}` }, ca: api.ca });
const getPod = (name: string) => api.store.get('pods', 'default', name) as V1Pod | undefined;
const cm = (name: string, data: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data });
const b64 = (s: string) => Buffer.from(s).toString('base64');
const podDir = (uid: string) => join(agent.root, 'pods', uid);
const mountedUnder = (dir: string) => readFileSync('/proc/self/mountinfo', 'utf8').split('\n').some((l) => (l.split(' ')[4] ?? '').startsWith(dir));

async function logOf(pod: string, container: string, want: RegExp | string, timeoutMs = 60_000): Promise<string> {
  return eventually(async () => {
    const r = await call(`https://127.0.0.1:${agent.port}/containerLogs/default/${pod}/${container}`, tls());
    const lines = r.status === 200 ? r.body.trim().split('\n') : [];
    const last = lines.at(-1) ?? '';
    if (typeof want === 'string' ? last.includes(want) : want.test(last)) return last;
    const st = getPod(pod)?.status?.containerStatuses?.find((c) => c.name === container)?.state;
    throw new Error(`last log (${r.status}): ${last.slice(0, 300)}; state ${JSON.stringify(st)}`);
  }, timeoutMs, `${pod}/${container} log ${String(want)}`);
}

/** What the ServiceAccount admission adds (the test pods carry it themselves, mounted at SA_DIR). */
const kubeApiAccess = () => kubeApiAccessVolume('kube-api-access-x7k2p');

function volumesPod(): KubeObject {
  const p = boundPod('vols', NODE, { graceSeconds: 2 });
  const read = `while true; do echo "cfg=$(cat /etc/app/greeting) sec=$(cat /etc/sec/password) shared=$(cat /shared/hello) ns=$(cat ${SA_DIR}/namespace) ca=$(cat ${SA_DIR}/ca.crt) tok=$(cut -c1-3 ${SA_DIR}/token) env=$GREETING"; sleep 1; done`;
  p.spec.volumes = [
    { name: 'cfg', configMap: { name: 'app-config' } },
    { name: 'sec', secret: { secretName: 'app-secret', defaultMode: 0o400 } },
    { name: 'shared', emptyDir: {} },
    { name: 'mem', emptyDir: { medium: 'Memory', sizeLimit: '8Mi' } },
    kubeApiAccess(),
  ];
  p.spec.containers = [
    { name: 'writer', image: 'nodelet.local/host:latest', imagePullPolicy: 'Never', volumeMounts: [{ name: 'shared', mountPath: '/shared' }, { name: 'mem', mountPath: '/mem' }],
      command: ['sh', '-c', "echo from-writer > /shared/hello; echo in-memory > /mem/m; trap 'exit 0' TERM; while true; do sleep 1; done"] },
    { name: 'reader', image: 'nodelet.local/host:latest', imagePullPolicy: 'Never',
      env: [{ name: 'GREETING', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'greeting' } } }],
      volumeMounts: [{ name: 'cfg', mountPath: '/etc/app' }, { name: 'sec', mountPath: '/etc/sec' }, { name: 'shared', mountPath: '/shared', readOnly: true }, { name: 'kube-api-access-x7k2p', mountPath: SA_DIR, readOnly: true }],
      command: ['sh', '-c', `trap 'exit 0' TERM; ${read}`] },
  ];
  return p;
}

before(async () => {
  if (!isRoot) return;
  ({ api, agent } = await startApiNode(NODE, { staticPod: STATIC, args: () => ['--sync-frequency', '3s'] }));
  // automount off for "default" (see SA_DIR); "auto" keeps it on for the admission check on an unbound pod.
  api.store.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' }, automountServiceAccountToken: false });
  api.store.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'auto', namespace: 'default' } });
  api.store.create(cm('kube-root-ca.crt', { 'ca.crt': 'CA-PEM' }));
  api.store.create(cm('app-config', { greeting: 'v1' }));
  api.store.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'app-secret', namespace: 'default' }, type: 'Opaque', data: { password: b64('s3cret') } });
});

after(async () => {
  // Should a test fail before the pods are deleted, their tmpfs volumes are still mounted under the root.
  const left = agent ? readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((l) => l.split(' ')[4] ?? '').filter((m) => m.startsWith(`${agent.root}/`)) : [];
  for (const m of left.sort().reverse()) spawnSync('umount', ['-l', m]);
  await agent?.cleanup();
  await api?.stop();
});

describe('volumes: configMap, secret, emptyDir, projected kube-api-access', { skip: !isRoot && 'needs root', timeout: 240_000 }, () => {
  it('mounts every volume: contents seen from inside the containers, env from the configMap', async () => {
    api.store.create(volumesPod());
    const line = await logOf('vols', 'reader', 'shared=from-writer');
    assert.equal(line, 'cfg=v1 sec=s3cret shared=from-writer ns=default ca=CA-PEM tok=eyJ env=v1');
    const uid = getPod('vols')!.metadata!.uid!;
    const vols = join(podDir(uid), 'volumes');
    assert.deepEqual(readdirSync(vols).sort(), ['kubernetes.io~configmap', 'kubernetes.io~empty-dir', 'kubernetes.io~projected', 'kubernetes.io~secret']);
    assert.ok(existsSync(join(vols, 'kubernetes.io~configmap/cfg/..data/greeting')));
    assert.ok(mountedUnder(join(vols, 'kubernetes.io~empty-dir/mem')), 'Memory emptyDir is a tmpfs');
    assert.ok(mountedUnder(join(vols, 'kubernetes.io~secret/sec')), 'secret volumes are on a tmpfs');
    assert.equal(mountedUnder(join(vols, 'kubernetes.io~configmap/cfg')), false, 'configMap volumes are not');
    const tr = api.requests.find((r) => r.resource === 'serviceaccounts' && r.subresource === 'token');
    assert.ok(tr, 'a TokenRequest');
    assert.equal(tr.code, 201);
    assert.deepEqual((tr.body as { spec: { boundObjectRef: unknown } }).spec.boundObjectRef, { apiVersion: 'v1', kind: 'Pod', name: 'vols', uid });
  });

  it('the double\'s ServiceAccount admission adds kube-api-access to pods of a service account that automounts', () => {
    const unbound = boundPod('admitted', NODE);
    delete unbound.spec.nodeName;
    unbound.spec.serviceAccountName = 'auto';
    const p = api.store.create(unbound) as V1Pod;
    const v = p.spec?.volumes?.find((x) => x.name.startsWith('kube-api-access-'));
    assert.deepEqual({ ...v, name: 'kube-api-access-x7k2p' }, kubeApiAccess());
    assert.deepEqual(p.spec?.containers[0]?.volumeMounts, [{ name: v?.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    api.store.delete('pods', 'default', 'admitted', { gracePeriodSeconds: 0 });
  });

  it('a configMap update reaches the mounted file within a sync', async () => {
    const cur = api.store.get('configmaps', 'default', 'app-config')!;
    api.store.put({ ...cur, data: { greeting: 'v2' } });
    const line = await logOf('vols', 'reader', 'cfg=v2', 45_000);
    assert.match(line, /env=v1$/, 'env is fixed at container start');
  });

  it('a missing configMap: FailedMount, ContainerCreating, then the pod starts once it exists', async () => {
    const p = boundPod('late', NODE, { script: "trap 'exit 0' TERM; while true; do echo \"late=$(cat /cfg/k)\"; sleep 1; done" });
    p.spec.volumes = [{ name: 'cfg', configMap: { name: 'late-cfg' } }];
    (p.spec.containers as Array<Record<string, unknown>>)[0]!.volumeMounts = [{ name: 'cfg', mountPath: '/cfg' }];
    api.store.create(p);
    type Ev = { reason?: string; message?: string; involvedObject?: { name?: string } };
    const ev = await eventually(async () => (api.store.list('events') as Ev[]).find((e) => e.involvedObject?.name === 'late' && e.reason === 'FailedMount'), 30_000, 'FailedMount');
    assert.equal(ev.message, 'MountVolume.SetUp failed for volume "cfg" : configmap "late-cfg" not found');
    const waiting = getPod('late')?.status?.containerStatuses?.[0]?.state?.waiting;
    assert.equal(waiting?.reason, 'ContainerCreating');
    api.store.create(cm('late-cfg', { k: 'arrived' }));
    await logOf('late', 'c', 'late=arrived', 60_000);
  });

  it('a volumeMount of an undeclared volume is a CreateContainerConfigError', async () => {
    const p = boundPod('bad', NODE);
    (p.spec.containers as Array<Record<string, unknown>>)[0]!.volumeMounts = [{ name: 'nope', mountPath: '/nope' }];
    // A real API server refuses this pod (422 volumeMounts[0].name: Not found): the kubelet's own check is tested.
    api.store.createUnvalidated(p);
    const waiting = await eventually(async () => {
      const w = getPod('bad')?.status?.containerStatuses?.[0]?.state?.waiting;
      return w?.reason === 'CreateContainerConfigError' ? w : undefined;
    }, 30_000, 'CreateContainerConfigError');
    assert.equal(waiting.message, 'cannot find volume "nope" to mount into container "c"');
  });

  it('a static pod gets its emptyDir', async () => {
    await logOf('stv-node-vol', 'main', 'static=static-data');
    const dirs = readdirSync(join(agent.root, 'pods'));
    assert.ok(dirs.some((uid) => existsSync(join(agent.root, 'pods', uid, 'volumes/kubernetes.io~empty-dir/cache/f'))));
  });

  it('a static pod may not reference a configMap: FailedMount with the kubelet\'s refusal', async () => {
    const yaml = STATIC.replace('name: stv,', 'name: stc,').replace('{ name: cache, emptyDir: {} }', '{ name: cache, configMap: { name: app-config } }');
    writeStaticPod(agent.root, 'stc', yaml);
    type Ev = { reason?: string; message?: string; involvedObject?: { name?: string } };
    const ev = await eventually(async () => (api.store.list('events') as Ev[]).find((e) => e.involvedObject?.name === 'stc-node-vol' && e.reason === 'FailedMount'), 30_000, 'static FailedMount');
    assert.equal(ev.message, 'MountVolume.SetUp failed for volume "cache" : static pods may not reference configmaps');
    rmSync(join(agent.root, 'manifests', 'stc.yaml'));
  });

  it('the pod dir (and its tmpfs) is gone after the pod is deleted', async () => {
    const uid = getPod('vols')!.metadata!.uid!;
    for (const name of ['vols', 'late', 'bad']) {
      const del = await call(`${api.url}/api/v1/namespaces/default/pods/${name}`, { ...admin(), method: 'DELETE', body: { gracePeriodSeconds: 2 } });
      assert.equal(del.status, 200, del.body);
    }
    await eventually(async () => (getPod('vols') ? undefined : true), 60_000, 'vols removed');
    await eventually(async () => (existsSync(podDir(uid)) ? undefined : true), 30_000, 'pod dir removed');
    assert.equal(mountedUnder(podDir(uid)), false, 'no tmpfs left');
  });
});
