/**
 * The keyring's matching, with the cases and expected values of upstream pkg/credentialprovider keyring_test.go
 * (TestURLsMatch, TestDockerKeyringForGlob, TestKeyringMiss, the Docker Hub tests, TestIsDefaultRegistryMatch,
 * TestDockerKeyringLookup, TestIssue3797).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BasicDockerKeyring, UnionDockerKeyring, isDefaultRegistryMatch, urlsMatchStr, type AuthConfig } from './keyring.ts';
import { parseDockercfg } from './config.ts';

const auth = Buffer.from('foo:bar').toString('base64');
const sample = (loc: string) => JSON.stringify({ [loc]: { email: 'foo@bar.baz', auth } });

function keyringOf(text: string): BasicDockerKeyring {
  const cfg = parseDockercfg(text);
  assert.ok(cfg.ok, text);
  const k = new BasicDockerKeyring();
  k.add(cfg.config);
  return k;
}

test('urlsMatch: host globs per dot-separated part, equal ports, path prefix', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*.kubernetes.io', 'prefix.kubernetes.io', true],
    ['prefix.*.io', 'prefix.kubernetes.io', true],
    ['prefix.kubernetes.*', 'prefix.kubernetes.io', true],
    ['*-good.kubernetes.io', 'prefix-good.kubernetes.io', true],
    ['*.kubernetes.io/blah', 'prefix.kubernetes.io/blah', true],
    ['prefix.*.io/foo', 'prefix.kubernetes.io/foo/bar', true],
    ['*.kubernetes.io:1111/blah', 'prefix.kubernetes.io:1111/blah', true],
    ['prefix.*.io:1111/foo', 'prefix.kubernetes.io:1111/foo/bar', true],
    ['*.kubernetes.io', 'kubernetes.io', false],
    ['*.*.kubernetes.io', 'prefix.kubernetes.io', false],
    ['*.*.kubernetes.io', 'kubernetes.io', false],
    ['kubernetes.io', 'kubernetes.com', false],
    ['k*.io', 'quay.io', false],
    ['*.kubernetes.io:1234/blah', 'prefix.kubernetes.io:1111/blah', false],
    ['prefix.*.io/foo', 'prefix.kubernetes.io:1111/foo/bar', false],
  ];
  for (const [glob, target, want] of cases) assert.equal(urlsMatchStr(glob, target), want, `${glob} ~ ${target}`);
});

test('a keyring entry (with or without scheme, /v1/ and /v2/ ignored) serves images under it', () => {
  const cases: Array<[string, string]> = [
    ['https://hello.kubernetes.io', 'hello.kubernetes.io'],
    ['https://*.docker.io', 'prefix.docker.io'],
    ['https://prefix.*.io', 'prefix.docker.io'],
    ['https://prefix.docker.*', 'prefix.docker.io'],
    ['https://*.docker.io/path', 'prefix.docker.io/path'],
    ['https://prefix.*.io/path', 'prefix.docker.io/path/subpath'],
    ['https://prefix.docker.*/path', 'prefix.docker.io/path'],
    ['https://*.docker.io:8888', 'prefix.docker.io:8888'],
    ['https://prefix.*.io:8888', 'prefix.docker.io:8888'],
    ['https://prefix.docker.*:8888', 'prefix.docker.io:8888'],
    ['https://*.docker.io/path:1111', 'prefix.docker.io/path:1111'],
    ['https://*.docker.io/v1/', 'prefix.docker.io/path:1111'],
    ['https://*.docker.io/v2/', 'prefix.docker.io/path:1111'],
    ['https://prefix.docker.*/path:1111', 'prefix.docker.io/path:1111'],
    ['prefix.docker.io:1111', 'prefix.docker.io:1111/path'],
    ['*.docker.io:1111', 'prefix.docker.io:1111/path'],
  ];
  for (const [glob, target] of cases) {
    const { creds, ok } = keyringOf(sample(glob)).lookup(`${target}/foo/bar`);
    assert.ok(ok, `${glob} serves ${target}`);
    assert.deepEqual(creds[0], { username: 'foo', password: 'bar', email: 'foo@bar.baz' }, glob);
  }
});

