// Pod networking on one node, the kubelet's share of it: pod IPs in the status, pods reachable over them from other
// pods (http and udp), from the node (the prober's path) and from a hostNetwork pod, each answering with its
// hostname = its pod name. Our own test of what upstream checks in test/e2e/common/network/networking.go
// ("[sig-network] Networking Granular Checks: Pods should function for intra-pod communication: http", "... udp"
// and "... should function for node-pod communication: http [LinuxOnly]", all [NodeConformance] [Conformance]) with
// the pods of test/e2e/framework/network/utils.go (setupCore): a netserver pod serving http 8083 and udp 8081 with
// HTTP liveness/readiness probes on /healthz, a test pod that dials the netserver's pod IP, and a hostNetwork pod
// that curls it. agnhost cannot be pulled here: scripts/test-images/netexec.c is our stand-in (built into the test
// busybox image by scripts/containerd-up.sh); `netexec http` / `netexec udp` are the clients
// (busybox-static's wget segfaults in an image without glibc's NSS libraries).
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { networkInterfaces } from 'node:os';
import { describe, it, type TestContext } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { hasGcc } from '@nodelet/runtime/testing';
import { waitUntil } from '../../e2e/harness.ts';
import type { SuiteContext } from './suite-context.ts';
import { containerStatus as cs, ctr, execIn, fullName, removePod, waitPod, writePod } from './pods.ts';

const HTTP_PORT = 8083; // e2enetwork.EndpointHTTPPort
const UDP_PORT = 8081; // e2enetwork.EndpointUDPPort
const TEST_HTTP_PORT = 9080; // testContainerHTTPPort
// The upstream netserver probe (createNetShellPodSpec), liveness and readiness alike.
const PROBE = { httpGet: { path: '/healthz', port: HTTP_PORT }, initialDelaySeconds: 10, timeoutSeconds: 30, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
const POD_SUBNET = { containerd: /^10\.88\./, embedded: /^10\.89\./ }; // scripts/containerd-up.sh; packages/runtime/src/network/subnet.ts

const ready = (p: V1Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const nodeAddresses = () => Object.values(networkInterfaces()).flat().map((x) => x?.address);

/** Until `fn` returns `want` (upstream retries each dial, 2 s apart); the last answer otherwise. */
async function answers(what: string, want: string, fn: () => Promise<string>): Promise<string> {
  let last = '';
  await waitUntil(what, async () => (last = (await fn().catch((e: unknown) => `error: ${String(e)}`)).trim()) === want, 30_000).catch(() => {});
  return last;
}

function udpFromHost(ip: string, port: number, msg: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = createSocket('udp4');
    const timer = setTimeout(() => (s.close(), reject(new Error('no udp reply in 2 s'))), 2_000);
    s.once('message', (m) => (clearTimeout(timer), s.close(), resolve(m.toString())));
    s.send(msg, port, ip, (err) => err && (clearTimeout(timer), s.close(), reject(err)));
  });
}

