// parseLogOptions against the kubelet's rules for /containerLogs: the v1 PodLogOptions fields, ValidatePodLogOptions'
// messages (pkg/apis/core/validation: tailLines >= 0, limitBytes > 0, sinceSeconds > 0, at most one since) and the
// legacy `tail` parameter (pkg/kubelet/server/server.go getContainerLogs). Each refusal names its parameter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLogOptions } from './log-options.ts';

const parse = (q: string) => parseLogOptions(new URLSearchParams(q));

test('parseLogOptions: accepted queries', () => {
  const ok: Array<[string, object]> = [
    ['', {}],
    ['follow=true&previous=1&timestamps=false', { follow: true, previous: true, timestamps: false }],
    ['tailLines=0&limitBytes=1&sinceSeconds=1', { tailLines: 0, limitBytes: 1, sinceSeconds: 1 }],
    ['sinceTime=2026-11-26T05:00:00.5Z', { sinceTime: '2026-11-26T05:00:00.5Z' }],
    ['tail=20', { tailLines: 20 }],
    ['tail=20&tailLines=3', { tailLines: 20 }],
    ['tail=all&tailLines=3', {}],
  ];
  for (const [q, want] of ok) assert.deepEqual(parse(q), { ok: true, value: want }, q);
});

test('parseLogOptions: refusals name the parameter (400 on /containerLogs)', () => {
  const bad: Array<[string, string]> = [
    ['tailLines=-1', 'tailLines: Invalid value: -1: must be greater than or equal to 0'],
    ['tailLines=ten', 'tailLines: Invalid value: "ten": must be an integer'],
    ['tailLines=1.5', 'tailLines: Invalid value: "1.5": must be an integer'],
    ['tail=-4', 'tailLines: Invalid value: -4: must be greater than or equal to 0'],
    ['sinceSeconds=0', 'sinceSeconds: Invalid value: 0: must be greater than 0'],
    ['sinceSeconds=-30', 'sinceSeconds: Invalid value: -30: must be greater than 0'],
    ['sinceSeconds=5m', 'sinceSeconds: Invalid value: "5m": must be an integer'],
    ['limitBytes=0', 'limitBytes: Invalid value: 0: must be greater than 0'],
    ['limitBytes=-5', 'limitBytes: Invalid value: -5: must be greater than 0'],
    ['limitBytes=', 'limitBytes: Invalid value: "": must be an integer'],
    ['follow=maybe', 'follow: Invalid value: "maybe": must be a boolean'],
    ['sinceTime=yesterday', 'sinceTime: Invalid value: "yesterday": must be an RFC3339 time'],
    ['sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z', 'at most one of `sinceTime` or `sinceSeconds` may be specified'],
  ];
  for (const [q, reason] of bad) assert.deepEqual(parse(q), { ok: false, reason }, q);
});
