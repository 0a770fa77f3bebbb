import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { realClock } from '../../util/clock.ts';
import { createGrpcRunner, loadHealthService } from './grpc-runner.ts';

let server: grpc.Server;
let bare: grpc.Server;
let port = 0;
let barePort = 0;
const agents: string[] = [];

function bind(s: grpc.Server): Promise<number> {
  return new Promise((resolve, reject) =>
    s.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
}

before(async () => {
  server = new grpc.Server();
  server.addService(loadHealthService().service, {
    Check(call: grpc.ServerUnaryCall<{ service: string }, unknown>, cb: grpc.sendUnaryData<unknown>) {
      agents.push(String(call.metadata.get('user-agent')[0] ?? ''));
      const svc = call.request.service;
      if (svc === '') return cb(null, { status: 'SERVING' });
      if (svc === 'down') return cb(null, { status: 'NOT_SERVING' });
      cb({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
    },
    Watch(call: grpc.ServerWritableStream<unknown, unknown>) {
      call.end();
    },
  });
  port = await bind(server);
  bare = new grpc.Server();
  barePort = await bind(bare);
});

after(async () => {
  server.forceShutdown();
  bare.forceShutdown();
});

const cases = [
  { name: 'SERVING succeeds', service: '', target: () => port, expect: { status: 'success', output: 'service healthy' } },
  {
    name: 'NOT_SERVING fails with the status',
    service: 'down',
    target: () => port,
    expect: { status: 'failure', output: 'service unhealthy (responded with "NOT_SERVING")' },
  },
  {
    name: 'an unknown service fails with the RPC error',
    service: 'nope',
    target: () => port,
    expect: { status: 'failure', output: 'error: health rpc probe failed: rpc error: code = NotFound desc = unknown service' },
  },
  {
    name: 'a server without the health service',
    service: '',
    target: () => barePort,
    expectPrefix: 'error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ',
  },
] as const;

for (const tc of cases) {
  test(`grpc runner: ${tc.name}`, async () => {
    const run = createGrpcRunner(realClock, '1.34');
    const got = await run('127.0.0.1', tc.target(), tc.service, 5);
    if ('expect' in tc) assert.deepEqual(got, tc.expect);
    else {
      assert.equal(got.status, 'failure');
      assert.ok(got.output.startsWith(tc.expectPrefix), got.output);
    }
  });
}

test('grpc runner: sends User-Agent kube-probe/<ver>', () => {
  assert.ok(agents.length > 0);
  for (const a of agents) assert.match(a, /^kube-probe\/1\.34/);
});
