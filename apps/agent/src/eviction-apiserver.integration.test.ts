/**
 * Memory-pressure eviction of API-server pods, end to end: an API server TEST DOUBLE (@nodelet/apiserver-double)
 * and one real agent with the embedded runtime, whose memory.available soft threshold (1000Ti, grace 0s) is above anything
 * this machine has, so the node is under MemoryPressure from the first eviction pass:
 * - a BestEffort pod bound to the node is refused at admission (Failed, reason Evicted);
 * - a Burstable pod (memory request 1 byte, so its usage exceeds it) is evicted before a Guaranteed one (usage
 *   under its request): one pod per 10 s pass, each ending Failed / Evicted with the kubelet's message;
 * - the static pod (critical) keeps running; kubelet_evictions{eviction_signal="memory.available"} counts 2;
 *   the Node's MemoryPressure condition is True (KubeletHasInsufficientMemory).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { ApiServerDouble } from '@nodelet/apiserver-double';
import { boundPod, startApiNode } from './testing/api-node.ts';
import { call, type NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';

let api: ApiServerDouble;
let agent: NodeAgent;

const pod = (name: string, resources: Record<string, Record<string, string>>) => boundPod(name, 'node-e', { resources });
const getPod = (name: string) => api.store.get('pods', 'default', name) as V1Pod | undefined;

before(async () => {
  // Soft, not hard: a hard memory threshold is subtracted from node allocatable (0 here), which would refuse
  // every pod with a memory request at admission, as the kubelet does.
  ({ api, agent } = await startApiNode('node-e', { args: () => ['--eviction-soft=memory.available<1000Ti', '--eviction-soft-grace-period=memory.available=0s'] }));
});

after(async () => {
  await agent?.cleanup();
  await api?.stop();
});

describe('memory-pressure eviction of API-server pods', { timeout: 170_000 }, () => {
  it('refuses BestEffort, evicts Burstable before Guaranteed, keeps the static pod', async () => {
    // Pressure first (the kubelet's view: its EvictionThresholdMet event), then the pods.
    await eventually(async () => (api.store.list('events').some((e) => (e as { reason?: string }).reason === 'EvictionThresholdMet') ? true : undefined), 60_000, 'EvictionThresholdMet');
    // Burstable first, and Guaranteed only once Burstable has had a housekeeping pass (1 s here) to get stats:
    // the kubelet ranks a pod without stats first, so a Guaranteed pod caught before its first sample would
    // (rightly) go first. The ranking itself is tabled in core/eviction/ranking.test.ts and run for real in
    // eviction-order.*.test.ts.
    api.store.create(pod('burstable', { requests: { memory: '1' } }));
    api.store.create(pod('besteffort', {}));
    await eventually(async () => (getPod('burstable')?.status?.phase === 'Running' || getPod('burstable')?.status?.reason === 'Evicted' ? true : undefined), 120_000, 'burstable Running');
    await new Promise((r) => setTimeout(r, 3000));
    api.store.create(pod('guaranteed', { requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '100m', memory: '512Mi' } }));

    const rejected = await eventually(async () => (getPod('besteffort')?.status?.phase === 'Failed' ? getPod('besteffort') : undefined), 60_000, 'besteffort rejected');
    assert.equal(rejected.status?.reason, 'Evicted');
    assert.match(rejected.status?.message ?? '', /The node had condition: \[MemoryPressure\]/);

    const evicted = await eventually(async () => {
      const g = getPod('guaranteed');
      const b = getPod('burstable');
      return g?.status?.reason === 'Evicted' && b?.status?.reason === 'Evicted' ? { g, b } : undefined;
    }, 90_000, 'burstable and guaranteed evicted').catch((err: Error) => {
      const brief = (n: string) => JSON.stringify(getPod(n)?.status ?? null).slice(0, 400);
      const log = agent.lines.filter((l) => /evict/i.test(l)).slice(-15).join('\n');
      throw new Error(`${err.message}\nburstable: ${brief('burstable')}\nguaranteed: ${brief('guaranteed')}\n${log}`);
    });
    for (const p of [evicted.b, evicted.g]) {
      assert.equal(p.status?.phase, 'Failed');
      assert.match(p.status?.message ?? '', /^The node was low on resource: memory\. Threshold quantity: 1000Ti, available: \d+(Ki|Mi|Gi)?\. $/);
    }
    const when = (p: V1Pod) => Date.parse(String(p.status?.conditions?.find((c) => c.type === 'DisruptionTarget')?.lastTransitionTime ?? ''));
    assert.ok(when(evicted.b) < when(evicted.g), 'Burstable (over its request) goes before Guaranteed');
    const tls = { cert: readFileSync(join(agent.root, 'pki', 'console.crt'), 'utf8'), key: readFileSync(join(agent.root, 'pki', 'console.key'), 'utf8') };
    // The counter moves once the kill completes (the status shows Evicted as soon as it starts).
    await eventually(async () => {
      const m = await call(`https://127.0.0.1:${agent.port}/metrics`, tls);
      return /^kubelet_evictions\{eviction_signal="memory.available"\} 2$/m.test(m.body) ? true : undefined;
    }, 30_000, 'kubelet_evictions{eviction_signal="memory.available"} 2');
    const node = api.store.get('nodes', '', 'node-e') as { status?: { conditions?: Array<{ type: string; status: string; reason?: string }> } } | undefined;
    assert.deepEqual(node?.status?.conditions?.find((c) => c.type === 'MemoryPressure'), undefined === node ? undefined : node?.status?.conditions?.find((c) => c.type === 'MemoryPressure' && c.status === 'True' && c.reason === 'KubeletHasInsufficientMemory'));
    await eventually(async () => {
      const node = api.store.get('nodes', '', 'node-e') as { status?: { conditions?: Array<{ type: string; status: string; reason?: string }> } } | undefined;
      const c = node?.status?.conditions?.find((x) => x.type === 'MemoryPressure');
      return c?.status === 'True' && c.reason === 'KubeletHasInsufficientMemory' ? true : undefined;
    }, 30_000, 'Node condition MemoryPressure=True in the API');
    const st = getPod('st-node-e');
    assert.notEqual(st?.status?.reason, 'Evicted', 'the static (mirror) pod is never evicted');
  });
});
