/**
 * Pod networking in API-server mode (the API server TEST DOUBLE, one real agent; on containerd and on the embedded
 * runtime's CNI bridge): our own test of what upstream checks in test/e2e/common/network/networking.go at v1.28 —
 * "[sig-network] Networking Granular Checks: Pods should function for intra-pod communication: http", "... udp"
 * and "... should function for node-pod communication: http [LinuxOnly]" — with the pods of
 * test/e2e/framework/network/utils.go (setupCore): a netserver pod (http 8083, udp 8081, HTTP liveness/readiness
 * on /healthz, a nodeSelector on the Node's kubernetes.io/hostname label), a test pod and a hostNetwork pod, made
 * through the API server; the Ready condition and pod IPs read back from it; every dial an exec through the API
 * server's pods/exec (as the e2e framework execs curl), answered with the netserver's pod name.
 * netexec is scripts/test-images/netexec.c (agnhost cannot be pulled here), run from a hostPath volume.
 * Needs root, the CNI bridge plugins and gcc (and containerd for its half): skipped without them, failing under CI=true.
 * Run: node --import tsx --test apps/agent/src/networking-apiserver.integration.test.ts
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Exec, KubeConfig, type V1Node, type V1Pod, type V1Status } from '@kubernetes/client-node';
import type { ApiServerDouble, KubeObject } from '@nodelet/apiserver-double';
import { findCniBinDir } from '@nodelet/runtime';
import { hasGcc } from '@nodelet/runtime/testing';
import { HOST_IMAGE, LOOP, startApiNode, testCgroupRoot } from './testing/api-node.ts';
import { removeCgroupTree } from './testing/cgroups.ts';
import type { NodeAgent } from './testing/cluster-node.ts';
import { buildNetexec } from './testing/netexec.ts';
import { eventually } from './testing/processes.ts';
import { setUpRuntime, tempPrivateContainerd, type RuntimeSetup } from './testing/private-containerd.ts';

const BIN = '/opt/netexec';
const PROBE = { httpGet: { path: '/healthz', port: 8083 }, initialDelaySeconds: 10, timeoutSeconds: 30, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
const missing = [process.getuid?.() !== 0 && 'root', !findCniBinDir() && 'the CNI bridge / host-local plugins', !hasGcc() && 'gcc'].filter(Boolean);
if (missing.length > 0 && process.env.CI === 'true') throw new Error(`the networking test needs ${missing.join(', ')} under CI`);

function suite(runtime: string, node: string, image: string, subnet: RegExp, setup: RuntimeSetup): void {
  let api: ApiServerDouble;
  let agent: NodeAgent;
  let kc: KubeConfig;
  let down: (() => Promise<void>) | undefined;
  let skip: string | false = false;
  let dir = '';
  let server: V1Pod | undefined;

  const getPod = (name: string) => api.store.get('pods', 'default', name) as V1Pod | undefined;
  const running = (name: string) => eventually(async () => (getPod(name)?.status?.containerStatuses?.[0]?.state?.running ? getPod(name) : undefined), 120_000, `${name} running`);
  const pod = (name: string, spec: Record<string, unknown>, container: Record<string, unknown>): KubeObject => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
    spec: {
      nodeName: node, terminationGracePeriodSeconds: 1, ...spec,
      volumes: [{ name: 'netexec', hostPath: { path: dir, type: 'Directory' } }],
      containers: [{ image, imagePullPolicy: 'Never', volumeMounts: [{ name: 'netexec', mountPath: BIN }], ...container }],
    },
  });

  /** `sh -c script` in a container through the API server's pods/exec; its output, or the output and the failure. */
  async function exec(name: string, container: string, script: string): Promise<string> {
    const chunks: Buffer[] = [];
    const out = new Writable({ write: (c: Buffer, _e, cb) => (chunks.push(Buffer.from(c)), cb()) });
    const status = await new Promise<V1Status>((resolve, reject) => {
      new Exec(kc).exec('default', name, container, ['sh', '-c', script], out, out, null, false, resolve).catch(reject);
    });
    const text = Buffer.concat(chunks).toString().trim();
    return status.status === 'Success' ? text : `${text} (${JSON.stringify(status)})`;
  }

  /** Until the dial answers `want` (upstream retries each dial 2 s apart); the last answer. */
  async function dial(what: string, want: string, fn: () => Promise<string>): Promise<string> {
    let last = '';
    await eventually(async () => ((last = (await fn().catch((e: unknown) => String(e))).trim()) === want ? true : undefined), 30_000, what).catch(() => {});
    return last;
  }

  describe(`networking granular checks through the API server on ${runtime}`, { skip: missing.length > 0 && `needs ${missing.join(', ')}`, timeout: 400_000 }, () => {
    before(async () => {
      const r = await setUpRuntime(setup);
      if ('skip' in r) return void (skip = r.skip);
      down = r.down;
      dir = mkdtempSync(join(tmpdir(), 'nodelet-netexec-'));
      buildNetexec(dir);
      ({ api, agent } = await startApiNode(node, { staticPod: false, trustApiServerCa: true, ...(r.endpoint ? { endpoint: r.endpoint } : {}) }));
      kc = new KubeConfig();
      kc.loadFromFile(api.adminKubeconfig());
    });

    after(async () => {
      await agent?.cleanup();
      await api?.stop();
      await down?.();
      if (down && process.getuid?.() === 0) removeCgroupTree(testCgroupRoot(node)); // containerd's pod cgroups are gone by now
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('the netserver pod, selecting the Node by its kubernetes.io/hostname label, is admitted and becomes Ready through its HTTP probes', async (t) => {
      if (skip) return t.skip(skip);
      const n = await eventually(async () => api.store.get('nodes', '', node) as V1Node | undefined, 60_000, 'node registered');
      const hostname = n.metadata?.labels?.['kubernetes.io/hostname'];
      assert.equal(hostname, node);
      api.store.create(pod('netserver-0', { nodeSelector: { 'kubernetes.io/hostname': hostname } }, {
        name: 'webserver', command: [`${BIN}/netexec`, 'serve', '--http-port=8083', '--udp-port=8081'],
        ports: [{ name: 'http', containerPort: 8083 }, { name: 'udp', containerPort: 8081, protocol: 'UDP' }],
        livenessProbe: PROBE, readinessProbe: PROBE,
      }));
      api.store.create(pod('test-container-pod', {}, { name: 'webserver', command: [`${BIN}/netexec`, 'serve', '--http-port=9080'] }));
      api.store.create(pod('host-test-container-pod', { hostNetwork: true }, { name: 'agnhost-container', command: ['sh', '-c', LOOP] }));
      server = await eventually(async () => {
        const p = getPod('netserver-0');
        return p?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? p : undefined;
      }, 180_000, 'netserver-0 Ready in the API server');
      const ip = server.status?.podIP ?? '';
      assert.match(ip, subnet, 'an address of the runtime\'s pod network');
      assert.deepEqual(server.status?.podIPs, [{ ip }]);
      assert.equal(server.status?.hostIP, '127.0.0.1', 'the --node-ip');
      await running('test-container-pod');
      const host = await running('host-test-container-pod');
      assert.equal(host?.status?.podIP, '127.0.0.1', 'a hostNetwork pod has the node IP');
    });

    it('intra-pod communication: http and udp from the test pod over the pod IP answer the netserver\'s pod name', async (t) => {
      if (skip) return t.skip(skip);
      const ip = server?.status?.podIP ?? '';
      assert.equal(await dial('http', 'netserver-0', () => exec('test-container-pod', 'webserver', `${BIN}/netexec http ${ip} 8083 /hostName 5`)), 'netserver-0');
      assert.equal(await dial('udp', 'netserver-0', () => exec('test-container-pod', 'webserver', `${BIN}/netexec udp ${ip} 8081 hostName 2`)), 'netserver-0');
    });

    it('node-pod communication: http from the hostNetwork pod over the pod IP answers the netserver\'s pod name', async (t) => {
      if (skip) return t.skip(skip);
      const ip = server?.status?.podIP ?? '';
      assert.equal(await dial('http', 'netserver-0', () => exec('host-test-container-pod', 'agnhost-container', `${BIN}/netexec http ${ip} 8083 /hostName 5`)), 'netserver-0');
    });
  });
}

// Pod networks: scripts/containerd-up.sh's bridge conflist (containerd), packages/runtime/src/network/subnet.ts (embedded).
suite('containerd', 'node-net-ctd', 'localhost/busybox:latest', /^10\.88\./, () => tempPrivateContainerd('nodelet-net-ctd-'));
suite('the embedded runtime', 'node-net-emb', HOST_IMAGE, /^10\.89\./, async () => ({ down: async () => {} }));
