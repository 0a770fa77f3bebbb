import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_COUNT, MAX_COUNT, parseCadvisorRequest } from './cadvisor-request.ts';

describe('parseCadvisorRequest', () => {
  const ok: [string, string, { resource: string; name: string; recursive?: boolean; count?: number }][] = [
    ['/api/v1.3/machine', '', { resource: 'machine', name: '/' }],
    ['/api/v2.0/machine/', '', { resource: 'machine', name: '/' }],
    ['/api/v1.3/containers', '', { resource: 'containers', name: '/' }],
    ['/api/v1.3/containers/kubepods//podu/', '', { resource: 'containers', name: '/kubepods/podu' }],
    ['/api/v2.0/stats/kubepods/podu/c1', 'count=2', { resource: 'stats', name: '/kubepods/podu/c1', count: 2 }],
    ['/api/v2.0/stats', 'count=99999', { resource: 'stats', name: '/', count: MAX_COUNT }],
    ['/api/v2.0/spec/a%20b', 'recursive=true', { resource: 'spec', name: '/a b', recursive: true }],
    ['/api/v2.0/ps/x', 'recursive=false', { resource: 'ps', name: '/x', recursive: false, count: DEFAULT_COUNT }],
  ];
  for (const [path, query, want] of ok) {
    it(`${path}?${query} parses`, () => {
      const r = parseCadvisorRequest(path, new URLSearchParams(query));
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.req.resource, want.resource);
      assert.equal(r.req.name, want.name);
      assert.equal(r.req.recursive, want.recursive ?? false);
      assert.equal(r.req.count, want.count ?? DEFAULT_COUNT);
    });
  }

  const bad: [string, string, number, RegExp][] = [
    ['/api/v9/machine', '', 404, /unsupported API version "v9"/],
    ['/api/', '', 404, /unsupported API version ""/],
    ['/api/v1.3/spec', '', 404, /unknown v1.3 resource "spec"/],
    ['/api/v2.0/containers/x', '', 404, /unknown v2.0 resource "containers"/],
    ['/api/v1.3/machine/x', '', 404, /takes no container name/],
    ['/api/v2.0/stats/x', 'count=abc', 400, /invalid count "abc"/],
    ['/api/v2.0/stats/x', 'count=0', 400, /invalid count "0"/],
    ['/api/v2.0/stats/x', 'count=-3', 400, /invalid count "-3"/],
    ['/api/v2.0/stats/x', 'count=1.5', 400, /invalid count/],
    ['/api/v2.0/spec/x', 'recursive=yes', 400, /invalid recursive value "yes"/],
    ['/api/v2.0/stats/..%2F..%2Fetc', '', 400, /invalid character/],
    ['/api/v2.0/stats/a/../../etc', '', 400, /may not contain "\.\." segments/],
    ['/api/v2.0/ps/%2e%2e', '', 400, /may not contain "\.\." segments/],
    ['/api/v2.0/ps/a/./b', '', 400, /may not contain "\." segments/],
    ['/api/v2.0/ps/a%5Cb', '', 400, /invalid character/],
    ['/api/v2.0/ps/a%00b', '', 400, /invalid character/],
    ['/api/v2.0/ps/%E0%A4%A', '', 400, /malformed percent-encoding/],
  ];
  for (const [path, query, status, reason] of bad) {
    it(`${path}?${query} → ${status}`, () => {
      const r = parseCadvisorRequest(path, new URLSearchParams(query));
      assert.ok(!r.ok);
      assert.equal(r.status, status);
      assert.match(r.reason, reason);
    });
  }
});
