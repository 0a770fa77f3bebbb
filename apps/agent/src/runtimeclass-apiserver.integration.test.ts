/**
 * API-server mode (the API server TEST DOUBLE, one real agent with its embedded runtime), #15 item 4: RuntimeClass
 * as a cluster does it — the admission plugin copies the class's overhead into the pod, the kubelet
 * (pkg/kubelet/runtimeclass) reads node.k8s.io/v1 RuntimeClass objects for the handler it passes to
 * RunPodSandbox, and adds the overhead to the pod's cgroup; a class deleted after the pod was admitted fails the
 * sandbox (FailedCreatePodSandBox, `runtimeclass.node.k8s.io "x" not found`), the pod stays Pending, the other
 * pod is undisturbed, and the pod starts once the class exists again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { ApiServerDouble } from '@nodelet/apiserver-double';
import { createCriClient, type CriClient } from '@nodelet/core/cri';
import { boundPod, startApiNode, testCgroupRoot } from './testing/api-node.ts';
import { call, type NodeAgent } from './testing/cluster-node.ts';
import { canManageCgroups, readCgroupFile } from './testing/cgroups.ts';
import { eventually } from './testing/processes.ts';

const NODE = 'node-rc';
let api: ApiServerDouble;
let agent: NodeAgent;
let cri: CriClient;

const getPod = (name: string) => api.store.get('pods', 'default', name) as V1Pod | undefined;
const admin = () => ({ headers: { Authorization: `Bearer ${api.adminToken}` }, ca: api.ca });
const runtimeClass = (name: string, handler: string, podFixed?: Record<string, string>) => ({
  apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, handler, ...(podFixed ? { overhead: { podFixed } } : {}),
});
const eventFor = (name: string, reason: string) =>
  api.store.list('events').find((e) => {
    const ev = e as { reason?: string; involvedObject?: { name?: string } };
    return ev.reason === reason && ev.involvedObject?.name === name;
  }) as { type?: string; message?: string } | undefined;
const running = (name: string) => eventually(async () => (getPod(name)?.status?.phase === 'Running' ? getPod(name) : undefined), 90_000, `${name} Running`);
const sandboxOf = async (uid: string) => (await cri.listPodSandbox({})).items.find((s) => s.metadata?.uid === uid && s.state === 'SANDBOX_READY');

before(async () => {
  ({ api, agent } = await startApiNode(NODE, { staticPod: false }));
  cri = createCriClient(`unix://${agent.root}/runtime/nodelet.sock`, { timeoutMs: 10_000 });
});

after(async () => {
  cri?.close();
  await agent?.cleanup();
  await api?.stop();
});

describe('RuntimeClass through the API server', { timeout: 240_000 }, () => {
  it('a known class: its handler in RunPodSandbox (a user namespace of the pod own), its overhead in the pod cgroup', async () => {
    api.store.create(runtimeClass('sandboxed', 'userns', { cpu: '100m', memory: '64Mi' }));
    const p = boundPod('rc-run', NODE, { resources: { limits: { cpu: '200m', memory: '64Mi' } } });
    p.spec.runtimeClassName = 'sandboxed';
    const made = api.store.create(p) as V1Pod;
    assert.deepEqual(made.spec?.overhead, { cpu: '100m', memory: '64Mi' }, 'the admission plugin set the overhead');
    await running('rc-run');
    const uid = made.metadata!.uid!;
    const sb = await sandboxOf(uid);
    assert.equal(sb?.runtimeHandler, 'userns');
    const c = (await cri.listContainers({ filter: { podSandboxId: sb!.id } })).containers[0]!;
    const map = await cri.execSync({ containerId: c.id, cmd: ['cat', '/proc/self/uid_map'], timeout: 10 });
    assert.equal(map.stdout.toString().trim().split(/\s+/).join(' '), process.getuid?.() === 0 ? '0 0 1' : `0 ${process.getuid?.()} 1`);
    if (canManageCgroups()) {
      // Guaranteed: /kubepods/pod<uid>; 64Mi of limits + 64Mi of overhead, 200m + 100m of CFS quota.
      const podCg = `${testCgroupRoot(NODE)}/kubepods/pod${uid}`;
      assert.equal(readCgroupFile('memory', podCg, 'memory.limit_in_bytes'), String(128 * 2 ** 20));
      assert.equal(readCgroupFile('cpu', podCg, 'cpu.cfs_quota_us'), '30000');
    }
  });

  it('a class deleted after admission: FailedCreatePodSandBox, Pending with the reason; starts once the class is back', async () => {
    api.store.create(runtimeClass('gone', 'runc'));
    const p = boundPod('rc-gone', NODE);
    delete p.spec.nodeName;
    p.spec.runtimeClassName = 'gone';
    const uid = (api.store.create(p) as V1Pod).metadata!.uid!;
    const del = await call(`${api.url}/apis/node.k8s.io/v1/runtimeclasses/gone`, { ...admin(), method: 'DELETE' });
    assert.equal(del.status, 200, del.body);
    const bind = await call(`${api.url}/api/v1/namespaces/default/pods/rc-gone/binding`, { ...admin(), method: 'POST', body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'rc-gone' }, target: { kind: 'Node', name: NODE } } });
    assert.equal(bind.status, 201, bind.body);
    const ev = await eventually(async () => eventFor('rc-gone', 'FailedCreatePodSandBox'), 60_000, 'FailedCreatePodSandBox event');
    assert.deepEqual([ev.type, ev.message], ['Warning', 'Failed to create pod sandbox: runtimeclass.node.k8s.io "gone" not found']);
    const pending = await eventually(async () => (getPod('rc-gone')?.status?.containerStatuses?.[0]?.state?.waiting?.message ? getPod('rc-gone') : undefined), 30_000, 'the waiting message');
    assert.equal(pending.status?.phase, 'Pending');
    assert.deepEqual(pending.status?.containerStatuses?.[0]?.state, { waiting: { reason: 'ContainerCreating', message: `Failed to create sandbox for pod "rc-gone_default(${uid})": runtimeclass.node.k8s.io "gone" not found` } });
    assert.ok(agent.lines.some((l) => l.includes('CreatePodSandbox for pod failed') && l.includes('default/rc-gone') && l.includes('CreatePodSandboxError')), 'a log line names the pod and the reason');
    assert.equal(getPod('rc-run')?.status?.phase, 'Running', 'the other pod is undisturbed');
    api.store.create(runtimeClass('gone', 'runc'));
    await running('rc-gone');
    assert.equal((await sandboxOf(uid))?.runtimeHandler, 'runc');
  });
});
