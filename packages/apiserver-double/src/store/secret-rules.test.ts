/**
 * Secrets through the registry, with the v1.28 API server's answers (pkg/apis/core/validation ValidateSecret /
 * ValidateSecretUpdate, v1 defaults and the stringData conversion): what `kubectl create secret docker-registry`
 * sends is accepted; a dockerconfigjson / dockercfg Secret without its key, or whose key is not a JSON object, is
 * 422 Invalid; stringData lands in data; the type and an immutable Secret's data cannot change.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '@nodelet/core/testing';
import { thrownStatus } from '../testing/thrown-status.ts';
import { Registry } from './registry.ts';
import { RawStore } from './store.ts';

function setup() {
  const reg = new Registry(new FakeClock(Date.UTC(2026, 0, 1)), new RawStore({}));
  reg.create(reg.resource('', 'namespaces'), undefined, { metadata: { name: 'default' } });
  return { reg, secrets: reg.resource('', 'secrets') };
}
const b64 = (s: string) => Buffer.from(s).toString('base64');

test('a docker-registry Secret as kubectl sends it is stored; type defaults to Opaque; stringData goes into data', () => {
  const { reg, secrets } = setup();
  const cfg = b64(JSON.stringify({ auths: { 'r.example': { username: 'u', password: 'p', auth: b64('u:p') } } }));
  const s = reg.create(secrets, 'default', { metadata: { name: 'regcred' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': cfg } });
  assert.equal(s.type, 'kubernetes.io/dockerconfigjson');
  const o = reg.create(secrets, 'default', { metadata: { name: 'plain' }, data: { a: b64('1') }, stringData: { a: 'over', b: 'two' } });
  assert.equal(o.type, 'Opaque');
  assert.deepEqual(o.data, { a: b64('over'), b: b64('two') });
  assert.equal(o.stringData, undefined);
});

test('dockerconfigjson / dockercfg Secrets need their key holding a JSON object', () => {
  const { reg, secrets } = setup();
  const cases: Array<[string, Record<string, string>, string]> = [
    ['kubernetes.io/dockerconfigjson', {}, 'Secret "s" is invalid: data[.dockerconfigjson]: Required value'],
    ['kubernetes.io/dockercfg', { '.dockerconfigjson': b64('{}') }, 'Secret "s" is invalid: data[.dockercfg]: Required value'],
    ['kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('{"auths":') }, 'Secret "s" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input'],
    ['kubernetes.io/dockercfg', { '.dockercfg': b64('x') }, `Secret "s" is invalid: data[.dockercfg]: Invalid value: "<secret contents redacted>": invalid character 'x' looking for beginning of value`],
    ['kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('[]') }, 'Secret "s" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['kubernetes.io/tls', {}, 'Secret "s" is invalid: [data[tls.crt]: Required value, data[tls.key]: Required value]'],
    ['Opaque', { 'bad key': b64('x') }, `Secret "s" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.'`],
  ];
  for (const [type, data, message] of cases) {
    const st = thrownStatus(() => reg.create(secrets, 'default', { metadata: { name: 's' }, type, data }));
    assert.equal(st.code, 422, message);
    assert.ok(st.message.startsWith(message), `${st.message}\n  wanted ${message}`);
  }
  reg.create(secrets, 'default', { metadata: { name: 'nulljson' }, type: 'kubernetes.io/dockercfg', data: { '.dockercfg': b64('null') } });
});

test('updates: the type is immutable; an immutable Secret keeps its data and stays immutable', () => {
  const { reg, secrets } = setup();
  reg.create(secrets, 'default', { metadata: { name: 't' }, data: { a: b64('1') } });
  const typeChange = thrownStatus(() => reg.update(secrets, 'default', 't', { metadata: { name: 't' }, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } }));
  assert.equal(typeChange.message, 'Secret "t" is invalid: type: Invalid value: "kubernetes.io/tls": field is immutable');
  reg.create(secrets, 'default', { metadata: { name: 'i' }, immutable: true, data: { a: b64('1') } });
  const dataChange = thrownStatus(() => reg.update(secrets, 'default', 'i', { metadata: { name: 'i' }, immutable: true, data: { a: b64('2') } }));
  assert.equal(dataChange.message, 'Secret "i" is invalid: data: Forbidden: field is immutable when `immutable` is set');
  const unset = thrownStatus(() => reg.update(secrets, 'default', 'i', { metadata: { name: 'i' }, immutable: false, data: { a: b64('1') } }));
  assert.equal(unset.message, 'Secret "i" is invalid: immutable: Forbidden: field is immutable when `immutable` is set');
  reg.update(secrets, 'default', 't', { metadata: { name: 't' }, data: { a: b64('3') } }); // type "" defaults to Opaque: unchanged
});
