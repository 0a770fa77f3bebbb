/**
 * Images from a private registry (#15 item 6), against a REAL registry with authentication: Debian's
 * docker-registry with an htpasswd file (basic auth, plain HTTP on loopback; containerd is told so by a hosts.toml
 * in its certs.d), on containerd (root) and on the embedded runtime. In API-server mode (the API server TEST
 * DOUBLE) as the kubelet's getPullSecretsForPod + kuberuntime_image.go PullImage:
 * - a pod whose imagePullSecrets name a kubernetes.io/dockerconfigjson Secret with the right password runs;
 * - without a secret, or with a wrong password, the pull fails with the registry's answer (401): ErrImagePull
 *   and a Failed event, then ImagePullBackOff;
 * - a secret that does not exist: the FailedToRetrieveImagePullSecret event, and the pull goes on without it;
 * - an unreachable registry: ErrImagePull naming the refused connection.
 * The static pod pulls with the node's own credential file, <root-dir>/config.json, whose entry names the
 * registry path `<host>/static` only (the keyring's path-prefix match), so it serves no API pod.
 * Both runtimes' agents start at once and every pod is created as soon as its agent runs; the waiting states of each
 * pod's container are recorded from the API server's writes as they happen, so each check reads the sequence the pod
 * went through instead of waiting out a pull back-off of its own (the kubelet's fixed 10 s): ~1 min instead of ~3.
 * Needs docker-registry, umoci, skopeo, busybox-static (and containerd, runc, CNI plugins for containerd); a
 * missing tool is a skip outside CI and a failure under CI=true.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { ApiServerDouble, KubeObject } from '@nodelet/apiserver-double';
import { buildBusyboxOciLayout, pushToRegistry, startLoopbackRegistry, type LoopbackRegistry } from '@nodelet/runtime/testing';
import { boundPod, startApiNode, staticPodYaml, testCgroupRoot } from './testing/api-node.ts';
import { removeCgroupTree } from './testing/cgroups.ts';
import type { NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';
import { setUpRuntime, tempPrivateContainerd, type RuntimeSetup } from './testing/private-containerd.ts';

const ALICE = { username: 'alice', password: 's3cret' };
const TOOLS = ['docker-registry', 'umoci', 'skopeo', 'busybox'];
const missing = TOOLS.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
if (missing.length > 0 && process.env.CI === 'true') throw new Error(`private registry tests need ${missing.join(', ')} under CI`);
const noTools = missing.length > 0 ? `needs ${missing.join(', ')} (apt-get install docker-registry umoci skopeo busybox-static)` : false;

const work = mkdtempSync(join(tmpdir(), 'nodelet-pullsecret-'));
let registry: LoopbackRegistry | undefined;

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A loopback port nothing listens on (taken from the kernel, then closed). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const addr = srv.address();
  await new Promise((r) => srv.close(r));
  return typeof addr === 'object' && addr ? addr.port : 0;
}

function dockerconfigjson(name: string, server: string, password: string): KubeObject {
  const body = JSON.stringify({ auths: { [server]: { username: ALICE.username, password, auth: b64(`${ALICE.username}:${password}`) } } });
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64(body) } };
}

const image = (path: string) => `${registry!.host}/${path}`;

interface Waiting {
  reason?: string;
  message?: string;
}

/** One runtime's node: its API server double and agent, and the waiting states each pod's container went through. */
interface PullNode {
  node: string;
  api: ApiServerDouble;
  agent: NodeAgent;
  /** pod name → every distinct waiting state written to the API server, in order */
  waitings: Map<string, Waiting[]>;
  /** the image reference of the `unreachable` pod (a closed loopback port) */
  unreachable: string;
  stopRecording(): void;
  down(): Promise<void>;
}

