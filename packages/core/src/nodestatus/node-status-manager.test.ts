import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Node } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeApiClient, fail, ok } from '../apiclient/testing/fake-client.ts';
import type { ApiRequest } from '../apiclient/types.ts';
import { NodeStatusManager } from './node-status-manager.ts';
import type { NodeEventNote, NodeStatusInput } from './types.ts';

function input(ready = true): NodeStatusInput {
  return {
    nodeName: 'n1',
    hostname: 'n1',
    kubeletPort: 10250,
    kubeletVersion: 'v1.34.0',
    maxPods: 110,
    machine: { cpuCores: 2, memoryBytes: 1 << 30, ephemeralStorageBytes: 1 << 30, hugepages: {}, machineID: 'm', systemUUID: 'u', bootID: 'b', kernelVersion: 'k', osImage: 'o' },
    readiness: { ready, message: ready ? '' : 'container runtime is down' },
    pressure: { memory: false, disk: false, pid: false },
    images: [],
    arch: 'amd64',
  };
}

/** An API with one Node object: create, get, patch status (merging conditions by type), patch labels. */
function fakeApi(existing?: V1Node) {
  let node = existing ? structuredClone(existing) : undefined;
  const client = new FakeApiClient((req: ApiRequest) => {
    if (req.method === 'POST') {
      if (node) return fail(409, 'AlreadyExists');
      node = { ...(structuredClone(req.body) as V1Node), metadata: { ...(req.body as V1Node).metadata, uid: 'node-uid' } };
      return ok(node, 201);
    }
    if (!node) return fail(404, 'NotFound');
    if (req.method === 'GET') return ok(structuredClone(node));
    if (req.method === 'PATCH' && req.path.endsWith('/status')) {
      const { status } = JSON.parse(JSON.stringify(req.body)) as { status: V1Node['status'] };
      delete (status as Record<string, unknown>)['$setElementOrder/conditions'];
      node.status = status;
      return ok(node);
    }
    if (req.method === 'PATCH') {
      node.metadata = { ...node.metadata, labels: { ...node.metadata?.labels, ...(req.body as V1Node).metadata?.labels } };
      return ok(node);
    }
    return fail(405, 'MethodNotAllowed');
  });
  return { client, node: () => node };
}

function manager(client: FakeApiClient, clock: FakeClock, get: () => NodeStatusInput, events: NodeEventNote[] = []) {
  return new NodeStatusManager(
    { client, clock, logger: nullLogger, input: async () => get(), onEvent: (e) => events.push(e) },
    { nodeName: 'n1', registerNode: true, nodeLabels: { tier: 'a' }, updateFrequencyMs: 10_000, reportFrequencyMs: 300_000 },
  );
}

const statusPatches = (c: FakeApiClient) => c.calls.filter((x) => x.method === 'PATCH' && x.path === '/api/v1/nodes/n1/status').length;

describe('NodeStatusManager', () => {
  it('registers the node, then patches status only on change or when the report frequency elapses', async () => {
    const clock = new FakeClock();
    const api = fakeApi();
    const events: NodeEventNote[] = [];
    let ready = true;
    const m = manager(api.client, clock, () => input(ready), events);
    await m.tick();
    assert.equal(m.nodeUid, 'node-uid');
    assert.deepEqual(api.client.summary().slice(0, 2), ['POST /api/v1/nodes', 'GET /api/v1/nodes/n1']);
    assert.deepEqual(events.map((e) => e.reason), ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady']);
    assert.equal(statusPatches(api.client), 0, 'nothing changed since registration');
    const steps: Array<{ advanceMs: number; ready: boolean; patches: number; why: string }> = [
      { advanceMs: 10_000, ready: true, patches: 0, why: 'unchanged within the report frequency' },
      { advanceMs: 10_000, ready: false, patches: 1, why: 'readiness changed' },
      { advanceMs: 10_000, ready: false, patches: 1, why: 'unchanged again' },
      { advanceMs: 290_000, ready: false, patches: 2, why: 'report frequency elapsed' },
    ];
    for (const s of steps) {
      ready = s.ready;
      await clock.step(s.advanceMs);
      await m.tick();
      assert.equal(statusPatches(api.client), s.patches, s.why);
    }
    assert.deepEqual(events.slice(4).map((e) => e.reason), ['NodeNotReady']);
    const readyCond = api.node()?.status?.conditions?.find((c) => c.type === 'Ready');
    assert.equal(readyCond?.status, 'False');
    assert.equal(readyCond?.reason, 'KubeletNotReady');
    assert.equal(readyCond?.message, 'container runtime is down');
  });

  it('reconciles an existing Node: adds missing labels, keeps it', async () => {
    const clock = new FakeClock();
    const api = fakeApi({ metadata: { name: 'n1', uid: 'old-uid', labels: { 'kubernetes.io/hostname': 'n1' } }, status: {} });
    const m = manager(api.client, clock, () => input());
    await m.tick();
    assert.equal(m.nodeUid, 'old-uid');
    assert.equal(api.node()?.metadata?.labels?.tier, 'a');
    assert.equal(api.node()?.metadata?.labels?.['kubernetes.io/os'], 'linux');
    assert.equal(statusPatches(api.client), 1, 'status written to the existing node');
  });

  it('retries registration on the next tick when the API server is unreachable', async () => {
    const clock = new FakeClock();
    const api = fakeApi();
    const real = api.client.handler;
    api.client.handler = () => fail(0, 'ConnectionError', 'connect ECONNREFUSED');
    const m = manager(api.client, clock, () => input());
    await m.tick();
    assert.equal(m.registered, false);
    api.client.handler = real;
    await clock.step(10_000);
    await m.tick();
    assert.equal(m.registered, true);
  });

  it('spec.podCIDRs set on the Node (by the node IPAM controller) go to the runtime, joined by ","; a change forces a status patch (tryUpdateNodeStatus)', async () => {
    const clock = new FakeClock();
    const api = fakeApi();
    const sent: string[] = [];
    let accepted = '';
    const m = new NodeStatusManager(
      {
        client: api.client, clock, logger: nullLogger, input: async () => input(),
        // As the kubelet's updatePodCIDR: true only when the runtime's range changes.
        updatePodCIDR: async (cidrs) => {
          sent.push(cidrs);
          if (cidrs === accepted) return false;
          accepted = cidrs;
          return true;
        },
      },
      { nodeName: 'n1', registerNode: true, updateFrequencyMs: 10_000, reportFrequencyMs: 300_000 },
    );
    await m.tick();
    assert.deepEqual(sent, [], 'no spec.podCIDRs yet: nothing sent');
    api.node()!.spec = { podCIDR: '10.244.3.0/24', podCIDRs: ['10.244.3.0/24', 'fd00:10:244:3::/64'] };
    await clock.step(10_000);
    await m.tick();
    assert.deepEqual(sent, ['10.244.3.0/24,fd00:10:244:3::/64']);
    assert.equal(statusPatches(api.client), 1, 'the range changed: patched although the status did not');
    await clock.step(10_000);
    await m.tick();
    assert.equal(sent.length, 2, 'sent on every update');
    assert.equal(statusPatches(api.client), 1, 'unchanged range, unchanged status: no patch');
  });
});
