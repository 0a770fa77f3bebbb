import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeInfo } from '../../lib/api-types.ts';
import { nodeRow } from './node-row.ts';

const node = (over: Partial<NodeInfo> = {}): NodeInfo => ({
  name: 'n1', runtimeReady: true, startTime: '', kubeletVersion: 'v1.34.0', podCount: 3, maxPods: 110,
  runtime: { name: 'nodelet', version: '0.1', apiVersion: 'v1', endpoint: 'unix:///x' },
  health: { ok: true, checks: [] }, ...over,
});

test('nodeRow: standalone, joined, unreachable, pressure, failing health', () => {
  const cases: Array<[string, NodeInfo | undefined, string | undefined, Partial<ReturnType<typeof nodeRow>>]> = [
    ['standalone', node(), undefined, { name: 'n1', ready: true, pods: 3, cluster: 'standalone', runtime: 'nodelet 0.1' }],
    ['joined', node({ cluster: { server: 'https://api:6443', registered: true, nodeUid: 'u1', podsListed: true, lastError: 'boom' } }), undefined,
      { cluster: 'registered at https://api:6443 (uid u1)', clusterError: 'boom' }],
    ['unreachable', undefined, 'agent unreachable: ECONNREFUSED', { name: 'a', reachable: false, ready: false, pods: undefined, error: 'agent unreachable: ECONNREFUSED' }],
    ['pressure', node({ pressure: ['MemoryPressure'] }), undefined, { pressure: ['MemoryPressure'] }],
    ['health failing', node({ health: { ok: false, checks: [{ name: 'pleg', ok: false }] } }), undefined, { ready: false }],
  ];
  for (const [name, n, err, want] of cases) {
    const row = nodeRow('a', n, err);
    for (const [k, v] of Object.entries(want)) assert.deepEqual(row[k as keyof typeof row], v, `${name}: ${k}`);
  }
});