/** The runtime, its agent with the static pod and the node's credential file, the secrets, and every pod at once. */
async function startNode(node: string, setup: RuntimeSetup): Promise<PullNode | string> {
  const r = await setUpRuntime(setup);
  if ('skip' in r) return r.skip;
  const staticYaml = staticPodYaml('st', { image: image('static/busybox:1'), pullPolicy: 'Always' });
  const nodeCreds = JSON.stringify({ auths: { [`${registry!.host}/static`]: { auth: b64(`${ALICE.username}:${ALICE.password}`) } } });
  let started: { api: ApiServerDouble; agent: NodeAgent };
  try {
    started = await startApiNode(node, {
      staticPod: staticYaml,
      ...(r.endpoint ? { endpoint: r.endpoint } : {}),
      args: (root) => {
        writeFileSync(join(root, 'config.json'), nodeCreds, { mode: 0o600 });
        return [];
      },
    });
  } catch (err) {
    await r.down();
    throw err;
  }
  const { api, agent } = started;
  const waitings = new Map<string, Waiting[]>();
  const stopRecording = api.store.registry.raw.subscribe((e) => {
    if (e.resource !== 'pods') return;
    const p = e.object as V1Pod;
    const w = p.status?.containerStatuses?.[0]?.state?.waiting;
    const name = p.metadata?.name ?? '';
    const seen = waitings.get(name) ?? [];
    if (w && (seen.at(-1)?.reason !== w.reason || seen.at(-1)?.message !== w.message)) seen.push({ reason: w.reason, message: w.message });
    waitings.set(name, seen);
  });
  api.store.create(dockerconfigjson('regcred', `http://${registry!.host}`, ALICE.password));
  api.store.create(dockerconfigjson('wrongcred', registry!.host, 'not-the-password'));
  const pod = (name: string, secrets: string[], img = image('private/busybox:1')) => {
    const p = boundPod(name, node, { image: img, pullPolicy: 'Always' });
    if (secrets.length > 0) p.spec.imagePullSecrets = secrets.map((s) => ({ name: s }));
    return p;
  };
  const unreachable = `127.0.0.1:${await closedPort()}/private/busybox:1`;
  for (const p of [pod('with-secret', ['regcred']), pod('no-secret', []), pod('wrong-secret', ['wrongcred']), pod('missing-secret', ['absent']), pod('unreachable', ['regcred'], unreachable)]) api.store.create(p);
  return { node, api, agent, waitings, unreachable, stopRecording, down: r.down };
}

const containerdSetup: RuntimeSetup = async () => {
  const ctd = await tempPrivateContainerd('nodelet-pullsecret-ctd-');
  if (typeof ctd === 'string') return ctd;
  // The node admin's part: plain HTTP to the loopback registry (certs.d/<host>/hosts.toml, read per pull).
  const host = registry!.host;
  mkdirSync(join(ctd.state, 'certs.d', host), { recursive: true });
  writeFileSync(join(ctd.state, 'certs.d', host, 'hosts.toml'), `server = "http://${host}"\n[host."http://${host}"]\n  capabilities = ["pull", "resolve"]\n`);
  return { endpoint: ctd.endpoint, down: ctd.down };
};

const RUNTIMES: Array<{ runtime: string; node: string; setup: RuntimeSetup }> = [
  { runtime: 'containerd', node: 'node-pull-ctd', setup: containerdSetup },
  { runtime: 'the embedded runtime', node: 'node-pull-emb', setup: async () => ({ down: async () => {} }) },
];
const nodes = new Map<string, PullNode | string>();

before(async () => {
  if (noTools) return;
  registry = await startLoopbackRegistry(join(work, 'registry'), [ALICE]);
  const img = await buildBusyboxOciLayout(join(work, 'image'));
  await pushToRegistry(img, registry.host, 'private/busybox:1', ALICE);
  await pushToRegistry(img, registry.host, 'static/busybox:1', ALICE);
  const started = await Promise.allSettled(RUNTIMES.map(async (r) => void nodes.set(r.node, await startNode(r.node, r.setup))));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}, { timeout: 400_000 });

