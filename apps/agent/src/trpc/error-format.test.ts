/**
 * tRPC error responses carry no stack trace and no host path outside development: a procedure that throws (here an
 * ENOENT naming a file under /var/lib/kubelet) answers 500 with a generic message; bad input answers 400 without a
 * stack. With NODE_ENV=development the stack is kept for debugging. The HTTP routes' error texts from the kubelet
 * (a log file that cannot be opened) name no host path either.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LogsResult } from '@nodelet/core/kubelet';
import { fakePod, FakeKubelet } from '../testing/fake-kubelet.ts';
import { doRequest } from '../testing/https-client.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

class BrokenKubelet extends FakeKubelet {
  constructor() {
    super();
    this.pods = [fakePod('default', 'web')];
  }
  override getPod() {
    return this.pods[0];
  }
  override async containerLogs(): Promise<LogsResult> {
    return { ok: false, reason: 'LogNotAvailable', message: 'failed to open log file "/var/log/pods/default_web_uid/main/0.log": ENOENT' };
  }
  override getPods(): never {
    throw Object.assign(new Error("ENOENT: no such file or directory, open '/var/lib/kubelet/pods/uid-1/volumes'"), { code: 'ENOENT' });
  }
}

const LEAKS = [/"stack"/, /\/var\/lib\//, /\/work\//, /\/root\//, /node_modules/, /\n\s+at /];

describe('tRPC error responses', () => {
  let ts: TestServer;
  const saved = process.env.NODE_ENV;
  before(async () => {
    ts = await startTestServer(new BrokenKubelet());
  });
  after(async () => {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
    await ts.close();
  });

  const get = (path: string) => doRequest(`${ts.base}/trpc/${path}`, ts.consoleTls);

  for (const env of [undefined, 'production', 'test']) {
    it(`NODE_ENV=${env ?? '(unset)'}: a thrown error is 500 with a generic message, no stack, no path`, async () => {
      if (env === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = env;
      const r = await get('pods.list');
      assert.equal(r.status, 500);
      for (const leak of LEAKS) assert.doesNotMatch(r.body, leak);
      const body = JSON.parse(r.body) as { error: { message: string; data: Record<string, unknown> } };
      assert.equal(body.error.message, "internal error (details in the node's agent log)");
      assert.equal(body.error.data.code, 'INTERNAL_SERVER_ERROR');
      assert.equal(body.error.data.path, 'pods.list');
    });
  }

  it('bad input is 400 without a stack', async () => {
    delete process.env.NODE_ENV;
    const r = await get(`pods.get?input=${encodeURIComponent('{"namespace":1}')}`);
    assert.equal(r.status, 400);
    for (const leak of LEAKS) assert.doesNotMatch(r.body, leak);
    assert.equal((JSON.parse(r.body) as { error: { data: { code: string } } }).error.data.code, 'BAD_REQUEST');
  });

  it('GET /containerLogs: a log that cannot be opened is 400 naming no host path', async () => {
    const r = await doRequest(`${ts.base}/containerLogs/default/web/main`, ts.consoleTls);
    assert.deepEqual([r.status, r.body], [400, 'failed to open log file "<path>": ENOENT\n']);
  });

  it('NODE_ENV=development keeps the stack and the real message', async () => {
    process.env.NODE_ENV = 'development';
    const r = await get('pods.list');
    assert.equal(r.status, 500);
    const body = JSON.parse(r.body) as { error: { message: string; data: { stack?: string } } };
    assert.match(body.error.message, /ENOENT/);
    assert.match(body.error.data.stack ?? '', /getPods/);
  });
});
