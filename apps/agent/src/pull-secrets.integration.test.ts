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
 * Needs docker-registry, umoci, skopeo, busybox-static (and containerd, runc, CNI plugins for containerd); a
 * missing tool is a skip outside CI and a failure under CI=true.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { ApiServerDouble, KubeObject } from '@nodelet/apiserver-double';
import { buildBusyboxOciLayout, pushToRegistry, startLoopbackRegistry, type LoopbackRegistry } from '@nodelet/runtime/testing';
import { boundPod, startApiNode, staticPodYaml } from './testing/api-node.ts';
import type { NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';
import { tempPrivateContainerd } from './testing/private-containerd.ts';

const ALICE = { username: 'alice', password: 's3cret' };
const TOOLS = ['docker-registry', 'umoci', 'skopeo', 'busybox'];
const missing = TOOLS.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
if (missing.length > 0 && process.env.CI === 'true') throw new Error(`private registry tests need ${missing.join(', ')} under CI`);
const noTools = missing.length > 0 ? `needs ${missing.join(', ')} (apt-get install docker-registry umoci skopeo busybox-static)` : false;

const work = mkdtempSync(join(tmpdir(), 'nodelet-pullsecret-'));
let registry: LoopbackRegistry | undefined;

before(async () => {
  if (noTools) return;
  registry = await startLoopbackRegistry(join(work, 'registry'), [ALICE]);
  const img = await buildBusyboxOciLayout(join(work, 'image'));
  await pushToRegistry(img, registry.host, 'private/busybox:1', ALICE);
  await pushToRegistry(img, registry.host, 'static/busybox:1', ALICE);
});

after(async () => {
  await registry?.stop();
  rmSync(work, { recursive: true, force: true });
});

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

/** The private-registry behaviours on one runtime (endpoint undefined: the embedded runtime). */
function privateRegistrySuite(runtime: string, node: string, setup: () => Promise<{ endpoint?: string; down(): Promise<void> } | string>): void {
  let api: ApiServerDouble;
  let agent: NodeAgent;
  let down: (() => Promise<void>) | undefined;
  let skip: string | false = noTools;
  const getPod = (name: string) => api.store.get('pods', 'default', name) as V1Pod | undefined;
  const waiting = (name: string) => getPod(name)?.status?.containerStatuses?.[0]?.state?.waiting;
  const event = (name: string, reason: string) =>
    api.store.list('events').find((e) => {
      const ev = e as { reason?: string; involvedObject?: { name?: string } };
      return ev.reason === reason && ev.involvedObject?.name === name;
    }) as { type?: string; message?: string } | undefined;
  const image = (path: string) => `${registry!.host}/${path}`;
  const pod = (name: string, secrets: string[], img = image('private/busybox:1')) => {
    const p = boundPod(name, node, { image: img, pullPolicy: 'Always' });
    if (secrets.length > 0) p.spec.imagePullSecrets = secrets.map((s) => ({ name: s }));
    return p;
  };
  /** ErrImagePull with the registry's answer and a Failed event, then ImagePullBackOff. */
  const refused = async (name: string, answer: RegExp) => {
    const first = await eventually(async () => (waiting(name)?.reason === 'ErrImagePull' ? waiting(name) : undefined), 90_000, `${name} ErrImagePull`);
    assert.match(first?.message ?? '', new RegExp(`^Failed to pull image "${image('')}.*": .*${answer.source}`));
    const ev = await eventually(async () => event(name, 'Failed'), 15_000, `${name} Failed event`);
    assert.match(ev.message ?? '', answer);
    const back = await eventually(async () => (waiting(name)?.reason === 'ImagePullBackOff' ? waiting(name) : undefined), 60_000, `${name} ImagePullBackOff`);
    assert.match(back?.message ?? '', /^Back-off pulling image "/);
  };

  describe(`images from a private registry on ${runtime}`, { timeout: 400_000 }, () => {
    before(async () => {
      if (skip) return;
      const r = await setup();
      if (typeof r === 'string') {
        if (process.env.CI === 'true') throw new Error(r);
        skip = r;
        return;
      }
      down = r.down;
      const staticYaml = staticPodYaml('st', { image: image('static/busybox:1'), pullPolicy: 'Always' });
      const nodeCreds = JSON.stringify({ auths: { [`${registry!.host}/static`]: { auth: b64(`${ALICE.username}:${ALICE.password}`) } } });
      ({ api, agent } = await startApiNode(node, {
        staticPod: staticYaml,
        ...(r.endpoint ? { endpoint: r.endpoint } : {}),
        args: (root) => {
          writeFileSync(join(root, 'config.json'), nodeCreds, { mode: 0o600 });
          return [];
        },
      }));
      api.store.create(dockerconfigjson('regcred', `http://${registry!.host}`, ALICE.password));
      api.store.create(dockerconfigjson('wrongcred', registry!.host, 'not-the-password'));
    });

    after(async () => {
      await agent?.cleanup();
      await api?.stop();
      await down?.();
    });

    it('a pod with a dockerconfigjson pull secret pulls and runs', async (t) => {
      if (skip) return t.skip(skip);
      api.store.create(pod('with-secret', ['regcred']));
      await eventually(async () => (getPod('with-secret')?.status?.phase === 'Running' ? true : undefined), 120_000, 'with-secret Running');
      assert.match(event('with-secret', 'Pulled')?.message ?? '', /^Successfully pulled image ".*private\/busybox:1"/);
    });

    it('without a secret the registry refuses (401): ErrImagePull, then ImagePullBackOff', async (t) => {
      if (skip) return t.skip(skip);
      api.store.create(pod('no-secret', []));
      await refused('no-secret', /401 Unauthorized/);
    });

    it('a secret with the wrong password: the registry\'s 401 in ErrImagePull', async (t) => {
      if (skip) return t.skip(skip);
      api.store.create(pod('wrong-secret', ['wrongcred']));
      await refused('wrong-secret', /401 Unauthorized/);
    });

    it('a missing secret: FailedToRetrieveImagePullSecret, the pull goes on without it', async (t) => {
      if (skip) return t.skip(skip);
      api.store.create(pod('missing-secret', ['absent']));
      const ev = await eventually(async () => event('missing-secret', 'FailedToRetrieveImagePullSecret'), 60_000, 'FailedToRetrieveImagePullSecret');
      assert.deepEqual([ev.type, ev.message], ['Warning', 'Unable to retrieve some image pull secrets (absent); attempting to pull the image may not succeed.']);
      await refused('missing-secret', /401 Unauthorized/);
    });

    it('an unreachable registry: ErrImagePull naming the refused connection', async (t) => {
      if (skip) return t.skip(skip);
      const ref = `127.0.0.1:${await closedPort()}/private/busybox:1`;
      api.store.create(pod('unreachable', ['regcred'], ref));
      const w = await eventually(async () => (waiting('unreachable')?.reason === 'ErrImagePull' ? waiting('unreachable') : undefined), 90_000, 'unreachable ErrImagePull');
      assert.match(w?.message ?? '', new RegExp(`^Failed to pull image "${ref}": .*(connection refused|ECONNREFUSED)`));
    });

    it('the static pod pulls with the node\'s credential file (<root-dir>/config.json)', async (t) => {
      if (skip) return t.skip(skip);
      const mirror = `st-${node}`;
      await eventually(async () => (getPod(mirror)?.status?.phase === 'Running' ? true : undefined), 120_000, `${mirror} Running`);
    });
  });
}

privateRegistrySuite('containerd', 'node-pull-ctd', async () => {
  const ctd = await tempPrivateContainerd('nodelet-pullsecret-ctd-');
  if (typeof ctd === 'string') return ctd;
  // The node admin's part: plain HTTP to the loopback registry (certs.d/<host>/hosts.toml, read per pull).
  const host = registry!.host;
  mkdirSync(join(ctd.state, 'certs.d', host), { recursive: true });
  writeFileSync(join(ctd.state, 'certs.d', host, 'hosts.toml'), `server = "http://${host}"\n[host."http://${host}"]\n  capabilities = ["pull", "resolve"]\n`);
  return { endpoint: ctd.endpoint, down: ctd.down };
});

privateRegistrySuite('the embedded runtime', 'node-pull-emb', async () => ({ down: async () => {} }));
