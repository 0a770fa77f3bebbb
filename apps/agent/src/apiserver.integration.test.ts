/**
 * API-server mode end to end: an API server TEST DOUBLE (@nodelet/apiserver-double, not kube-apiserver) and two
 * real agent processes (node-a, node-b: own root dirs, ports and embedded runtimes) joined to it with
 * --kubeconfig (client certificate for node-a, bearer token for node-b). Checks registration (Node + Lease),
 * that each node runs exactly the pods bound to it, statuses reaching the API, graceful deletion (the kubelet
 * removes the pod with grace 0), the static pod's mirror pod, logs through the API server's pods/log proxy,
 * Webhook authn/authz on 10250, a SIGKILL restart that neither duplicates nor loses pods, and a stopped node's
 * lease running out (the double has no node-lifecycle controller: we assert that the lease is no longer renewed
 * and that renewTime + leaseDurationSeconds has passed, which is what makes the controller mark it NotReady).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { V1Lease, V1Node, V1Pod } from '@kubernetes/client-node';
import { startApiServerDouble, type ApiServerDouble } from '@nodelet/apiserver-double';
import { boundPod, staticPodYaml, writeStaticPod } from './testing/api-node.ts';
import { call, nodeAgent, type NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';

const LEASE_SECONDS = 6;
let api: ApiServerDouble;
let a: NodeAgent;
let b: NodeAgent;
const viewerToken = 'viewer-token-0123456789';

const staticPod = staticPodYaml('st', { script: "trap 'exit 0' TERM; echo static up; while true; do sleep 1; done" });
const pod = (name: string, node: string, text: string) => boundPod(name, node, { graceSeconds: 5, script: `trap 'exit 0' TERM; echo ${text}; while true; do sleep 1; done` });

const admin = () => ({ headers: { Authorization: `Bearer ${api.adminToken}` }, ca: api.ca });
const getPod = (name: string) => api.store.get('pods', 'default', name) as V1Pod | undefined;
const getNode = (name: string) => api.store.get('nodes', '', name) as V1Node | undefined;
const getLease = (name: string) => api.store.get('leases', 'kube-node-lease', name, 'coordination.k8s.io') as V1Lease | undefined;
const running = (name: string) => {
  const p = getPod(name);
  return p?.status?.phase === 'Running' && p.status.containerStatuses?.[0]?.state?.running ? p : undefined;
};

before(async () => {
  api = await startApiServerDouble({ kubeletPreferredAddressTypes: ['InternalIP'], tokens: { [viewerToken]: { username: 'viewer', groups: ['viewers'] } } });
  const caFile = join(api.kubeconfigFor('x').replace(/x\.kubeconfig$/, ''), 'cluster-ca.crt');
  writeFileSync(caFile, api.ca);
  const config = (root: string) => {
    const f = join(root, 'kubelet-config.yaml');
    writeFileSync(f, `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeLeaseDurationSeconds: ${LEASE_SECONDS}\nnodeStatusUpdateFrequency: 2s\nfileCheckFrequency: 1s\n`);
    return f;
  };
  a = await nodeAgent('node-a', (root) => {
    const manifests = writeStaticPod(root, 'st', staticPod);
    return ['--config', config(root), '--kubeconfig', api.kubeconfigFor('node-a', { auth: 'cert', path: join(root, 'kubeconfig') }), '--node-ip', '127.0.0.1',
      '--client-ca-file', caFile, '--authorization-mode', 'Webhook', '--authentication-token-webhook', '--pod-manifest-path', manifests, '--node-labels', 'tier=a', '--cgroups-per-qos=false'];
  });
  b = await nodeAgent('node-b', (root) => ['--config', config(root), '--kubeconfig', api.kubeconfigFor('node-b', { auth: 'token', path: join(root, 'kubeconfig') }),
    '--node-ip', '127.0.0.1', '--client-ca-file', caFile, '--authorization-mode', 'AlwaysAllow', '--cgroups-per-qos=false']);
  await Promise.all([a.start(), b.start()]);
});

after(async () => {
  await Promise.all([a?.cleanup(), b?.cleanup()]);
  await api?.stop();
});

describe('API-server mode: two agents, one API server double', { timeout: 170_000 }, () => {
  it('each agent registers its Node (labels, addresses, capacity, nodeInfo, Ready) and its Lease', async () => {
    for (const n of [a, b]) {
      const node = await eventually(async () => (getNode(n.name)?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True' ? getNode(n.name) : undefined), 30_000, `${n.name} Ready`);
      const labels = node.metadata?.labels ?? {};
      assert.equal(labels['kubernetes.io/hostname'], n.name);
      assert.equal(labels['kubernetes.io/os'], 'linux');
      assert.ok(labels['kubernetes.io/arch']);
      const st = node.status!;
      assert.deepEqual(st.addresses?.map((x) => x.type), ['InternalIP', 'Hostname']);
      assert.equal(st.daemonEndpoints?.kubeletEndpoint?.Port, n.port);
      for (const r of ['cpu', 'memory', 'ephemeral-storage', 'pods']) assert.ok(st.capacity?.[r] && st.allocatable?.[r], r);
      assert.match(st.nodeInfo?.containerRuntimeVersion ?? '', /^[\w.-]+:\/\/.+/);
      assert.match(st.nodeInfo?.kubeletVersion ?? '', /^v1\./);
      assert.deepEqual(st.conditions?.map((c) => `${c.type}=${c.status}:${c.reason}`).sort(), [
        'DiskPressure=False:KubeletHasNoDiskPressure', 'MemoryPressure=False:KubeletHasSufficientMemory', 'PIDPressure=False:KubeletHasSufficientPID', 'Ready=True:KubeletReady',
      ]);
      const lease = await eventually(async () => getLease(n.name), 10_000, `${n.name} lease`);
      assert.equal(lease.spec?.holderIdentity, n.name);
      assert.equal(lease.spec?.leaseDurationSeconds, LEASE_SECONDS);
      await eventually(async () => (getLease(n.name)?.metadata?.ownerReferences?.[0]?.uid === node.metadata?.uid ? true : undefined), 10_000, 'lease owner');
    }
    assert.equal(getNode('node-a')?.metadata?.labels?.tier, 'a');
  });

  it('posts core/v1 Events with the kubelet reasons and source (node Starting, NodeReady, pod lifecycle)', async () => {
    type Ev = { reason?: string; involvedObject?: { kind?: string; name?: string }; source?: { component?: string; host?: string }; count?: number };
    const events = () => api.store.list('events') as Ev[];
    const has = (reason: string, kind: string, name: string) => events().find((e) => e.reason === reason && e.involvedObject?.kind === kind && e.involvedObject.name === name);
    for (const n of ['node-a', 'node-b']) {
      const starting = await eventually(async () => has('Starting', 'Node', n), 10_000, `${n} Starting event`);
      assert.deepEqual(starting.source, { component: 'kubelet', host: n });
      await eventually(async () => has('NodeReady', 'Node', n), 10_000, `${n} NodeReady event`);
      await eventually(async () => has('NodeHasSufficientMemory', 'Node', n), 10_000, `${n} NodeHasSufficientMemory event`);
    }
  });

  it('each agent runs exactly the pods bound to it and reports their status', async () => {
    api.store.create(pod('pa', 'node-a', 'hello from pa'));
    api.store.create(pod('pb', 'node-b', 'hello from pb'));
    const pa = await eventually(async () => running('pa'), 60_000, 'pa Running');
    const pb = await eventually(async () => running('pb'), 60_000, 'pb Running');
    for (const p of [pa, pb]) {
      const conds = Object.fromEntries((p.status?.conditions ?? []).map((c) => [c.type, c.status]));
      assert.equal(conds.Ready, 'True');
      assert.equal(p.status?.conditions?.find((c) => c.type === 'Ready')?.reason, undefined, 'no stale ContainersNotReady reason');
      assert.equal(conds.ContainersReady, 'True');
      assert.equal(p.status?.containerStatuses?.[0]?.name, 'c');
    }
    const patchers = (name: string) => new Set(api.requests.filter((r) => r.method === 'PATCH' && r.resource === 'pods' && r.subresource === 'status' && r.name === name).map((r) => r.user));
    assert.deepEqual([...patchers('pa')], ['system:node:node-a']);
    assert.deepEqual([...patchers('pb')], ['system:node:node-b']);
    const onA = JSON.parse((await call(`https://127.0.0.1:${a.port}/pods`, { headers: { Authorization: `Bearer ${api.adminToken}` } })).body);
    assert.deepEqual(onA.items.map((p: V1Pod) => p.metadata?.name).sort(), ['pa', 'st-node-a']);
    const podEvents = await eventually(async () => {
      const reasons = (api.store.list('events') as Array<{ reason?: string; involvedObject?: { name?: string } }>).filter((e) => e.involvedObject?.name === 'pa').map((e) => e.reason);
      return reasons.includes('Started') ? reasons : undefined;
    }, 10_000, 'pa events');
    assert.ok(podEvents.includes('Created'), podEvents.join(','));
  });

  it('a pod the node cannot admit is Failed with the kubelet reason (node-a is labelled tier=a, node-b is not)', async () => {
    const p = pod('picky', 'node-b', 'never');
    p.spec.nodeSelector = { tier: 'a' };
    api.store.create(p);
    const failed = await eventually(async () => (getPod('picky')?.status?.phase === 'Failed' ? getPod('picky') : undefined), 30_000, 'picky Failed');
    assert.equal(failed.status?.reason, 'NodeAffinity');
    assert.match(failed.status?.message ?? '', /^Pod was rejected: /);
    const fine = pod('picky-a', 'node-a', 'admitted');
    fine.spec.nodeSelector = { tier: 'a' };
    api.store.create(fine);
    await eventually(async () => running('picky-a'), 60_000, 'picky-a Running on node-a');
    await call(`${api.url}/api/v1/namespaces/default/pods/picky-a`, { ...admin(), method: 'DELETE', body: { gracePeriodSeconds: 1 } });
    await eventually(async () => (getPod('picky-a') ? undefined : true), 30_000, 'picky-a removed');
  });

  it('the static pod gets a mirror pod carrying its status', async () => {
    const mirror = await eventually(async () => running('st-node-a'), 60_000, 'mirror pod st-node-a Running');
    const ann = mirror.metadata?.annotations ?? {};
    assert.ok(ann['kubernetes.io/config.mirror']);
    assert.equal(ann['kubernetes.io/config.mirror'], ann['kubernetes.io/config.hash']);
    assert.equal(ann['kubernetes.io/config.source'], 'file');
    assert.equal(mirror.metadata?.ownerReferences?.[0]?.kind, 'Node');
    assert.equal(mirror.spec?.nodeName, 'node-a');
  });

  it('kubectl logs through the API server reaches the container output', async () => {
    const r = await eventually(async () => {
      const got = await call(`${api.url}/api/v1/namespaces/default/pods/pa/log?container=c`, admin());
      return got.status === 200 && got.body.includes('hello from pa') ? got : undefined;
    }, 30_000, 'pods/pa/log');
    assert.match(r.body, /hello from pa/);
  });

  it('10250 authenticates bearer tokens with TokenReview and authorizes with SubjectAccessReview', async () => {
    const url = (path: string) => `https://127.0.0.1:${a.port}${path}`;
    const as = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
    assert.equal((await call(url('/pods'), as('not-a-token'))).status, 401);
    const denied = await call(url('/pods'), as(viewerToken));
    assert.equal(denied.status, 403);
    assert.equal(denied.body, 'Forbidden (user=viewer, verb=get, resource=nodes, subresource(s)=[proxy])\n');
    const sar = api.accessReviews.find((r) => JSON.stringify(r).includes('"viewer"'));
    assert.ok(sar, 'a SubjectAccessReview for viewer');
    assert.match(JSON.stringify(sar), /"resource":"nodes"/);
    assert.match(JSON.stringify(sar), /"name":"node-a"/);
    assert.match(JSON.stringify(sar), /"subresource":"proxy"/);
    assert.equal((await call(url('/trpc/pods.list'), as(viewerToken))).status, 403);
    assert.equal((await call(url('/socket.io/?EIO=4&transport=polling'), as(viewerToken))).status, 403);
    const stats = await call(url('/stats/summary'), as(viewerToken));
    assert.equal(stats.status, 403);
    assert.match(stats.body, /subresource\(s\)=\[stats\]/);
    assert.equal((await call(url('/pods'), as(api.adminToken))).status, 200);
    assert.equal((await call(url('/trpc/pods.list'), as(api.adminToken))).status, 200);
  });

  it('a pod deleted with a grace period is terminated, then removed by the kubelet with grace 0', async () => {
    const before = getPod('pb');
    const del = await call(`${api.url}/api/v1/namespaces/default/pods/pb`, { ...admin(), method: 'DELETE', body: { gracePeriodSeconds: 5 } });
    assert.equal(del.status, 200, del.body);
    await eventually(async () => (getPod('pb') ? undefined : true), 40_000, 'pb removed');
    const finalDelete = api.requests.find((r) => r.method === 'DELETE' && r.name === 'pb' && r.user === 'system:node:node-b');
    assert.ok(finalDelete, 'the kubelet deleted pb');
    const body = finalDelete.body as { gracePeriodSeconds?: number; preconditions?: { uid?: string } };
    assert.equal(body.gracePeriodSeconds, 0);
    assert.equal(body.preconditions?.uid, before?.metadata?.uid);
    const lastPatch = api.requests.filter((r) => r.method === 'PATCH' && r.name === 'pb' && r.subresource === 'status').at(-1);
    const phase = (lastPatch?.body as { status?: { phase?: string } })?.status?.phase;
    assert.ok(phase === 'Succeeded' || phase === 'Failed', `terminal phase reported before removal, got ${phase}`);
  });

  it('a SIGKILLed agent restarts without duplicating or losing pods', async () => {
    api.store.create(pod('pa2', 'node-a', 'hello from pa2'));
    api.store.create(pod('pgone', 'node-a', 'deleted while the agent is down'));
    const before = await eventually(async () => running('pa2'), 60_000, 'pa2 Running');
    await eventually(async () => running('pgone'), 60_000, 'pgone Running');
    const beforeMirror = getPod('st-node-a');
    const cid = before.status?.containerStatuses?.[0]?.containerID;
    await a.kill('SIGKILL');
    const del = await call(`${api.url}/api/v1/namespaces/default/pods/pgone`, { ...admin(), method: 'DELETE', body: { gracePeriodSeconds: 3 } });
    assert.equal(del.status, 200, del.body);
    await a.start();
    await eventually(async () => (getPod('pgone') ? undefined : true), 40_000, 'pgone terminated and removed after the restart');
    await new Promise((r) => setTimeout(r, 6_000));
    for (const name of ['pa', 'pa2']) {
      const p = await eventually(async () => running(name), 30_000, `${name} still Running`);
      if (p.status?.containerStatuses?.[0]?.restartCount !== 0) process.stderr.write(a.lines.filter((l) => /"pa"|pa\/|default\/pa|kill|Killing|orphan|Started|Created|lastState/i.test(l)).join('\n') + '\n' + JSON.stringify(p.status, null, 1) + '\n');
      assert.equal(p.status?.containerStatuses?.[0]?.restartCount, 0, `${name} not restarted`);
    }
    assert.equal(running('pa2')?.status?.containerStatuses?.[0]?.containerID, cid);
    assert.equal(getPod('st-node-a')?.metadata?.uid, beforeMirror?.metadata?.uid, 'mirror pod kept');
    const runningPods = JSON.parse((await call(`https://127.0.0.1:${a.port}/runningpods/`, { headers: { Authorization: `Bearer ${api.adminToken}` } })).body);
    const names = runningPods.items.map((p: V1Pod) => p.metadata?.name).sort();
    assert.deepEqual(names, ['pa', 'pa2', 'st-node-a']);
  });

  it('dropped watches and an expired resourceVersion (410) are survived: re-watch, relist, new pods still arrive', async () => {
    const podLists = () => api.requests.filter((r) => r.verb === 'list' && r.resource === 'pods' && r.user === 'system:node:node-a').length;
    const listsBefore = podLists();
    api.store.compact();
    api.closeWatches();
    api.store.create(pod('pa3', 'node-a', 'hello from pa3'));
    await eventually(async () => running('pa3'), 60_000, 'pa3 Running after the watch was dropped');
    assert.ok(podLists() > listsBefore, 'node-a relisted pods after 410 Expired');
  });

  it("a stopped agent's lease is no longer renewed and runs out (what the node-lifecycle controller acts on)", async () => {
    await eventually(async () => (getLease('node-b')?.spec?.renewTime ? true : undefined), 5_000, 'lease');
    await b.kill('SIGKILL');
    const renew = String(getLease('node-b')?.spec?.renewTime);
    await new Promise((r) => setTimeout(r, (LEASE_SECONDS + 1) * 1000));
    assert.equal(String(getLease('node-b')?.spec?.renewTime), renew, 'not renewed after the agent stopped');
    assert.ok(Date.now() > new Date(renew).getTime() + LEASE_SECONDS * 1000, 'renewTime + leaseDurationSeconds has passed');
    const renewA = String(getLease('node-a')?.spec?.renewTime);
    assert.ok(new Date(renewA).getTime() > new Date(renew).getTime(), 'the running node keeps renewing');
  });
});