export function defineNetworkingScenarios(ctx: SuiteContext): void {
  describe('networking granular checks: pods', () => {
    let server: V1Pod | undefined;
    // containerd: the image containerd-up.sh imported; the embedded runtime pulls the same image from the registry.
    const image = () => (ctx.rt.name === 'containerd' ? ctx.rt.image : ctx.rt.registry ? `${ctx.rt.registry}/busybox:latest` : '');
    const skipWhy = () => (!image() ? 'no loopback registry with the test busybox image (netexec) for the embedded runtime' : !hasGcc() ? 'no gcc: the test image has no netexec' : '');
    const skip = (t: TestContext) => {
      const why = skipWhy();
      if (why && process.env.CI === 'true') throw new Error(`networking scenarios: ${why}`);
      if (why) t.skip(why);
      return Boolean(why);
    };

    it('a netserver pod (http 8083, udp 8081, HTTP probes on /healthz), a test pod and a hostNetwork pod run; the netserver becomes Ready', async (t) => {
      const { agent: a } = ctx;
      if (skip(t)) return;
      writePod(a, 'netserver-0', {
        terminationGracePeriodSeconds: 1,
        containers: [ctr('webserver', image(), `exec netexec serve --http-port=${HTTP_PORT} --udp-port=${UDP_PORT}`, {
          ports: [{ name: 'http', containerPort: HTTP_PORT }, { name: 'udp', containerPort: UDP_PORT, protocol: 'UDP' }],
          livenessProbe: PROBE,
          readinessProbe: PROBE,
        })],
      });
      writePod(a, 'test-container-pod', {
        terminationGracePeriodSeconds: 1,
        containers: [ctr('webserver', image(), `exec netexec serve --http-port=${TEST_HTTP_PORT}`, { ports: [{ name: 'http', containerPort: TEST_HTTP_PORT }] })],
      });
      writePod(a, 'host-test-container-pod', {
        hostNetwork: true,
        terminationGracePeriodSeconds: 1,
        containers: [ctr('agnhost-container', image(), 'while true; do sleep 1; done')],
      });
      // Ready only through the kubelet's HTTP probe of podIP:8083/healthz, made from the node's network namespace.
      server = await waitPod(a, 'netserver-0', 'Ready', ready, 240_000);
      await waitPod(a, 'test-container-pod', 'running', (p) => Boolean(cs(p, 'webserver')?.state?.running), 120_000);
      await waitPod(a, 'host-test-container-pod', 'running', (p) => Boolean(cs(p, 'agnhost-container')?.state?.running), 120_000);
    });

    it('status: podIP on the runtime\'s pod network, podIPs = [podIP], hostIP a node address', (t) => {
      if (skip(t)) return;
      const ip = server?.status?.podIP ?? '';
      assert.match(ip, POD_SUBNET[ctx.rt.name]);
      assert.deepEqual(server?.status?.podIPs, [{ ip }]);
      assert.ok(nodeAddresses().includes(server?.status?.hostIP), `hostIP ${server?.status?.hostIP} is a node address`);
    });

    it('intra-pod communication: http — the test pod reaches the netserver\'s pod IP on 8083 and gets its hostname (the pod name)', async (t) => {
      if (skip(t)) return;
      const ip = server?.status?.podIP ?? '';
      const got = await answers('http from the test pod', fullName(ctx.agent, 'netserver-0'), async () => {
        const r = await execIn(ctx.agent, 'test-container-pod', 'webserver', `netexec http ${ip} ${HTTP_PORT} /hostName 5`);
        return r.stdout || `exit ${r.exitCode}: ${r.stderr}`;
      });
      assert.equal(got, fullName(ctx.agent, 'netserver-0'));
    });

    it('intra-pod communication: udp — the test pod sends "hostName" to the netserver\'s pod IP on 8081 and gets its hostname', async (t) => {
      if (skip(t)) return;
      const ip = server?.status?.podIP ?? '';
      const got = await answers('udp from the test pod', fullName(ctx.agent, 'netserver-0'), async () => {
        const r = await execIn(ctx.agent, 'test-container-pod', 'webserver', `netexec udp ${ip} ${UDP_PORT} hostName 2`);
        return r.stdout || `exit ${r.exitCode}: ${r.stderr}`;
      });
      assert.equal(got, fullName(ctx.agent, 'netserver-0'));
    });

    it('node-pod communication: http — the node and a hostNetwork pod reach the pod IP (udp from the node too)', async (t) => {
      if (skip(t)) return;
      const { agent: a } = ctx;
      const ip = server?.status?.podIP ?? '';
      const want = fullName(a, 'netserver-0');
      assert.equal(await answers('http from the node', want, async () => (await fetch(`http://${ip}:${HTTP_PORT}/hostName`, { signal: AbortSignal.timeout(5_000) })).text()), want);
      assert.equal(await answers('udp from the node', want, () => udpFromHost(ip, UDP_PORT, 'hostName')), want);
      const host = await waitPod(a, 'host-test-container-pod', 'running', (p) => Boolean(cs(p, 'agnhost-container')?.state?.running));
      assert.equal(host.status?.podIP, host.status?.hostIP, 'a hostNetwork pod has the node\'s IP');
      const got = await answers('http from the hostNetwork pod', want, async () => {
        const r = await execIn(a, 'host-test-container-pod', 'agnhost-container', `netexec http ${ip} ${HTTP_PORT} /hostName 5`);
        return r.stdout || `exit ${r.exitCode}: ${r.stderr}`;
      });
      assert.equal(got, want);
    });

    it('the probes kept the netserver running (no liveness restart); the pods go', async (t) => {
      if (!skipWhy()) {
        const p = await waitPod(ctx.agent, 'netserver-0', 'still Ready', ready);
        assert.equal(cs(p, 'webserver')?.restartCount, 0);
      } else skip(t);
      for (const name of ['netserver-0', 'test-container-pod', 'host-test-container-pod']) removePod(ctx.agent, name);
    });
  });
}
