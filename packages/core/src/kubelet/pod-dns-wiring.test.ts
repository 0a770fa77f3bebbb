/**
 * Pod DNS through the kubelet on the recording fake runtime: RunPodSandbox carries the resolver settings the
 * kubelet's GetPodDNS forms from --resolv-conf, clusterDNS and clusterDomain; a ClusterFirst pod on a node without
 * clusterDNS gets MissingClusterDNS and the host's settings; an unreadable resolv.conf fails the sandbox with
 * CreatePodSandboxError (generatePodSandboxConfig's error) while other pods' sandboxes are not affected by it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import type { K8sBusEvent } from '../events/types.ts';
import { createKubelet } from './kubelet.ts';
import { MemoryManifestFs } from './testing/memory-manifest-fs.ts';
import { staticPodKubeletConfig } from './testing/kubelet-config.ts';
import type { KubeletConfig } from './config.ts';

const HOST = 'nodelet.local/host:latest';
const manifest = (name: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'team' }, spec });
const RESOLV = 'nameserver 192.0.2.53\nsearch corp.example\noptions timeout:2\n';

async function run(dns: KubeletConfig['dns'], files: Record<string, string>) {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false });
  const fs = new MemoryManifestFs('/manifests');
  fs.put('cluster.json', manifest('cluster', { containers: [{ name: 'c', image: HOST }] }));
  fs.put('host.json', manifest('host', { dnsPolicy: 'Default', dnsConfig: { options: [{ name: 'ndots', value: '1' }] }, containers: [{ name: 'c', image: HOST }] }));
  const readHostFile = async (f: string) => {
    const text = files[f];
    if (text === undefined) throw Object.assign(new Error(`open ${f}: no such file or directory`), { code: 'ENOENT' });
    return text;
  };
  const kubelet = createKubelet({ cri, clock, logger: nullLogger, manifestFs: fs, readHostFile }, staticPodKubeletConfig(dns ? { dns } : {}));
  await kubelet.start();
  for (let i = 0; i < 5; i++) await clock.step(1_000);
  const sandboxDns = (name: string) => cri.callsOf<{ config: { metadata?: { name?: string }; dnsConfig?: unknown } }>('runPodSandbox').find((c) => c.config.metadata?.name === `${name}-node1`)?.config.dnsConfig;
  const events = kubelet.events.recent({ types: ['k8sEvent'] }, 2000).filter((e): e is K8sBusEvent => e.type === 'k8sEvent');
  const pod = (name: string): V1Pod | undefined => kubelet.getPod('team', `${name}-node1`);
  await kubelet.stop();
  return { sandboxDns, events, pod };
}

test('ClusterFirst and Default pods get the kubelet\'s resolver settings in RunPodSandbox', async () => {
  const r = await run({ clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local', resolvConf: '/etc/resolv.conf' }, { '/etc/resolv.conf': RESOLV });
  assert.deepEqual(r.sandboxDns('cluster'), { servers: ['10.96.0.10'], searches: ['team.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'corp.example'], options: ['ndots:5'] });
  assert.deepEqual(r.sandboxDns('host'), { servers: ['192.0.2.53'], searches: ['corp.example'], options: ['timeout:2', 'ndots:1'] });
});

test('no clusterDNS: MissingClusterDNS on the pod and the node, the host\'s settings', async () => {
  const r = await run({ clusterDNS: [], clusterDomain: '', resolvConf: '/etc/resolv.conf' }, { '/etc/resolv.conf': RESOLV });
  assert.deepEqual(r.sandboxDns('cluster'), { servers: ['192.0.2.53'], searches: ['corp.example'], options: ['timeout:2'] });
  const missing = r.events.filter((e) => e.reason === 'MissingClusterDNS');
  assert.ok(missing.some((e) => e.involvedObject.kind === 'Node'));
  assert.ok(missing.some((e) => e.involvedObject.name === 'cluster-node1' && e.message.startsWith('pod: "cluster-node1_team(')));
});

test('an unreadable resolv.conf fails the sandbox with CreatePodSandboxError and FailedCreatePodSandBox', async () => {
  const r = await run({ clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local', resolvConf: '/nope/resolv.conf' }, {});
  assert.equal(r.sandboxDns('cluster'), undefined, 'no RunPodSandbox');
  const failed = r.events.find((e) => e.reason === 'FailedCreatePodSandBox' && e.involvedObject.name === 'cluster-node1');
  assert.match(failed?.message ?? '', /^Failed to create pod sandbox: open \/nope\/resolv\.conf: no such file or directory/);
  const waiting = r.pod('cluster')?.status?.containerStatuses?.[0]?.state?.waiting;
  assert.equal(waiting?.reason, 'ContainerCreating');
});

test('without dns settings the sandbox carries spec.dnsConfig only (as before)', async () => {
  const r = await run(undefined, {});
  assert.equal(r.sandboxDns('cluster'), undefined);
  assert.deepEqual(r.sandboxDns('host'), { servers: [], searches: [], options: ['ndots:1'] });
});
