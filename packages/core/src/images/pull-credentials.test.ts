/**
 * Pulls with registry credentials as the kubelet's kuberuntime_image.go PullImage and getPullSecretsForPod
 * (kubelet_pods.go): the pod's pull secrets (dockerconfigjson / dockercfg) before the node's keyring, each
 * matching credential tried in turn as the CRI AuthConfig, anonymous without a match, a missing secret logged
 * with the FailedToRetrieveImagePullSecret event and left out, a secret that does not parse → ErrImagePull.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Secret } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import type { AuthConfig, PullImageRequest } from '../cri/types.ts';
import { BasicDockerKeyring } from '../credentialprovider/keyring.ts';
import { KubeImageManager } from './image-manager.ts';
import { aggregate, repoToPull } from './pull-credentials.ts';
import { pullSecretsForPod } from '../kuberuntime/pull-secrets.ts';
import { container, makePod } from '../kuberuntime/testing/builders.ts';
import type { PodObjectSource } from '../podobjects/types.ts';

const REG = '127.0.0.1:5000';
const b64 = (s: string) => Buffer.from(s).toString('base64');

function dockerconfigjson(name: string, registry: string, user: string, pass: string): V1Secret {
  const body = JSON.stringify({ auths: { [registry]: { auth: b64(`${user}:${pass}`) } } });
  return { metadata: { name, namespace: 'default' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64(body) } };
}

/** A registry behind CRI PullImage that accepts only alice:s3cret (the error text as containerd words a 401). */
function registryCri() {
  const pulls: Array<AuthConfig | null | undefined> = [];
  const present = new Set<string>();
  const cri = {
    async imageStatus(req: { image?: { image?: string } | null }) {
      const image = req.image?.image ?? '';
      return { image: present.has(image) ? { id: `sha256:${image.length}`, size: '10' } : null, info: {} };
    },
    async pullImage(req: PullImageRequest) {
      pulls.push(req.auth);
      const image = req.image?.image ?? '';
      if (req.auth?.username !== 'alice' || req.auth.password !== 's3cret') {
        throw Object.assign(new Error('2 UNKNOWN'), { details: `failed to pull and unpack image "${image}": 401 Unauthorized (user ${req.auth?.username ?? 'anonymous'})` });
      }
      present.add(image);
      return { imageRef: `sha256:${image.length}` };
    },
  };
  return { cri, pulls };
}

function manager(node?: BasicDockerKeyring) {
  const { cri, pulls } = registryCri();
  const events: string[] = [];
  const m = new KubeImageManager({
    cri: cri as never, clock: new FakeClock(), logger: nullLogger,
    events: (_p, type, reason, msg) => events.push(`${type} ${reason}: ${msg}`),
    ...(node ? { nodeKeyring: async () => node } : {}),
  });
  return { m, pulls, events };
}

const ctr = container('c', { image: `${REG}/busybox:latest`, imagePullPolicy: 'Always' });
const pod = makePod({ containers: [ctr] });

test('repoToPull normalizes as Docker: Hub images under docker.io/library, other registries as written', () => {
  assert.equal(repoToPull('busybox:latest'), 'docker.io/library/busybox');
  assert.equal(repoToPull('user/app@sha256:' + 'a'.repeat(64)), 'docker.io/user/app');
  assert.equal(repoToPull('index.docker.io/user/app:1'), 'docker.io/user/app');
  assert.equal(repoToPull(`${REG}/team/app:1`), `${REG}/team/app`);
  assert.equal(repoToPull('localhost/app:1'), 'localhost/app');
});

test('the kubelet\'s error aggregate: one message alone, several deduplicated in brackets', () => {
  assert.equal(aggregate(['a']), 'a');
  assert.equal(aggregate(['a', 'b', 'a']), '[a, b]');
  assert.equal(aggregate(['a', 'a']), 'a');
});

test('without credentials for the registry the pull is anonymous and fails with the registry\'s answer', async () => {
  const { m, pulls, events } = manager();
  const r = await m.ensureImageExists(pod, ctr, [dockerconfigjson('other', 'registry.example.com', 'alice', 's3cret')]);
  assert.deepEqual(r, { ok: false, reason: 'ErrImagePull', message: `Failed to pull image "${REG}/busybox:latest": failed to pull and unpack image "${REG}/busybox:latest": 401 Unauthorized (user anonymous)` });
  assert.deepEqual(pulls, [undefined]);
  assert.ok(events.includes(`Warning Failed: ${r.ok ? '' : r.message}`), events.join('\n'));
});

