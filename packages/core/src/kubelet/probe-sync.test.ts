// Which probe results sync the pod (kubelet.go syncLoopIteration): a liveness result only on Failure
// (handleProbeSync "unhealthy"), every startup result (handleProbeSync "started" / "unstarted") — here Failure and
// Success; the initial Unknown a new worker sets syncs nothing. A startup Success lets the next init container
// start right after a sidecar (computeInitContainerActions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import type { ResultUpdate } from '../prober/types.ts';
import { KubeletProbes, type KubeletProbesDeps } from './probes.ts';

test('onProbeSync: liveness failures, startup failures and successes; not liveness successes nor Unknown', () => {
  const deps = { clock: new FakeClock(), logger: nullLogger } as unknown as KubeletProbesDeps;
  const probes = new KubeletProbes(deps, { kubeletVersion: 'v1.28.0', processStartTimeSeconds: 0 });
  const got: string[] = [];
  probes.onProbeSync((u: ResultUpdate) => got.push(`${u.probeType} ${u.result} ${u.containerName}`));
  const pod: V1Pod = { metadata: { uid: 'u1', name: 'p' } };
  const { liveness, startup } = probes.manager;
  liveness.set('c1', 'success', pod, 'app');
  liveness.set('c1', 'failure', pod, 'app');
  startup.set('s1', 'unknown', pod, 'proxy');
  startup.set('s1', 'success', pod, 'proxy');
  startup.set('s2', 'unknown', pod, 'other');
  startup.set('s2', 'failure', pod, 'other');
  assert.deepEqual(got, ['liveness failure app', 'startup success proxy', 'startup failure other']);
});
