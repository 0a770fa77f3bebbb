import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NodeSummary } from '@nodelet/core/kubelet';
import { apiServerCheck } from './agent.ts';

const base: NodeSummary = { name: 'n', runtimeReady: true, startTime: '', kubeletVersion: 'v1.34.0', podCount: 0, maxPods: 110 };

describe('apiServerCheck (informational healthz check)', () => {
  const cases: Array<[string, NodeSummary['cluster'], ReturnType<typeof apiServerCheck>]> = [
    ['standalone: no check', undefined, undefined],
    ['connected: ok', { server: 'https://a:6443', registered: true, podsListed: true }, { name: 'apiserver', ok: true }],
    [
      'unreachable: still ok, degraded message without the raw reason',
      { server: 'https://a:6443', registered: true, podsListed: true, lastError: 'list pods: connect ECONNREFUSED 10.0.0.1:6443' },
      { name: 'apiserver', ok: true, message: 'degraded: API server requests failing, retrying with backoff; reason withheld' },
    ],
  ];
  for (const [name, cluster, want] of cases) {
    it(name, () => assert.deepEqual(apiServerCheck({ node: () => ({ ...base, ...(cluster ? { cluster } : {}) }) }), want));
  }
});
