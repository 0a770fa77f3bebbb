/**
 * API-server mode (the API server TEST DOUBLE, one real agent with its embedded runtime): the kubelet
 * behaviours of #19 that cross the API —
 * - upstream test/e2e/common/node/pod_admission.go "PodOSRejection [NodeConformance] Kubelet should reject pod
 *   when the node OS doesn't match pod's OS": Failed / PodOSNotSupported, with an event;
 * - upstream test/e2e/common/node/sysctl.go "should not launch unsafe, but not explicitly enabled sysctls on the
 *   node": Failed / SysctlForbidden, with an event;
 * - upstream test/e2e/common/node/pods.go "should allow activeDeadlineSeconds to be updated": a smaller deadline
 *   set through the API fails the running pod with DeadlineExceeded;
 * - a pod deleted through the API whose container never started (image never pulled) disappears (the status
 *   manager's TerminatePod + delete with grace 0), as the kubelet does; before #19 it stayed Terminating.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { ApiServerDouble } from '@nodelet/apiserver-double';
import { boundPod, startApiNode } from './testing/api-node.ts';
import { call, type NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';

const NODE = 'node-adm';
let api: ApiServerDouble;
let agent: NodeAgent;

const getPod = (name: string) => api.store.get('pods', 'default', name) as V1Pod | undefined;
const admin = () => ({ headers: { Authorization: `Bearer ${api.adminToken}` }, ca: api.ca });
const podUrl = (name: string) => `${api.url}/api/v1/namespaces/default/pods/${name}`;
const eventFor = (name: string, reason: string) =>
  api.store.list('events').find((e) => {
    const ev = e as { reason?: string; involvedObject?: { name?: string } };
    return ev.reason === reason && ev.involvedObject?.name === name;
  }) as { type?: string; message?: string } | undefined;

async function rejected(name: string, reason: string): Promise<V1Pod> {
  return eventually(async () => {
    const p = getPod(name);
    return p?.status?.phase === 'Failed' && p.status.reason === reason ? p : undefined;
  }, 30_000, `${name} Failed/${reason}`);
}

before(async () => {
  ({ api, agent } = await startApiNode(NODE, { staticPod: false }));
});

after(async () => {
  await agent?.cleanup();
  await api?.stop();
});

describe('admission and deletion through the API server', { timeout: 180_000 }, () => {
  it('spec.os.name windows: Failed / PodOSNotSupported, with the kubelet message and an event', async () => {
    const p = boundPod('os-windows', NODE);
    p.spec.os = { name: 'windows' };
    api.store.create(p);
    const got = await rejected('os-windows', 'PodOSNotSupported');
    assert.equal(got.status?.message, "Pod was rejected: Failed to admit pod as the OS field doesn't match node OS");
    const ev = await eventually(async () => eventFor('os-windows', 'PodOSNotSupported'), 15_000, 'PodOSNotSupported event');
    assert.deepEqual([ev.type, ev.message], ['Warning', "Failed to admit pod as the OS field doesn't match node OS"]);
  });

  it('an unsafe sysctl not allowed: Failed / SysctlForbidden; the pod never runs', async () => {
    const p = boundPod('sysctl-unsafe', NODE);
    p.spec.securityContext = { sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }, { name: 'kernel.shmmax', value: '100000000' }] };
    api.store.create(p);
    const got = await rejected('sysctl-unsafe', 'SysctlForbidden');
    assert.equal(got.status?.message, 'Pod was rejected: forbidden sysctl: "kernel.shmmax" not allowlisted');
    assert.equal(got.status?.containerStatuses?.some((c) => c.state?.running), undefined);
    await eventually(async () => eventFor('sysctl-unsafe', 'SysctlForbidden'), 15_000, 'SysctlForbidden event');
  });

  it('activeDeadlineSeconds lowered through the API: the running pod fails with DeadlineExceeded', async () => {
    const p = boundPod('deadline', NODE);
    p.spec.activeDeadlineSeconds = 3600;
    api.store.create(p);
    await eventually(async () => (getPod('deadline')?.status?.phase === 'Running' ? true : undefined), 60_000, 'deadline Running');
    const cur = (await call(podUrl('deadline'), admin())).body;
    const pod = JSON.parse(cur) as V1Pod;
    pod.spec!.activeDeadlineSeconds = 5;
    const put = await call(podUrl('deadline'), { ...admin(), method: 'PUT', body: pod });
    assert.equal(put.status, 200, put.body);
    const failed = await eventually(async () => {
      const s = getPod('deadline')?.status;
      return s?.phase === 'Failed' ? s : undefined;
    }, 60_000, 'deadline Failed');
    assert.deepEqual([failed.reason, failed.message], ['DeadlineExceeded', 'Pod was active on the node longer than the specified deadline']);
  });

  it('a pod whose container never started, deleted through the API, disappears', async () => {
    api.store.create(boundPod('never-started', NODE, { image: 'nodelet.local/never-pulled:latest', pullPolicy: 'Never' }));
    await eventually(async () => (getPod('never-started')?.status?.containerStatuses?.[0]?.state?.waiting?.reason ? true : undefined), 60_000, 'never-started waiting');
    const del = await call(podUrl('never-started'), { ...admin(), method: 'DELETE', body: { gracePeriodSeconds: 30 } });
    assert.equal(del.status, 200, del.body);
    await eventually(async () => (getPod('never-started') ? undefined : true), 30_000, 'never-started gone from the API');
  });
});
