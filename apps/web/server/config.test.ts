import { test } from 'node:test';
import assert from 'node:assert/strict';
import { caFile, readConsoleConfig } from './config.ts';

test('readConsoleConfig defaults and overrides', () => {
  const d = readConsoleConfig({});
  assert.ok(d.ok);
  assert.equal(d.config.port, 4194);
  assert.equal(d.config.hostname, '127.0.0.1');
  assert.equal(d.config.agentUrl.href, 'https://127.0.0.1:10250/');
  assert.equal(d.config.pkiDir, '/var/lib/kubelet/pki');
  assert.equal(d.config.dev, false);
  const o = readConsoleConfig({ PORT: '5000', NODELET_CONSOLE_ADDRESS: '0.0.0.0', NODELET_AGENT_URL: 'https://node:11250', NODELET_PKI_DIR: '/tmp/p', NODELET_WEB_DEV: '1' });
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

test('caFile: only the CA from the PKI dir (no console client certificate)', () => {
  assert.equal(caFile('/p'), '/p/ca.crt');
});

test('limits, session lifetime and host names', () => {
  const d = readConsoleConfig({}, 'vm');
  assert.ok(d.ok);
  assert.deepEqual([d.config.nodeName, d.config.sessionTtlMs, d.config.limits.maxConnections], ['vm', 12 * 3600_000, 512]);
  const o = readConsoleConfig({ NODELET_NODE_NAME: 'n1', NODELET_CONSOLE_HOSTS: 'a.example', NODELET_CONSOLE_SESSION_HOURS: '2', NODELET_CONSOLE_MAX_CONNECTIONS: '9' }, 'vm');
  assert.ok(o.ok);
  assert.deepEqual([o.config.nodeName, o.config.extraHosts, o.config.sessionTtlMs, o.config.limits.maxConnections], ['n1', 'a.example', 2 * 3600_000, 9]);
  const bad = readConsoleConfig({ NODELET_CONSOLE_MAX_CONNECTIONS: '0' });
  assert.equal(bad.ok, false);
  // HOSTNAME (exported by container runtimes as the container's name) never changes the bind address.
  const h = readConsoleConfig({ HOSTNAME: 'abc123' });
  assert.ok(h.ok);
  assert.equal(h.config.hostname, '127.0.0.1');
});
