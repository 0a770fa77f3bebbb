import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refSpellings, sandboxImageOf } from './sandbox-image.ts';

describe('sandboxImageOf: CRI Status verbose info', () => {
  const cases: Array<{ name: string; info: Record<string, string> | undefined; want: string | undefined }> = [
    { name: 'containerd 1.6 config', info: { config: JSON.stringify({ sandboxImage: 'registry.k8s.io/pause:3.6', containerd: {} }) }, want: 'registry.k8s.io/pause:3.6' },
    { name: 'no info (non-verbose, embedded runtime)', info: {}, want: undefined },
    { name: 'undefined info', info: undefined, want: undefined },
    { name: 'config without sandboxImage', info: { config: '{"enableSelinux":false}' }, want: undefined },
    { name: 'empty sandboxImage', info: { config: '{"sandboxImage":""}' }, want: undefined },
    { name: 'not JSON', info: { config: 'sandbox_image = "x"' }, want: undefined },
  ];
  for (const c of cases) it(c.name, () => assert.equal(sandboxImageOf(c.info), c.want));
});

describe('refSpellings', () => {
  const cases = [
    { ref: 'localhost/pause:latest', want: ['localhost/pause:latest'] },
    { ref: 'localhost/pause', want: ['localhost/pause', 'localhost/pause:latest'] },
    { ref: 'pause:3.9', want: ['pause:3.9', 'docker.io/library/pause:3.9'] },
    { ref: 'rancher/pause:3.6', want: ['rancher/pause:3.6', 'docker.io/rancher/pause:3.6'] },
    { ref: 'registry.k8s.io/pause:3.9', want: ['registry.k8s.io/pause:3.9'] },
    { ref: 'Bad Ref', want: ['Bad Ref'] },
  ];
  for (const c of cases) it(c.ref, () => assert.deepEqual(refSpellings(c.ref), c.want));
});
