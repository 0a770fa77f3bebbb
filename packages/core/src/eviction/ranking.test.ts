import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { rankPods } from './ranking.ts';
import type { PodUsage, Signal } from './types.ts';

function pod(name: string, o: { priority?: number; memReq?: string; diskReq?: string } = {}): V1Pod {
  const requests: Record<string, string> = {};
  if (o.memReq) requests.memory = o.memReq;
  if (o.diskReq) requests['ephemeral-storage'] = o.diskReq;
  return {
    metadata: { name, namespace: 'default', uid: name },
    spec: { ...(o.priority !== undefined ? { priority: o.priority } : {}), containers: [{ name: 'c', resources: { requests } }] },
  };
}

test('rankPods: table', () => {
  const cases: Array<{ name: string; signal: Signal; pods: V1Pod[]; usage: Record<string, PodUsage>; want: string[] }> = [
    {
      name: 'memory: no stats first, then over request, then priority, then usage above request',
      signal: 'memory.available',
      pods: [pod('guaranteed', { memReq: '100' }), pod('nostats'), pod('besteffort-small'), pod('besteffort-big'), pod('highprio', { priority: 1000 })],
      usage: { guaranteed: { memoryWorkingSetBytes: 50 }, 'besteffort-small': { memoryWorkingSetBytes: 10 }, 'besteffort-big': { memoryWorkingSetBytes: 500 }, highprio: { memoryWorkingSetBytes: 9999 } },
      want: ['nostats', 'besteffort-big', 'besteffort-small', 'highprio', 'guaranteed'],
    },
    {
      name: 'memory: lower priority beats larger usage among pods over request',
      signal: 'memory.available',
      pods: [pod('p10', { priority: 10 }), pod('p0', { priority: 0 })],
      usage: { p10: { memoryWorkingSetBytes: 1000 }, p0: { memoryWorkingSetBytes: 1 } },
      want: ['p0', 'p10'],
    },
    {
      name: 'memory: burstable over its request before burstable under it',
      signal: 'memory.available',
      pods: [pod('under', { memReq: '1000' }), pod('over', { memReq: '10' })],
      usage: { under: { memoryWorkingSetBytes: 500 }, over: { memoryWorkingSetBytes: 20 } },
      want: ['over', 'under'],
    },
    {
      name: 'disk: ephemeral-storage above request',
      signal: 'nodefs.available',
      pods: [pod('small'), pod('requested', { diskReq: '1000' }), pod('big')],
      usage: { small: { diskBytes: 10 }, requested: { diskBytes: 900 }, big: { diskBytes: 100 } },
      want: ['big', 'small', 'requested'],
    },
    {
      name: 'inodes: most inodes first',
      signal: 'nodefs.inodesFree',
      pods: [pod('few'), pod('many')],
      usage: { few: { inodes: 1 }, many: { inodes: 50 } },
      want: ['many', 'few'],
    },
    {
      name: 'pid: priority, then process count',
      signal: 'pid.available',
      pods: [pod('hi', { priority: 5 }), pod('lo-few'), pod('lo-many')],
      usage: { hi: { processes: 100 }, 'lo-few': { processes: 1 }, 'lo-many': { processes: 10 } },
      want: ['lo-many', 'lo-few', 'hi'],
    },
  ];
  for (const c of cases) {
    const got = rankPods(c.pods, c.signal, (p) => c.usage[p.metadata?.name ?? '']).map((p) => p.metadata?.name);
    assert.deepEqual(got, c.want, c.name);
  }
});
