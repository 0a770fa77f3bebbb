import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadCriPackage } from '../../../../proto/load.ts';
import { FakeClock } from '../util/clock.ts';
import { createCriClient } from './client.ts';
import { CriError, isNotFound, isUnavailable, isUnimplemented, type CriClient } from './types.ts';

type Handler = (call: any, cb?: any) => void;

/** A real grpc server on a temp unix socket, speaking our proto with the contract loader options. */
async function startServer(runtime: Record<string, Handler>, image: Record<string, Handler> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cri-client-test-'));
  const sock = path.join(dir, 'cri.sock');
  const pkg = loadCriPackage().runtime.v1;
  const server = new grpc.Server();
  server.addService(pkg.RuntimeService.service, runtime);
  server.addService(pkg.ImageService.service, image);
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix://${sock}`, grpc.ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())),
  );
  return {
    endpoint: `unix://${sock}`,
    sock,
    stop() {
      server.forceShutdown();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const NANOS = 1_763_776_874_170_040_000; // ~2025 in ns: beyond 2^53, carried as a JS number

describe('createCriClient over a real grpc server', () => {
  const seen: Record<string, unknown> = {};
  const held: any[] = [];
  let srv: Awaited<ReturnType<typeof startServer>>;
  let client: CriClient;

  before(async () => {
    srv = await startServer(
      {
        Version: (call, cb) => {
          seen.version = call.request;
          cb(null, { version: '0.1.0', runtimeName: 'test', runtimeVersion: '1', runtimeApiVersion: 'v1' });
        },
        ListContainers: (call, cb) => {
          seen.listContainers = call.request;
          cb(null, {
            containers: [
              { id: 'c1', podSandboxId: 'p1', state: 'CONTAINER_RUNNING', createdAt: NANOS, labels: { a: 'b' } },
            ],
          });
        },
        ContainerStatus: (call, cb) =>
          cb({ code: grpc.status.NOT_FOUND, details: `container "${call.request.containerId}" not found` }),
        Status: (call) => {
          held.push(call); // never answers: deadline / abort tests
          call.on('cancelled', () => (seen.statusCancelled = true));
        },
        GetContainerEvents: (call) => {
          seen.eventsRequest = call.request;
          call.write({ containerId: 'c1', containerEventType: 'CONTAINER_STARTED_EVENT', createdAt: NANOS });
          call.write({ containerId: 'c1', containerEventType: 'CONTAINER_STOPPED_EVENT', createdAt: NANOS + 1e9 });
          call.on('cancelled', () => (seen.eventsCancelled = true));
        },
      },
      {
        ListImages: (_call, cb) => cb(null, { images: [{ id: 'sha256:1', repoTags: ['nodelet.local/host:latest'], size: 0 }] }),
      },
    );
    client = createCriClient(srv.endpoint, { timeoutMs: 5000 });
  });
  after(() => {
    client.close();
    srv.stop();
  });

  it('round-trips camelCase fields, int64 as numbers, enums as names, defaults filled', async () => {
    const v = await client.version();
    assert.deepEqual(seen.version, { version: 'v1' });
    assert.equal(v.runtimeName, 'test');
    const res = await client.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' }, labelSelector: { x: 'y' } } });
    assert.deepEqual((seen.listContainers as any).filter.labelSelector, { x: 'y' });
    assert.equal((seen.listContainers as any).filter.state.state, 'CONTAINER_RUNNING');
    const c = res.containers[0];
    assert.ok(c);
    assert.equal(c.state, 'CONTAINER_RUNNING');
    assert.equal(typeof c.createdAt, 'number');
    assert.ok(Math.abs(c.createdAt - NANOS) < 1e4);
    assert.deepEqual(c.annotations, {});
    assert.equal(c.imageRef, '');
    assert.equal(c.metadata, null);
  });

  it('talks to ImageService on the same socket', async () => {
    const res = await client.listImages();
    assert.deepEqual(res.images.map((i) => i.repoTags), [['nodelet.local/host:latest']]);
  });

  const errorCases: { name: string; run: () => Promise<unknown>; code: string; check: (e: CriError) => boolean; text: RegExp }[] = [
    { name: 'NOT_FOUND', run: () => client.containerStatus({ containerId: 'nope' }), code: 'NOT_FOUND', check: isNotFound, text: /ContainerStatus.*not found/ },
    { name: 'UNIMPLEMENTED', run: () => client.pullImage({ image: { image: 'x' } }), code: 'UNIMPLEMENTED', check: isUnimplemented, text: /PullImage is not implemented/ },
  ];
  for (const tc of errorCases) {
    it(`maps ${tc.name} to CriError`, async () => {
      const err = await tc.run().then(() => assert.fail('expected an error'), (e: unknown) => e);
      assert.ok(err instanceof CriError);
      assert.equal(err.code, tc.code);
      assert.ok(tc.check(err));
      assert.match(err.message, tc.text);
      assert.ok(err.message.includes(srv.endpoint), err.message);
    });
  }

  it('puts a deadline on every call (clock-driven: a clock in the past means an expired deadline)', async () => {
    const past = createCriClient(srv.endpoint, { clock: new FakeClock(Date.UTC(2001, 0, 1)) });
    try {
      const err = await past.status().then(() => assert.fail('expected timeout'), (e: unknown) => e);
      assert.ok(err instanceof CriError);
      assert.equal(err.code, 'DEADLINE_EXCEEDED');
      assert.match(err.message, /Status .* timed out after 120000ms/);
    } finally {
      past.close();
    }
  });

  it('cancels a call when its AbortSignal aborts', async () => {
    const ac = new AbortController();
    const p = client.status({}, { signal: ac.signal });
    while (held.length === 0) await new Promise((r) => setImmediate(r));
    ac.abort();
    const err = await p.then(() => assert.fail('expected cancel'), (e: unknown) => e);
    assert.ok(err instanceof CriError);
    assert.equal(err.code, 'CANCELLED');
    while (!seen.statusCancelled) await new Promise((r) => setImmediate(r));
  });

  it('streams container events until the signal aborts, then ends quietly', async () => {
    const ac = new AbortController();
    const got: string[] = [];
    for await (const ev of client.getContainerEvents({ signal: ac.signal })) {
      got.push(`${ev.containerId}:${ev.containerEventType}`);
      assert.equal(typeof ev.createdAt, 'number');
      if (got.length === 2) ac.abort();
    }
    assert.deepEqual(got, ['c1:CONTAINER_STARTED_EVENT', 'c1:CONTAINER_STOPPED_EVENT']);
    while (!seen.eventsCancelled) await new Promise((r) => setImmediate(r));
  });

  it('fails calls after close()', async () => {
    const c2 = createCriClient(srv.endpoint);
    c2.close();
    c2.close();
    await assert.rejects(c2.version(), (e: unknown) => e instanceof CriError && e.code === 'CANCELLED');
  });
});

describe('createCriClient against an absent runtime', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cri-absent-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const form of ['unix', 'plain'] as const) {
    it(`fails fast with a clear UNAVAILABLE message (${form} endpoint)`, async () => {
      const sock = path.join(dir, 'missing.sock');
      const endpoint = form === 'unix' ? `unix://${sock}` : sock;
      const c = createCriClient(endpoint);
      try {
        const err = await c.version().then(() => assert.fail('expected failure'), (e: unknown) => e);
        assert.ok(isUnavailable(err), String(err));
        assert.equal(
          (err as CriError).message,
          `container runtime is not reachable at ${endpoint} (connect ENOENT): is the runtime running?`,
        );
      } finally {
        c.close();
      }
    });
  }

  it('getContainerEvents throws UNAVAILABLE when nothing listens', async () => {
    const c = createCriClient(path.join(dir, 'none.sock'));
    try {
      await assert.rejects(async () => {
        for await (const _ of c.getContainerEvents()) assert.fail('no events expected');
      }, (e: unknown) => isUnavailable(e));
    } finally {
      c.close();
    }
  });
});
