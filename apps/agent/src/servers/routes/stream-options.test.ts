// The kubelet's exec / attach stream options (pkg/kubelet/cri/streaming/remotecommand NewOptions): the API server
// forwards input / output / error / tty = "1" (pkg/registry/core/pod/strategy.go streamParams).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streamOptions } from './stream-options.ts';

describe('streamOptions', () => {
  const table: Array<[string, ReturnType<typeof streamOptions>]> = [
    // what kube-apiserver sends for `kubectl exec pod -- cmd` (stdout + stderr)
    ['output=1&error=1&command=ls', { ok: true, opts: { stdin: false, stdout: true, stderr: true, tty: false } }],
    // `kubectl exec -it`: stdin + stdout + tty, stderr dropped with a tty
    ['input=1&output=1&error=1&tty=1', { ok: true, opts: { stdin: true, stdout: true, stderr: false, tty: true } }],
    ['input=1', { ok: true, opts: { stdin: true, stdout: false, stderr: false, tty: false } }],
    // clients that talk to the kubelet directly with the API's names
    ['stdout=true&stderr=1', { ok: true, opts: { stdin: false, stdout: true, stderr: true, tty: false } }],
    ['output=0&error=false', { ok: false, reason: 'you must specify at least 1 of stdin, stdout, stderr' }],
    ['command=ls', { ok: false, reason: 'you must specify at least 1 of stdin, stdout, stderr' }],
    ['tty=1&error=1', { ok: false, reason: 'you must specify at least 1 of stdin, stdout, stderr' }],
  ];
  for (const [query, want] of table) it(query, () => assert.deepEqual(streamOptions(new URLSearchParams(query)), want));
});
