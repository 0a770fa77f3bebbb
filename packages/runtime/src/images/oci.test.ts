import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MEDIA, parseManifest, selectPlatform, toImageConfig, userOf, type Descriptor } from './oci.ts';
import { basicHeader, parseChallenge } from './registry-auth.ts';

const d = (c: string) => 'sha256:' + c.repeat(64);

test('parseManifest: index, manifest (OCI and Docker), errors', () => {
  const manifest = { schemaVersion: 2, mediaType: MEDIA.dockerManifest, config: { mediaType: MEDIA.dockerConfig, digest: d('a'), size: 1 }, layers: [{ mediaType: 'x', digest: d('b'), size: 2 }] };
  const m = parseManifest(JSON.stringify(manifest));
  assert.ok(!('error' in m) && m.kind === 'manifest' && m.layers.length === 1);
  const noType = { schemaVersion: 2, manifests: [{ mediaType: MEDIA.ociManifest, digest: d('c'), size: 3 }] };
  const i = parseManifest(JSON.stringify(noType), `${MEDIA.ociIndex}; charset=utf-8`);
  assert.ok(!('error' in i) && i.kind === 'index' && i.manifests.length === 1);
  const errors: Array<[string, RegExp]> = [
    ['not json', /not JSON/],
    [JSON.stringify({ schemaVersion: 1 }), /schema version 1/],
    [JSON.stringify({ schemaVersion: 2, config: { digest: 'md5:x', size: 1 }, layers: [] }), /invalid manifest/],
    [JSON.stringify({ schemaVersion: 2, mediaType: MEDIA.ociIndex, manifests: [{ digest: d('a') }] }), /invalid index/],
  ];
  for (const [body, re] of errors) {
    const r = parseManifest(body);
    assert.ok('error' in r, body);
    assert.match(r.error, re);
  }
});

test('selectPlatform: host arch from an index, skipping attestations', () => {
  const entry = (digest: string, architecture?: string, extra: Partial<Descriptor> = {}): Descriptor => ({
    mediaType: MEDIA.ociManifest, digest, size: 1, ...(architecture ? { platform: { os: 'linux', architecture } } : {}), ...extra,
  });
  const list = [
    entry(d('1'), 'arm64'),
    entry(d('2'), 'amd64'),
    entry(d('3'), undefined, { annotations: { 'vnd.docker.reference.type': 'attestation-manifest' } }),
  ];
  assert.equal(selectPlatform(list, 'amd64')?.digest, d('2'));
  assert.equal(selectPlatform(list, 'arm64')?.digest, d('1'));
  assert.equal(selectPlatform(list, 's390x'), undefined);
  assert.equal(selectPlatform([...list, entry(d('4'))], 's390x')?.digest, d('4'));
});

test('toImageConfig and userOf: CRI fields', () => {
  const cfg = toImageConfig({ config: { Entrypoint: ['/bin/app'], Cmd: null, Env: ['A=1'], User: '1000:1000', StopSignal: 'SIGINT', Labels: { k: 'v' } } });
  assert.deepEqual(cfg, { entrypoint: ['/bin/app'], cmd: [], env: ['A=1'], workingDir: '', user: '1000:1000', stopSignal: 'SIGINT', labels: { k: 'v' } });
  assert.deepEqual(toImageConfig({}), { entrypoint: [], cmd: [], env: [], workingDir: '', user: '', labels: {} });
  const users: Array<[string, object]> = [['', {}], ['0', { uid: 0 }], ['1000:1000', { uid: 1000 }], ['nobody', { username: 'nobody' }], ['www:www', { username: 'www' }]];
  for (const [u, want] of users) assert.deepEqual(userOf(u), want, u);
});

test('parseChallenge and basicHeader', () => {
  assert.deepEqual(parseChallenge('Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/busybox:pull"'), {
    scheme: 'bearer',
    params: { realm: 'https://auth.docker.io/token', service: 'registry.docker.io', scope: 'repository:library/busybox:pull' },
  });
  assert.deepEqual(parseChallenge('Basic realm="Registry Realm"'), { scheme: 'basic', params: { realm: 'Registry Realm' } });
  assert.equal(parseChallenge('Negotiate abc'), undefined);
  assert.equal(parseChallenge(null), undefined);
  assert.equal(basicHeader({ username: 'a', password: 'b' }), 'Basic ' + Buffer.from('a:b').toString('base64'));
  assert.equal(basicHeader({ auth: 'eHg6eXk=' }), 'Basic eHg6eXk=');
  assert.equal(basicHeader({ registryToken: 't' }), undefined);
  assert.equal(basicHeader(undefined), undefined);
});
