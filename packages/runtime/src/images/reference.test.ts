import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPlainHttp, normalizeReference, parseReference, registryHost } from './reference.ts';

const D = 'sha256:' + 'a'.repeat(64);

test('normalizeReference: docker/containerd normalization', () => {
  const table: Array<[string, string | undefined]> = [
    ['busybox', 'docker.io/library/busybox:latest'],
    ['busybox:1.36', 'docker.io/library/busybox:1.36'],
    ['library/busybox', 'docker.io/library/busybox:latest'],
    ['docker.io/busybox', 'docker.io/library/busybox:latest'],
    ['index.docker.io/library/busybox:1', 'docker.io/library/busybox:1'],
    ['myorg/app:v2', 'docker.io/myorg/app:v2'],
    ['127.0.0.1:5000/busybox', '127.0.0.1:5000/busybox:latest'],
    ['localhost/pause', 'localhost/pause:latest'],
    ['localhost:5000/a/b/c:t', 'localhost:5000/a/b/c:t'],
    ['registry.k8s.io/pause:3.9', 'registry.k8s.io/pause:3.9'],
    ['nodelet.local/host', 'nodelet.local/host:latest'],
    [`busybox@${D}`, `docker.io/library/busybox@${D}`],
    [`busybox:1.36@${D}`, `docker.io/library/busybox:1.36@${D}`],
    ['[::1]:5000/x', '[::1]:5000/x:latest'],
    ['my_app__x/a-b.c', 'docker.io/my_app__x/a-b.c:latest'],
    ['', undefined],
    ['Busybox', undefined],
    ['busybox:', undefined],
    ['busybox@sha256:abc', undefined],
    ['busybox:-bad', undefined],
    ['a//b', undefined],
    ['-x', undefined],
  ];
  for (const [input, want] of table) {
    assert.equal(normalizeReference(input), want, `normalize(${JSON.stringify(input)})`);
  }
});

test('parseReference: parts', () => {
  const p = parseReference('127.0.0.1:5000/team/busybox:v1');
  assert.deepEqual(p, { ok: true, ref: { domain: '127.0.0.1:5000', path: 'team/busybox', tag: 'v1' } });
  const d = parseReference(`quay.io/x@${D}`);
  assert.deepEqual(d, { ok: true, ref: { domain: 'quay.io', path: 'x', digest: D } });
  const bad = parseReference('UPPER/x');
  assert.equal(bad.ok, false);
});

test('isPlainHttp: loopback and insecure registries', () => {
  const table: Array<[string, string[], boolean]> = [
    ['127.0.0.1:5000', [], true],
    ['127.1.2.3', [], true],
    ['localhost:5000', [], true],
    ['[::1]:5000', [], true],
    ['docker.io', [], false],
    ['registry.lan:5000', [], false],
    ['registry.lan:5000', ['registry.lan:5000'], true],
    ['registry.lan:5000', ['registry.lan'], true],
    ['registry.lan:5001', ['registry.lan:5000'], false],
  ];
  for (const [domain, insecure, want] of table) {
    assert.equal(isPlainHttp(domain, insecure), want, `${domain} ${insecure.join(',')}`);
  }
  assert.equal(registryHost('docker.io'), 'registry-1.docker.io');
  assert.equal(registryHost('quay.io'), 'quay.io');
});