test('each matching credential is tried in turn, the pull secrets before the node keyring', async () => {
  const node = new BasicDockerKeyring();
  node.add(new Map([[`http://${REG}`, { username: 'alice', password: 's3cret' }]]));
  const { m, pulls } = manager(node);
  const r = await m.ensureImageExists(pod, ctr, [dockerconfigjson('wrong', REG, 'bob', 'nope')]);
  assert.equal(r.ok, true);
  assert.deepEqual(pulls, [{ username: 'bob', password: 'nope' }, { username: 'alice', password: 's3cret' }]);
});

test('every credential refused: ErrImagePull with each answer joined', async () => {
  const dockercfg: V1Secret = { metadata: { name: 'legacy' }, type: 'kubernetes.io/dockercfg', data: { '.dockercfg': b64(JSON.stringify({ [`https://${REG}/v1/`]: { username: 'carol', password: 'x' } })) } };
  const { m, pulls } = manager();
  const r = await m.ensureImageExists(pod, ctr, [dockerconfigjson('wrong', REG, 'bob', 'nope'), dockercfg]);
  assert.equal(r.ok ? '' : r.message, `Failed to pull image "${REG}/busybox:latest": [failed to pull and unpack image "${REG}/busybox:latest": 401 Unauthorized (user bob), failed to pull and unpack image "${REG}/busybox:latest": 401 Unauthorized (user carol)]`);
  assert.equal(pulls.length, 2);
});

test('secrets of other types, or of the right type without the key, are ignored', async () => {
  const opaque: V1Secret = { metadata: { name: 'o' }, type: 'Opaque', data: { '.dockerconfigjson': dockerconfigjson('x', REG, 'alice', 's3cret').data!['.dockerconfigjson']! } };
  const wrongKey: V1Secret = { metadata: { name: 'k' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockercfg': b64('{}') } };
  const { m, pulls } = manager();
  await m.ensureImageExists(pod, ctr, [opaque, wrongKey]);
  assert.deepEqual(pulls, [undefined]);
});

test('a pull secret that does not parse fails the pull (ErrImagePull) without calling the runtime', async () => {
  const bad: V1Secret = { metadata: { name: 'bad' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths": {"r": {"auth": "pants"}}}') } };
  const { m, pulls } = manager();
  const r = await m.ensureImageExists(pod, ctr, [bad]);
  assert.deepEqual(r.ok ? undefined : [r.reason, r.message], ['ErrImagePull', `Failed to pull image "${REG}/busybox:latest": illegal base64 data at input byte 4`]);
  assert.deepEqual(pulls, []);
});

test('pull secrets: fetched by name; a missing one is left out with the FailedToRetrieveImagePullSecret event', async () => {
  const good = dockerconfigjson('regcred', REG, 'alice', 's3cret');
  const objects: PodObjectSource = {
    getConfigMap: async () => ({ ok: false, notFound: true, message: 'unused' }),
    getSecret: async (_pod, name) => (name === 'regcred' ? { ok: true, object: good } : { ok: false, notFound: true, message: `secret "${name}" not found` }),
  };
  const events: string[] = [];
  const p = makePod({ containers: [ctr] });
  p.spec!.imagePullSecrets = [{ name: 'regcred' }, { name: '' }, { name: 'gone' }, { name: 'gone2' }];
  const secrets = await pullSecretsForPod({ objects, events: (_p, type, reason, msg) => events.push(`${type} ${reason}: ${msg}`), log: nullLogger }, p);
  assert.deepEqual(secrets, [good]);
  assert.deepEqual(events, ['Warning FailedToRetrieveImagePullSecret: Unable to retrieve some image pull secrets (gone, gone2); attempting to pull the image may not succeed.']);
  events.length = 0;
  assert.deepEqual(await pullSecretsForPod({ objects, events: () => events.push('x'), log: nullLogger }, makePod({})), []);
  assert.deepEqual(events, [], 'no imagePullSecrets: no event');
});
