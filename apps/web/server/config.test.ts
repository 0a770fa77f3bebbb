import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAgentPath, pkiFiles, readConsoleConfig } from './config.ts';

test('readConsoleConfig defaults and overrides', () => {
  const d = readConsoleConfig({});
  assert.ok(d.ok);
  assert.equal(d.config.port, 4194);
  assert.equal(d.config.hostname, '127.0.0.1');
  assert.equal(d.config.agentUrl.href, 'https://127.0.0.1:10250/');
  assert.equal(d.config.pkiDir, '/var/lib/kubelet/pki');
  assert.equal(d.config.dev, false);
  const o = readConsoleConfig({ PORT: '5000', HOSTNAME: '0.0.0.0', NODELET_AGENT_URL: 'https://node:11250', NODELET_PKI_DIR: '/tmp/p', NODELET_WEB_DEV: '1' });
  assert.ok(o.ok);
  assert.deepEqual([o.config.port, o.config.hostname, o.config.agentUrl.host, o.config.pkiDir, o.config.dev], [5000, '0.0.0.0', 'node:11250', '/tmp/p', true]);
});

test('readConsoleConfig rejects bad values', () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'abc' }, /invalid PORT/],
    [{ PORT: '70000' }, /invalid PORT/],
    [{ NODELET_AGENT_URL: 'not a url' }, /invalid NODELET_AGENT_URL/],
    [{ NODELET_AGENT_URL: 'ftp://x' }, /must be http/],
  ];
  for (const [env, re] of cases) {
    const r = readConsoleConfig(env);
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.reason, re);
  }
});

test('isAgentPath', () => {
  const cases: Array<[string | undefined, boolean]> = [
    ['/trpc/pods.list?batch=1', true],
    ['/trpc', true],
    ['/socket.io/?EIO=4&transport=polling', true],
    ['/trpcx', false],
    ['/socket.iox/', false],
    ['/', false],
    ['/pods/default/trpc', false],
    ['/api/v1.3/machine', true],
    ['/api/v2.0/stats?type=docker&count=1', true],
    ['/apix', false],
    ['/containers/api/v1.3', false],
    [undefined, false],
  ];
  for (const [url, want] of cases) assert.equal(isAgentPath(url), want, String(url));
});

test('pkiFiles', () => {
  assert.deepEqual(pkiFiles('/p'), { ca: '/p/ca.crt', cert: '/p/console.crt', key: '/p/console.key' });
});
