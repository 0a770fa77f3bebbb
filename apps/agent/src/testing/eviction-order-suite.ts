/**
 * The memory-pressure eviction-order suite (see eviction-order.integration.test.ts), for either runtime:
 * `endpoint()` names a CRI endpoint (undefined: the embedded runtime), `image` a busybox-like image there.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { ApiServerDouble, KubeObject } from '@nodelet/apiserver-double';
import { boundPod, LOOP as loop, startApiNode, staticPodYaml } from './api-node.ts';
import { call, type NodeAgent } from './cluster-node.ts';
import { eventually } from './processes.ts';
import { formatTimeline, pressureTimeline } from './pressure-timeline.ts';

export function evictionOrderSuite(opts: { endpoint: () => string | undefined; image: string; nodeName?: string; skip?: string | false }): void {
  const image = opts.image;
  const node = opts.nodeName ?? 'node-o';
  let api: ApiServerDouble;
  let agent: NodeAgent;
  let pressure: string[] = [];

  const pod = (name: string, resources: Record<string, Record<string, string>>, script = loop): KubeObject => boundPod(name, node, { image, resources, script });

  const getPod = (name: string) => api.store.get('pods', 'default', name) as V1Pod | undefined;
  const disrupted = (p: V1Pod | undefined) => Date.parse(String(p?.status?.conditions?.find((c) => c.type === 'DisruptionTarget')?.lastTransitionTime ?? ''));

  before(async () => {
    if (opts.skip) return;
    const endpoint = opts.endpoint();
    ({ api, agent } = await startApiNode(node, { staticPod: staticPodYaml('st', { image }), ...(endpoint ? { endpoint } : {}), args: () => pressure }));
  });

  after(async () => {
    await agent?.cleanup();
    await api?.stop();
  });

  describe('memory-pressure eviction order of admitted pods', { timeout: 240_000, skip: opts.skip ?? false }, () => {
    it('evicts BestEffort, then Burstable, then Guaranteed, one per pass; the static pod stays', async () => {
      // ~24 MiB held by the shell: BestEffort's usage above its (zero) request is the largest.
      api.store.create(pod('besteffort', {}, `x=$(head -c 25165824 /dev/zero | tr '\\0' a); ${loop}`));
      api.store.create(pod('burstable', { requests: { memory: '1' } }));
      api.store.create(pod('guaranteed', { requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '100m', memory: '512Mi' } }));
      for (const n of ['besteffort', 'burstable', 'guaranteed', `st-${node}`]) {
        await eventually(async () => (getPod(n)?.status?.phase === 'Running' ? true : undefined), 120_000, `${n} Running`).catch((err: Error) => {
          throw new Error(`${err.message}: ${JSON.stringify(getPod(n)?.status ?? null).slice(0, 800)}\n${agent.lines.filter((l) => l.includes(n) || /"level":"(warn|error)"/.test(l)).slice(-20).join('\n')}`);
        });
      }
      const admittedAt = Date.now();

      // Stateless restart with a threshold that is met: the pods survive, the new agent evicts them in order.
      pressure = ['--eviction-soft=memory.available<1000Ti', '--eviction-soft-grace-period=memory.available=0s'];
      await agent.kill('SIGKILL');
      await agent.start();
      const tls = { cert: readFileSync(join(agent.root, 'pki', 'console.crt'), 'utf8'), key: readFileSync(join(agent.root, 'pki', 'console.key'), 'utf8') };

      const all = await eventually(async () => {
        const ps = ['besteffort', 'burstable', 'guaranteed'].map(getPod);
        return ps.every((p) => p?.status?.reason === 'Evicted') ? ps as V1Pod[] : undefined;
      }, 120_000, 'all three evicted').catch((err: Error) => {
        const brief = (n: string) => `${n}: ${JSON.stringify(getPod(n)?.status ?? null).slice(0, 300)}`;
        throw new Error(`${err.message}\n${['besteffort', 'burstable', 'guaranteed'].map(brief).join('\n')}\n${agent.lines.filter((l) => /evict/i.test(l)).slice(-15).join('\n')}`);
      });
      for (const p of all) {
        assert.equal(p.status?.phase, 'Failed', String(p.metadata?.name));
        assert.match(p.status?.message ?? '', /^The node was low on resource: memory\. Threshold quantity: 1000Ti, available: \d+(Ki|Mi|Gi)?\. $/);
      }
      const [be, bu, gu] = all.map(disrupted) as [number, number, number];
      assert.ok(be < bu && bu < gu, `order BestEffort < Burstable < Guaranteed: ${[be, bu, gu].map((t) => new Date(t).toISOString()).join(' ')}`);
      // One pod per pass (10 s): no two evictions in the same pass.
      assert.ok(bu - be >= 5000 && gu - bu >= 5000, `one eviction per pass: gaps ${bu - be} ms, ${gu - bu} ms`);

      await eventually(async () => {
        const m = await call(`https://127.0.0.1:${agent.port}/metrics`, tls);
        return /^kubelet_evictions\{eviction_signal="memory.available"\} 3$/m.test(m.body) ? true : undefined;
      }, 30_000, 'kubelet_evictions{eviction_signal="memory.available"} 3');
      const st = getPod(`st-${node}`);
      assert.equal(st?.status?.phase, 'Running', 'the static (mirror) pod is never evicted');
      const evictedEvents = api.store.list('events').filter((e) => (e as { reason?: string }).reason === 'Evicted');
      assert.ok(evictedEvents.length >= 3, `Evicted events in the API: ${evictedEvents.length}`);

      const rows = await pressureTimeline(agent.port, tls, 'memory.available', admittedAt);
      console.log(`\nPressure timeline (memory.available, ${opts.endpoint() ? 'CRI ' + opts.endpoint() : 'embedded runtime'}):\n${formatTimeline(rows)}\n`);
      assert.ok(rows.some((r) => r.what === 'condition' && /-> MemoryPressure/.test(r.detail)));
    });
  });
}
