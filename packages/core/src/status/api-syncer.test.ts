import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1PodStatus } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeApiClient, fail, ok } from '../apiclient/testing/fake-client.ts';
import type { ApiResult } from '../apiclient/types.ts';
import type { PodRef } from '../events/types.ts';
import { ApiStatusSyncer } from './api-syncer.ts';
import type { VersionedPodStatus } from './types.ts';

const REF: PodRef = { namespace: 'default', name: 'web', uid: 'u1' };
const PATH = '/api/v1/namespaces/default/pods/web/status';

function v(version: number, phase = 'Running', extra: Partial<V1PodStatus> = {}): VersionedPodStatus {
  return { pod: REF, version, at: 0, status: { phase, ...extra } };
}

function setup(opts: { target?: () => PodRef | undefined; canBeDeleted?: () => boolean } = {}) {
  const clock = new FakeClock();
  const client = new FakeApiClient(() => ok({}));
  const syncer = new ApiStatusSyncer({
    client,
    clock,
    logger: nullLogger,
    target: opts.target ?? (() => REF),
    canBeDeleted: opts.canBeDeleted ?? (() => false),
  });
  const phases = () => client.calls.filter((c) => c.method === 'PATCH').map((c) => (c.body as { status: V1PodStatus }).status.phase);
  return { clock, client, syncer, phases };
}

describe('ApiStatusSyncer', () => {
  it('coalesces versions that arrive during a patch: the newest is sent, none is lost', async () => {
    const { client, syncer, phases } = setup();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    client.handler = async (_req, n) => {
      if (n === 1) await gate;
      return ok({});
    };
    const first = syncer.sync(v(1, 'Pending'));
    void syncer.sync(v(2, 'Running'));
    void syncer.sync(v(3, 'Running', { message: 'x' }));
    void syncer.sync(v(4, 'Succeeded'));
    void syncer.sync(v(3, 'Running'));
    release();
    await first;
    assert.deepEqual(phases(), ['Pending', 'Succeeded']);
    assert.equal(syncer.sentVersion('u1'), 4);
  });

  it('sends a strategic merge patch with the uid precondition, element order and null for gone reasons', async () => {
    const { client, syncer } = setup();
    await syncer.sync(v(1, 'Running', { conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }] }));
    const call = client.calls[0]!;
    assert.equal(call.method, 'PATCH');
    assert.equal(call.path, PATH);
    assert.equal(call.contentType, 'application/strategic-merge-patch+json');
    assert.deepEqual(call.body, {
      metadata: { uid: 'u1' },
      status: {
        phase: 'Running',
        conditions: [
          { type: 'Ready', status: 'True', reason: null, message: null },
          { type: 'PodScheduled', status: 'True', reason: null, message: null },
        ],
        '$setElementOrder/conditions': [{ type: 'Ready' }, { type: 'PodScheduled' }],
      },
    });
  });

  const outcomes: Array<{ name: string; answers: ApiResult[]; patches: number; sent: number }> = [
    { name: 'a conflict is retried at once', answers: [fail(409, 'Conflict'), ok({})], patches: 2, sent: 1 },
    { name: 'three conflicts: left for the periodic pass', answers: [fail(409, 'Conflict'), fail(409, 'Conflict'), fail(409, 'Conflict')], patches: 3, sent: 0 },
    { name: 'a server error: left for the periodic pass', answers: [fail(500, 'InternalError')], patches: 1, sent: 0 },
    { name: 'pod gone: forgotten', answers: [fail(404, 'NotFound')], patches: 1, sent: 0 },
  ];
  for (const t of outcomes) {
    it(t.name, async () => {
      const { client, syncer } = setup();
      const answers = [...t.answers];
      client.handler = () => answers.shift() ?? ok({});
      await syncer.sync(v(1));
      assert.equal(client.calls.length, t.patches);
      assert.equal(syncer.sentVersion('u1'), t.sent);
    });
  }

  it('retries failed and target-less statuses on the periodic pass (10 s)', async () => {
    let target: PodRef | undefined;
    const { clock, client, syncer, phases } = setup({ target: () => target });
    syncer.start();
    await syncer.sync(v(1));
    assert.equal(client.calls.length, 0, 'no mirror pod yet: nothing to patch');
    target = REF;
    client.handler = () => fail(503, 'ServiceUnavailable');
    await clock.step(10_000);
    assert.equal(client.calls.length, 1);
    client.handler = () => ok({});
    await clock.step(10_000);
    assert.deepEqual(phases(), ['Running', 'Running']);
    assert.equal(syncer.sentVersion('u1'), 1);
    await clock.step(10_000);
    assert.equal(client.calls.length, 2, 'nothing more once sent');
    syncer.stop();
  });

  it('deletion handshake: once deletable, DELETE with grace 0 and a uid precondition, once', async () => {
    let deletable = false;
    const { client, syncer } = setup({ canBeDeleted: () => deletable });
    await syncer.sync(v(1, 'Running'));
    assert.deepEqual(client.summary(), [`PATCH ${PATH}`]);
    deletable = true;
    await syncer.sync(v(2, 'Succeeded'));
    assert.deepEqual(client.summary(), [`PATCH ${PATH}`, `PATCH ${PATH}`, 'DELETE /api/v1/namespaces/default/pods/web']);
    assert.deepEqual(client.calls[2]?.body, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, preconditions: { uid: 'u1' } });
    await syncer.syncAll();
    assert.equal(client.calls.length, 3, 'not deleted twice');
  });
});
