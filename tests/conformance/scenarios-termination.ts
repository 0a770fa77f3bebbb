// Termination messages on the real agent: the file the kubelet bind-mounts at terminationMessagePath becomes
// state.terminated.message; with FallbackToLogsOnError a failed container with an empty file gets its log tail.
// Our own runs of the upstream specs "[sig-node] Container Runtime blackbox test on terminated container ..."
// (test/e2e/common/node/runtime.go at v1.28): pods with restartPolicy Never, busybox `sh -c`, the expected
// phase and message as there.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { V1Container, V1PodSpec } from '@kubernetes/client-node';
import type { SuiteContext } from './suite-context.ts';
import { containerStatus as cs, removePod, waitPod, writePod } from './pods.ts';

function termPod(img: string, script: string, extra: Partial<V1Container>): V1PodSpec {
  return {
    restartPolicy: 'Never',
    terminationGracePeriodSeconds: 1,
    containers: [{ name: 'termination-message-container', image: img, imagePullPolicy: 'IfNotPresent', command: ['/bin/sh', '-c'], args: [script], ...extra }],
  };
}

const SPECS: Array<{ upstream: string; pod: string; script: string; extra: Partial<V1Container>; phase: 'Succeeded' | 'Failed'; message: string }> = [
  {
    upstream: 'should report termination message if TerminationMessagePath is set [NodeConformance]',
    pod: 'term-path',
    script: '/bin/echo -n DONE > /dev/termination-log',
    extra: { terminationMessagePath: '/dev/termination-log' },
    phase: 'Succeeded',
    message: 'DONE',
  },
  {
    upstream: 'should report termination message if TerminationMessagePath is set as non-root user and at a non-default path',
    pod: 'term-nonroot',
    script: '/bin/echo -n DONE > /dev/termination-custom-log',
    extra: { terminationMessagePath: '/dev/termination-custom-log', securityContext: { runAsUser: 1000 } },
    phase: 'Succeeded',
    message: 'DONE',
  },
  {
    upstream: 'should report termination message from log output if TerminationMessagePolicy FallbackToLogsOnError is set',
    pod: 'term-fallback-log',
    script: '/bin/echo -n DONE; /bin/false',
    extra: { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'FallbackToLogsOnError' },
    phase: 'Failed',
    message: 'DONE',
  },
  {
    upstream: 'should report termination message from file when pod succeeds and TerminationMessagePolicy FallbackToLogsOnError is set',
    pod: 'term-fallback-file',
    script: '/bin/echo -n OK > /dev/termination-log; /bin/true',
    extra: { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'FallbackToLogsOnError' },
    phase: 'Succeeded',
    message: 'OK',
  },
  {
    // Not in the failing list, but the other side of the same rule: a success never falls back to the log.
    upstream: 'should report termination message as empty when pod succeeds and TerminationMessagePolicy FallbackToLogsOnError is set',
    pod: 'term-fallback-empty',
    script: '/bin/echo -n DONE; /bin/true',
    extra: { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'FallbackToLogsOnError' },
    phase: 'Succeeded',
    message: '',
  },
  {
    // Ours: the kubelet bind-mounts the file wherever the path points; the runtime creates missing parents.
    upstream: '(ours) a non-root user and a path whose parent directories are not in the image',
    pod: 'term-deep-path',
    script: '/bin/echo -n DEEP > /nodelet-term/sub/message',
    extra: { terminationMessagePath: '/nodelet-term/sub/message', securityContext: { runAsUser: 1000 } },
    phase: 'Succeeded',
    message: 'DEEP',
  },
];

export function defineTerminationMessageScenarios(ctx: SuiteContext): void {
  describe('termination messages', () => {
    before(() => {
      for (const s of SPECS) writePod(ctx.agent, s.pod, termPod(ctx.rt.image, s.script, s.extra));
    });

    // The six pods start beside every other scenario's pods: on a loaded 2-core machine a sandbox can take a while.
    for (const s of SPECS) {
      it(`upstream: ${s.upstream}`, async () => {
        const p = await waitPod(ctx.agent, s.pod, s.phase, (x) => x.status?.phase === s.phase && Boolean(cs(x, 'termination-message-container')?.state?.terminated), 120_000);
        const t = cs(p, 'termination-message-container')?.state?.terminated;
        assert.equal(t?.message ?? '', s.message, `state.terminated of ${s.pod}: ${JSON.stringify(t)}`);
        removePod(ctx.agent, s.pod);
      });
    }
  });
}
