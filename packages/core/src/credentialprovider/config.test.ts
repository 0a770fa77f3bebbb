/**
 * Docker credential files and the node's search paths, with upstream pkg/credentialprovider config_test.go's
 * cases (TestDockerConfigJSONDecode, TestDockerConfigEntryJSONDecode, TestDecodeDockerConfigFieldAuth,
 * TestReadDockerConfigFile) and the search order of config.go (DefaultDockerConfigJSONPaths, then the legacy
 * DefaultDockercfgPaths; the first file that parses wins; CachingDockerConfigProvider's 5 minutes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { decodeAuthField, parseDockercfg, parseDockerConfigJson } from './config.ts';
import { credentialFileCandidates, NodeCredentials, readNodeDockerConfig } from './node-credentials.ts';

test('config.json auths and .dockercfg maps decode username, password and email', () => {
  const entries = '{"http://foo.example.com":{"username": "foo", "password": "bar", "email": "foo@example.com"}, "http://bar.example.com":{"username": "bar", "password": "baz", "email": "bar@example.com"}}';
  const want = new Map([
    ['http://foo.example.com', { username: 'foo', password: 'bar', email: 'foo@example.com' }],
    ['http://bar.example.com', { username: 'bar', password: 'baz', email: 'bar@example.com' }],
  ]);
  assert.deepEqual(parseDockercfg(entries), { ok: true, config: want });
  assert.deepEqual(parseDockerConfigJson(`{"auths": ${entries}}`), { ok: true, config: want });
  assert.deepEqual(parseDockerConfigJson('{"credsStore": "desktop"}'), { ok: true, config: new Map() }, 'no auths: an empty config');
  assert.deepEqual(parseDockerConfigJson('{"AUTHS": {"r.io": {"Username": "u", "PASSWORD": "p"}}}'), { ok: true, config: new Map([['r.io', { username: 'u', password: 'p' }]]) }, 'keys match ignoring case');
});

test('an entry: auth decodes to username and password and overrides them; bad auth or types fail', () => {
  const one = (entry: string) => {
    const r = parseDockercfg(`{"r": ${entry}}`);
    return r.ok ? r.config.get('r') : undefined;
  };
  assert.deepEqual(one('{"username": "foo", "password": "bar", "email": "foo@example.com"}'), { username: 'foo', password: 'bar', email: 'foo@example.com' });
  assert.deepEqual(one('{"auth": "Zm9vOmJhcg==", "email": "foo@example.com"}'), { username: 'foo', password: 'bar', email: 'foo@example.com' });
  assert.deepEqual(one('{"username": "foo", "password": "bar", "auth": "cGluZzpwb25n", "email": "foo@example.com"}'), { username: 'ping', password: 'pong', email: 'foo@example.com' });
  assert.equal(one('{"auth": "pants", "email": "foo@example.com"}'), undefined);
  assert.equal(one('{"email": false}'), undefined);
  assert.equal(parseDockercfg('{"r": "x"}').ok, false);
  assert.equal(parseDockercfg('not json').ok, false);
});

test('the auth field: base64 of user:pass, padded or not', () => {
  assert.deepEqual(decodeAuthField('Zm9vOmJhcg=='), { ok: true, username: 'foo', password: 'bar' });
  assert.deepEqual(decodeAuthField('Zm9vOmJhcg'), { ok: true, username: 'foo', password: 'bar' }, 'unpadded');
  assert.deepEqual(decodeAuthField('dTpwOnE='), { ok: true, username: 'u', password: 'p:q' }, 'split at the first colon');
  assert.deepEqual(decodeAuthField('cGFudHM='), { ok: false, message: 'unable to parse auth field, must be formatted as base64(username:password)' });
  assert.equal(decodeAuthField('pants').ok, false);
  assert.equal(decodeAuthField('Zm9v!mJhcg==').ok, false);
});

function files(map: Record<string, string>) {
  const reads: string[] = [];
  const readFile = async (f: string) => {
    reads.push(f);
    if (f in map) return map[f]!;
    throw Object.assign(new Error(`ENOENT: ${f}`), { code: 'ENOENT' });
  };
  return { reads, readFile };
}

const cfg = { rootDir: '/var/lib/nodelet', cwd: '/srv', home: '/home/k' };
const json = (user: string) => JSON.stringify({ auths: { 'r.example': { username: user, password: 'p' } } });

test('node credentials: config.json in root-dir, cwd, $HOME/.docker, /.docker, then the legacy .dockercfg ones', async () => {
  assert.deepEqual(credentialFileCandidates(cfg).map((c) => c.file), [
    '/var/lib/nodelet/config.json', '/srv/config.json', '/home/k/.docker/config.json', '/.docker/config.json',
    '/var/lib/nodelet/.dockercfg', '/srv/.dockercfg', '/home/k/.dockercfg', '/.dockercfg',
  ]);
  const user = async (map: Record<string, string>) => (await readNodeDockerConfig({ ...files(map), clock: new FakeClock(), logger: nullLogger }, cfg)).config.get('r.example')?.username;
  assert.equal(await user({ '/home/k/.docker/config.json': json('home'), '/srv/config.json': json('cwd') }), 'cwd');
  assert.equal(await user({ '/var/lib/nodelet/config.json': '{broken', '/.docker/config.json': json('slash') }), 'slash', 'a file that does not parse is skipped');
  assert.equal(await user({ '/home/k/.dockercfg': JSON.stringify({ 'r.example': { auth: Buffer.from('legacy:p').toString('base64') } }) }), 'legacy');
  assert.equal(await user({ '/var/lib/nodelet/config.json': '{}', '/srv/.dockercfg': JSON.stringify({ 'r.example': { username: 'legacy' } }) }), undefined, 'an empty but valid config.json wins');
  assert.equal(await user({}), undefined);
});

test('node credentials are read again after 5 minutes', async () => {
  const clock = new FakeClock();
  const map: Record<string, string> = {};
  const fsFake = files(map);
  const node = new NodeCredentials({ readFile: fsFake.readFile, clock, logger: nullLogger }, cfg);
  assert.equal((await node.keyring()).lookup('r.example/x').ok, false);
  map['/var/lib/nodelet/config.json'] = json('late');
  await clock.step(299_000);
  assert.equal((await node.keyring()).lookup('r.example/x').ok, false, 'cached');
  await clock.step(1_000);
  assert.equal((await node.keyring()).lookup('r.example/x').creds[0]?.username, 'late');
});
