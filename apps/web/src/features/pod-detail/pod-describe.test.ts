// The expected text is real `kubectl describe pod` output (kubectl v1.32, TZ=UTC) for the pod and events in
// testdata/kubectl-describe-pod.json, served by the API-server double at the recorded `now`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { K8sBusEvent, WirePod } from '../../lib/api-types.ts';
import { describePod, describeProbe, rfc1123z, since } from './pod-describe.ts';
import { tabwrite } from './tabwriter.ts';

const fixture = JSON.parse(readFileSync(new URL('./testdata/kubectl-describe-pod.json', import.meta.url), 'utf8')) as { now: number; pod: WirePod; events: K8sBusEvent[]; kubectl: string };

test('describePod prints what kubectl describe pod prints for the same pod and events', () => {
  assert.equal(describePod(fixture.pod, fixture.events, fixture.now), fixture.kubectl.replace(/\n$/, ''));
});

test('a terminating pod: Status Terminating (lasts …) and its grace period, as kubectl', () => {
  const pod = structuredClone(fixture.pod);
  pod.metadata!.deletionTimestamp = new Date(fixture.now - 10_000).toISOString() as never;
  pod.metadata!.deletionGracePeriodSeconds = 30;
  const text = describePod(pod, [], fixture.now);
  assert.match(text, /^Status: +Terminating \(lasts 10s\)$/m);
  assert.match(text, /^Termination Grace Period: +30s$/m);
  assert.match(text, /^Events: +<none>$/m);
});

test('HumanDuration, RFC1123Z, probes with API defaults', () => {
  const now = Date.parse('2026-11-26T06:00:00Z');
  const cases: Array<[number, string]> = [[0, '0s'], [119, '119s'], [120, '2m'], [200, '3m20s'], [3599, '59m'], [3 * 3600 + 60, '3h1m'], [9 * 3600, '9h'], [50 * 3600, '2d2h'], [400 * 86400, '400d'], [-1, '0s'], [-5, '<invalid>']];
  for (const [s, want] of cases) assert.equal(since(now - s * 1000, now), want, String(s));
  assert.equal(rfc1123z('2026-11-26T06:07:08Z'), 'Thu, 26 Nov 2026 06:07:08 +0000');
  assert.equal(describeProbe({ tcpSocket: { port: 8080 as never } }), 'tcp-socket :8080 delay=0s timeout=1s period=10s #success=1 #failure=3');
  assert.equal(describeProbe({ grpc: { port: 9000, service: 'health' } }), 'grpc <pod>:9000 health delay=0s timeout=1s period=10s #success=1 #failure=3');
});

test('tabwriter: column blocks end at a line without the column', () => {
  assert.equal(tabwrite('a:\tx\nlong key:\ty\nbreak\nb:\tz'), 'a:         x\nlong key:  y\nbreak\nb:  z');
  assert.equal(tabwrite('  T\tR\tM\n  Normal\tPulled\tok'), '  T       R       M\n  Normal  Pulled  ok');
});