after(async () => {
  for (const [name, n] of nodes) {
    if (typeof n === 'string') continue;
    n.stopRecording();
    await n.agent.cleanup();
    await n.api.stop();
    await n.down();
    // The pod cgroups containerd's containers still held when the agent's cleanup ran go once containerd is down.
    if (process.getuid?.() === 0) removeCgroupTree(testCgroupRoot(name));
  }
  await registry?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The private-registry behaviours on one runtime's node (started by the file's `before`). */
function privateRegistrySuite(runtime: string, node: string): void {
  /** The node, or undefined after skipping the test with the reason it is not there. */
  const on = (t: TestContext): PullNode | undefined => {
    const n = noTools || (nodes.get(node) ?? 'not started');
    if (typeof n !== 'string') return n;
    t.skip(n);
    return undefined;
  };
  const getPod = (n: PullNode, name: string) => n.api.store.get('pods', 'default', name) as V1Pod | undefined;
  const event = (n: PullNode, name: string, reason: string) =>
    n.api.store.list('events').find((e) => {
      const ev = e as { reason?: string; involvedObject?: { name?: string } };
      return ev.reason === reason && ev.involvedObject?.name === name;
    }) as { type?: string; message?: string } | undefined;
  /** The first waiting state with `reason` the pod went through after `from`. */
  const waited = (n: PullNode, name: string, reason: string, from?: Waiting) => async () => {
    const seen = n.waitings.get(name) ?? [];
    return seen.slice(from ? seen.indexOf(from) + 1 : 0).find((w) => w.reason === reason);
  };
  /** ErrImagePull with the registry's answer and a Failed event, then ImagePullBackOff. */
  const refused = async (n: PullNode, name: string, answer: RegExp) => {
    const first = await eventually(waited(n, name, 'ErrImagePull'), 90_000, `${name} ErrImagePull`);
    assert.match(first.message ?? '', new RegExp(`^Failed to pull image "${image('')}.*": .*${answer.source}`));
    const ev = await eventually(async () => event(n, name, 'Failed'), 15_000, `${name} Failed event`);
    assert.match(ev.message ?? '', answer);
    const back = await eventually(waited(n, name, 'ImagePullBackOff', first), 60_000, `${name} ImagePullBackOff`);
    assert.match(back.message ?? '', /^Back-off pulling image "/);
  };

  describe(`images from a private registry on ${runtime}`, { timeout: 400_000 }, () => {
    it('a pod with a dockerconfigjson pull secret pulls and runs', async (t) => {
      const n = on(t);
      if (!n) return;
      await eventually(async () => (getPod(n, 'with-secret')?.status?.phase === 'Running' ? true : undefined), 120_000, 'with-secret Running');
      assert.match(event(n, 'with-secret', 'Pulled')?.message ?? '', /^Successfully pulled image ".*private\/busybox:1"/);
    });

    it('without a secret the registry refuses (401): ErrImagePull, then ImagePullBackOff', async (t) => {
      const n = on(t);
      if (n) await refused(n, 'no-secret', /401 Unauthorized/);
    });

    it('a secret with the wrong password: the registry\'s 401 in ErrImagePull', async (t) => {
      const n = on(t);
      if (n) await refused(n, 'wrong-secret', /401 Unauthorized/);
    });

    it('a missing secret: FailedToRetrieveImagePullSecret, the pull goes on without it', async (t) => {
      const n = on(t);
      if (!n) return;
      const ev = await eventually(async () => event(n, 'missing-secret', 'FailedToRetrieveImagePullSecret'), 60_000, 'FailedToRetrieveImagePullSecret');
      assert.deepEqual([ev.type, ev.message], ['Warning', 'Unable to retrieve some image pull secrets (absent); attempting to pull the image may not succeed.']);
      await refused(n, 'missing-secret', /401 Unauthorized/);
    });

    it('an unreachable registry: ErrImagePull naming the refused connection', async (t) => {
      const n = on(t);
      if (!n) return;
      const w = await eventually(waited(n, 'unreachable', 'ErrImagePull'), 90_000, 'unreachable ErrImagePull');
      assert.match(w.message ?? '', new RegExp(`^Failed to pull image "${n.unreachable}": .*(connection refused|ECONNREFUSED)`));
    });

    it('the static pod pulls with the node\'s credential file (<root-dir>/config.json)', async (t) => {
      const n = on(t);
      if (!n) return;
      const mirror = `st-${node}`;
      await eventually(async () => (getPod(n, mirror)?.status?.phase === 'Running' ? true : undefined), 120_000, `${mirror} Running`);
    });
  });
}

for (const r of RUNTIMES) privateRegistrySuite(r.runtime, r.node);
