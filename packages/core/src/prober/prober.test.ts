import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Container, V1Probe } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { expandStatic, NO_POD_IP_OUTPUT, resolveContainerPort, runProbe } from './prober.ts';
import { FakeProbeRunner, type RunnerCall } from './testing/fakes.ts';

const app: V1Container = {
  name: 'app',
  image: 'img',
  ports: [{ name: 'http', containerPort: 8080 }],
  env: [{ name: 'PORT', value: '9000' }, { name: 'SECRET', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
};

test('expandStatic: $(VAR) from literal env, unknown kept, $$ escapes', () => {
  assert.deepEqual(expandStatic(['curl', 'localhost:$(PORT)', '$(SECRET)', '$(NOPE)', '$$(PORT)', 'a$b', '$(open'], app), [
    'curl',
    'localhost:9000',
    '$(SECRET)',
    '$(NOPE)',
    '$(PORT)',
    'a$b',
    '$(open',
  ]);
});

test('resolveContainerPort: number, declared name, undeclared name, out of range', () => {
  assert.deepEqual(resolveContainerPort(80, app), { ok: true, port: 80 });
  assert.deepEqual(resolveContainerPort('http', app), { ok: true, port: 8080 });
  assert.deepEqual(resolveContainerPort('admin', app), { ok: false, reason: 'port "admin" not found' });
  assert.deepEqual(resolveContainerPort(70000, app), { ok: false, reason: 'invalid port number: 70000' });
});

const cases: Array<{ name: string; probe: V1Probe; expect: RunnerCall | { error: string } }> = [
  {
    name: 'httpGet defaults: pod IP, scheme http, path /',
    probe: { httpGet: { port: 'http' } },
    expect: { kind: 'http', req: { scheme: 'http', host: '10.88.0.9', port: 8080, path: '/', headers: [], timeoutS: 1, purpose: 'probe' } },
  },
  {
    name: 'httpGet with host, https, headers, timeout',
    probe: { timeoutSeconds: 4, httpGet: { host: 'example.test', scheme: 'HTTPS', port: 443, path: 'healthz?x=1', httpHeaders: [{ name: 'X', value: 'y' }] } },
    expect: {
      kind: 'http',
      req: { scheme: 'https', host: 'example.test', port: 443, path: '/healthz?x=1', headers: [{ name: 'X', value: 'y' }], timeoutS: 4, purpose: 'probe' },
    },
  },
  { name: 'tcpSocket on the pod IP', probe: { tcpSocket: { port: 'http' } }, expect: { kind: 'tcp', host: '10.88.0.9', port: 8080, timeoutS: 1 } },
  { name: 'grpc with service', probe: { grpc: { port: 9090, service: 'db' }, timeoutSeconds: 2 }, expect: { kind: 'grpc', host: '10.88.0.9', port: 9090, service: 'db', timeoutS: 2 } },
  { name: 'exec with expansion', probe: { exec: { command: ['check', '$(PORT)'] } }, expect: { kind: 'exec', containerId: 'c1', cmd: ['check', '9000'], timeoutS: 1 } },
  { name: 'an undeclared port name is a prober error', probe: { tcpSocket: { port: 'nope' } }, expect: { error: 'port "nope" not found' } },
];

for (const tc of cases) {
  test(`runProbe: ${tc.name}`, async () => {
    const runner = new FakeProbeRunner();
    const out = await runProbe(runner, new FakeClock(), tc.probe, app, { podIP: '10.88.0.9' }, 'c1');
    if ('error' in tc.expect) {
      assert.equal(out.error, tc.expect.error);
      assert.equal(runner.calls.length, 0);
    } else assert.deepEqual(runner.calls, [tc.expect]);
  });
}

test('runProbe: a network probe without a host or a pod IP fails saying so (exec still runs)', async () => {
  const runner = new FakeProbeRunner();
  const clock = new FakeClock();
  const c = { name: 'app', image: 'img' };
  const cases: Array<[string, V1Probe, string]> = [
    ['httpGet', { httpGet: { port: 80 } }, 'failure'],
    ['tcpSocket', { tcpSocket: { port: 80 } }, 'failure'],
    ['grpc', { grpc: { port: 80 } }, 'failure'],
    ['httpGet with a host', { httpGet: { port: 80, host: '127.0.0.1' } }, 'success'],
    ['exec', { exec: { command: ['true'] } }, 'success'],
  ];
  for (const [name, probe, want] of cases) {
    const o = await runProbe(runner, clock, probe, c, { phase: 'Running' }, 'cid');
    assert.equal(o.status, want, name);
    if (want === 'failure') assert.equal(o.output, NO_POD_IP_OUTPUT, name);
  }
});
