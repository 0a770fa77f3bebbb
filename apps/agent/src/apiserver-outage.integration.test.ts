/**
 * Bad input "API server unreachable": an agent joined to the API server TEST DOUBLE runs a pod; the double is
 * paused (listener and connections closed, objects kept). The pod keeps running, the agent logs its retries,
 * node.get's cluster.lastError is set and /healthz stays 200 with `[+]apiserver ok (degraded: ...)`. The double
 * listens again on the same port → the agent recovers: the lease is renewed again and lastError clears.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { V1Lease, V1Pod } from '@kubernetes/client-node';
import type { NodeSummary } from '@nodelet/core/kubelet';
import { startApiServerDouble, type ApiServerDouble } from '@nodelet/apiserver-double';
import { call, nodeAgent, type NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';

let api: ApiServerDouble;
let agent: NodeAgent;

function creds() {
  const pki = join(agent.root, 'pki');
  return { ca: readFileSync(join(pki, 'ca.crt'), 'utf8'), cert: readFileSync(join(pki, 'console.crt'), 'utf8'), key: readFileSync(join(pki, 'console.key'), 'utf8') };
}

async function trpc<T>(path: string): Promise<T> {
  const r = await call(`https://127.0.0.1:${agent.port}/trpc/${path}`, creds());
  assert.equal(r.status, 200, r.body);
  return (JSON.parse(r.body) as { result: { data: T } }).result.data;
}

const nodeGet = () => trpc<NodeSummary & { health: { ok: boolean; checks: Array<{ name: string; ok: boolean; message?: string }> } }>('node.get');
const containerId = async () => {
  const pods = await trpc<V1Pod[]>('pods.list');
  const st = pods.find((p) => p.metadata?.name === 'keeper')?.status?.containerStatuses?.[0];
  return st?.state?.running ? { id: st.containerID, restarts: st.restartCount } : undefined;
};
const lease = () => api.store.get('leases', 'kube-node-lease', 'outage-node', 'coordination.k8s.io') as V1Lease | undefined;

before(async () => {
  api = await startApiServerDouble();
  agent = await nodeAgent('outage-node', (root) => {
    const f = join(root, 'kubelet-config.yaml');
    writeFileSync(f, 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeLeaseDurationSeconds: 6\nnodeStatusUpdateFrequency: 2s\n');
    return ['--config', f, '--kubeconfig', api.kubeconfigFor('outage-node', { path: join(root, 'kubeconfig') }), '--node-ip', '127.0.0.1', '--authorization-mode', 'AlwaysAllow', '--cgroups-per-qos=false'];
  });
  await agent.start();
});

after(async () => {
  await agent?.cleanup();
  await api?.stop();
});

describe('API server outage', { timeout: 150_000 }, () => {
  it('pods keep running, retries are logged, lastError is visible, healthz stays ok; the agent recovers', async () => {
    api.store.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'keeper', namespace: 'default' },
      spec: { nodeName: 'outage-node', containers: [{ name: 'c', image: 'nodelet.local/host:latest', imagePullPolicy: 'Never', command: ['sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1; done"] }] },
    });
    const before = await eventually(containerId, 30_000, 'pod running');
    await eventually(async () => ((await nodeGet()).cluster?.leaseRenewTime ? true : undefined), 20_000, 'lease renewed');
    const healthz = () => call(`https://127.0.0.1:${agent.port}/healthz?verbose`, creds());
    assert.match((await healthz()).body, /\[\+\]apiserver ok\n/);

    await api.pause();
    const logMark = agent.lines.length;
    const down = await eventually(async () => {
      const n = await nodeGet();
      return n.cluster?.lastError ? n : undefined;
    }, 30_000, 'cluster.lastError set');
    assert.ok(down.health.ok, 'an unreachable API server does not fail health');
    assert.match(down.health.checks.find((c) => c.name === 'apiserver')?.message ?? '', /^degraded/);
    const hz = await healthz();
    assert.equal(hz.status, 200);
    assert.match(hz.body, /\[\+\]apiserver ok \(degraded: .+\)/);
    await eventually(async () => {
      const retries = agent.lines.slice(logMark).filter((l) => /failed to update lease|failed to get lease|pod watch failed; retrying|failed to list pods/.test(l));
      return retries.length >= 2 ? retries : undefined;
    }, 30_000, 'retry log lines');
    assert.deepEqual(await containerId(), before, 'the pod kept running (same container, no restart)');

    const resumedAt = Date.now();
    await api.resume();
    let last: unknown;
    await eventually(async () => {
      const n = await nodeGet();
      last = n.cluster;
      const renewed = n.cluster?.leaseRenewTime ? Date.parse(n.cluster.leaseRenewTime) : 0;
      return renewed > resumedAt && !n.cluster?.lastError ? n : undefined;
    }, 45_000, 'lease renewed after the API server came back, lastError cleared').catch((e: Error) => {
      throw new Error(`${e.message}; cluster: ${JSON.stringify(last)}; log tail:\n${agent.lines.slice(-8).join('\n')}`);
    });
    const renew = lease()?.spec?.renewTime;
    assert.ok(renew && Date.parse(String(renew)) > resumedAt - 1000, `lease renewTime ${String(renew)} after the outage`);
    assert.deepEqual(await containerId(), before, 'still the same container');
    assert.match((await healthz()).body, /\[\+\]apiserver ok\n/);
  });
});