test('a keyring entry does not serve other registries', () => {
  const cases: Array<[string, string]> = [
    ['https://hello.kubernetes.io', 'world.mesos.org/foo/bar'],
    ['https://*.docker.com', 'prefix.docker.io'],
    ['https://suffix.*.io', 'prefix.docker.io'],
    ['https://prefix.docker.c*', 'prefix.docker.io'],
    ['https://prefix.*.io/path:1111', 'prefix.docker.io/path/subpath:1111'],
    ['suffix.*.io', 'prefix.docker.io'],
  ];
  for (const [glob, lookup] of cases) assert.equal(keyringOf(sample(glob)).lookup(`${lookup}/foo/bar`).ok, false, `${glob} !~ ${lookup}`);
});

test('Docker Hub credentials (https://index.docker.io/v1/) serve unqualified and docker.io images only', () => {
  const k = keyringOf(sample('https://index.docker.io/v1/'));
  assert.equal(k.lookup('world.mesos.org/foo/bar').ok, false);
  for (const image of ['google/docker-registry', 'jenkins', 'index.docker.io/v1//google/docker-registry', 'docker.io/library/busybox']) {
    const { creds, ok } = k.lookup(image);
    assert.ok(ok, image);
    assert.equal(creds[0]?.username, 'foo', image);
  }
  assert.equal(k.lookup('jenkins').creds.length, 1);
});

test('isDefaultRegistryMatch', () => {
  const cases: Array<[string, boolean]> = [
    ['foo/bar', true], ['docker.io/foo/bar', true], ['index.docker.io/foo/bar', true], ['foo', true],
    ['', false], ['registry.tld/foo/bar', false], ['registry:5000/foo/bar', false], ['myhostdocker.io/foo/bar', false],
  ];
  for (const [image, want] of cases) assert.equal(isDefaultRegistryMatch(image), want, image);
});

test('lookup: the more specific path first, then the host', () => {
  const ada: AuthConfig = { username: 'ada', password: 'smash', email: 'ada@example.com' };
  const grace: AuthConfig = { username: 'grace', password: 'squash', email: 'grace@example.com' };
  const k = new BasicDockerKeyring();
  k.add(new Map([['bar.example.com/pong', grace], ['bar.example.com', ada]]));
  const cases: Array<[string, AuthConfig[], boolean]> = [
    ['bar.example.com', [ada], true],
    ['bar.example.com/pong', [grace, ada], true],
    ['bar.example.com/ping', [ada], true],
    ['bar.example.com/pongz', [grace, ada], true],
    ['bar.example.com/pong/pang', [grace, ada], true],
    ['example.com', [], false],
    ['foo.example.com', [], false],
  ];
  for (const [image, creds, ok] of cases) assert.deepEqual(k.lookup(image), { creds, ok }, image);
});

test('an entry with a scheme and /v1/ path serves every image of its host (issue 3797)', () => {
  const rex: AuthConfig = { username: 'rex', password: 'tiny arms', email: 'rex@example.com' };
  const k = new BasicDockerKeyring();
  k.add(new Map([['https://quay.io/v1/', rex]]));
  for (const image of ['quay.io', 'quay.io/foo', 'quay.io/foo/bar']) assert.deepEqual(k.lookup(image), { creds: [rex], ok: true }, image);
});

test('a union keyring lists every keyring\'s credentials in order', () => {
  const a = new BasicDockerKeyring();
  a.add(new Map([['127.0.0.1:5000', { username: 'from-secret', password: 'x' }]]));
  const b = new BasicDockerKeyring();
  b.add(new Map([['127.0.0.1:5000', { username: 'from-node', password: 'y' }]]));
  const u = new UnionDockerKeyring([a, undefined, b]);
  assert.deepEqual(u.lookup('127.0.0.1:5000/busybox').creds.map((c) => c.username), ['from-secret', 'from-node']);
  assert.equal(u.lookup('127.0.0.1:5001/busybox').ok, false);
});
