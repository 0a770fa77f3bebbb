import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowedHosts, checkHost, checkMutation, checkOrigin, checkSameOriginWrite, checkUpgrade, hostName } from './request-checks.ts';

const H = 'console.example:4194';
const code = (c: { ok: boolean; status?: number }) => (c.ok ? 'ok' : c.status);

test('hostName', () => {
  const cases: Array<[string, string | undefined]> = [
    ['127.0.0.1:4194', '127.0.0.1'], ['LocalHost', 'localhost'], ['[::1]:4194', '::1'], ['[::1]', '::1'],
    ['a:b:c', undefined], ['[zz]', undefined], ['x:99999999', undefined], ['', undefined],
  ];
  for (const [h, want] of cases) assert.equal(hostName(h), want, h);
});

test('checkHost: loopback, the bind address, the node name and NODELET_CONSOLE_HOSTS; IP literals on a wildcard bind', () => {
  const hosts = allowedHosts('10.0.0.5', 'node-1', 'console.example, other.example');
  const cases: Array<[string | undefined, string, number | 'ok']> = [
    ['127.0.0.1:4194', '10.0.0.5', 'ok'], ['localhost:4194', '10.0.0.5', 'ok'], ['[::1]:4194', '10.0.0.5', 'ok'],
    ['10.0.0.5:4194', '10.0.0.5', 'ok'], ['NODE-1:4194', '10.0.0.5', 'ok'], ['console.example', '10.0.0.5', 'ok'],
    ['rebind.evil.example:4194', '10.0.0.5', 403], ['10.0.0.6:4194', '10.0.0.5', 403], [undefined, '10.0.0.5', 400], ['a b', '10.0.0.5', 400],
  ];
  for (const [host, bind, want] of cases) assert.equal(code(checkHost(host === undefined ? {} : { host }, hosts, bind)), want, `${host} on ${bind}`);
  const wild = allowedHosts('0.0.0.0', undefined, undefined);
  assert.equal(code(checkHost({ host: '10.0.0.6:4194' }, wild, '0.0.0.0')), 'ok');
  assert.equal(code(checkHost({ host: 'evil.example' }, wild, '0.0.0.0')), 403);
});

test('checkOrigin / checkSameOriginWrite / checkMutation / checkUpgrade', () => {
  const same = { host: H, origin: `http://${H}`, 'sec-fetch-site': 'same-origin' };
  const json = { 'content-type': 'application/json', 'x-nodelet-csrf': '1' };
  const cases: Array<[string, (h: Record<string, string>) => { ok: boolean; status?: number }, Record<string, string>, number | 'ok']> = [
    ['plain GET', checkOrigin, { host: H }, 'ok'],
    ['typed URL', checkOrigin, { host: H, 'sec-fetch-site': 'none' }, 'ok'],
    ['foreign origin', checkOrigin, { host: H, origin: 'http://evil.example' }, 403],
    ['null origin', checkOrigin, { host: H, origin: 'null' }, 403],
    ['same-site', checkOrigin, { host: H, 'sec-fetch-site': 'same-site' }, 403],
    ['write same-origin', checkSameOriginWrite, same, 'ok'],
    ['write old browser', checkSameOriginWrite, { host: H, origin: `http://${H}` }, 'ok'],
    ['write no evidence', checkSameOriginWrite, { host: H }, 403],
    ['write bearer', checkSameOriginWrite, { host: H, authorization: 'Bearer x' }, 'ok'],
    ['mutation ok', checkMutation, { ...same, ...json }, 'ok'],
    ['mutation json; charset', checkMutation, { ...same, ...json, 'content-type': 'application/json; charset=utf-8' }, 'ok'],
    ['mutation form', checkMutation, { ...same, ...json, 'content-type': 'multipart/form-data; boundary=x' }, 415],
    ['mutation text/plain', checkMutation, { ...same, ...json, 'content-type': 'text/plain' }, 415],
    ['mutation no csrf header', checkMutation, { ...same, 'content-type': 'application/json' }, 403],
    ['mutation cross-site json', checkMutation, { ...json, host: H, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }, 403],
    ['mutation bearer client', checkMutation, { host: H, authorization: 'Bearer x', 'content-type': 'application/json' }, 'ok'],
    ['upgrade own origin', checkUpgrade, { host: H, origin: `http://${H}` }, 'ok'],
    ['upgrade foreign origin', checkUpgrade, { host: H, origin: 'http://evil.example' }, 403],
    ['upgrade no origin, cookie', checkUpgrade, { host: H, cookie: 'a=b' }, 403],
    ['upgrade no origin, bearer', checkUpgrade, { host: H, authorization: 'Bearer x' }, 'ok'],
  ];
  for (const [name, fn, h, want] of cases) assert.equal(code(fn(h)), want, name);
});
