import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentsListing, parseAgents } from './agents.ts';

const fallback = { name: 'default', url: new URL('https://127.0.0.1:10250'), pkiDir: '/var/lib/kubelet/pki' };

test('parseAgents: the default agent plus NODELET_AGENTS, each with the shared or its own PKI dir', () => {
  const cases: Array<[string | undefined, Array<[string, string, string]>]> = [
    [undefined, [['default', 'https://127.0.0.1:10250', '/var/lib/kubelet/pki']]],
    ['a=https://10.0.0.1:10250, b=https://10.0.0.2:11250|/pki/b', [
      ['default', 'https://127.0.0.1:10250', '/var/lib/kubelet/pki'],
      ['a', 'https://10.0.0.1:10250', '/var/lib/kubelet/pki'],
      ['b', 'https://10.0.0.2:11250', '/pki/b'],
    ]],
    ['default=https://h:1', [['default', 'https://h:1', '/var/lib/kubelet/pki']]],
  ];
  for (const [spec, want] of cases) {
    const r = parseAgents(spec, fallback);
    assert.ok(r.ok);
    assert.deepEqual(r.agents.map((a) => [a.name, a.url.origin, a.pkiDir]), want);
  }
});

test('parseAgents rejects bad entries with a reason', () => {
  const cases: Array<[string, RegExp]> = [
    ['https://h:1', /not name=/],
    ['Bad_Name=https://h:1', /invalid agent name/],
    ['a=nope', /invalid URL/],
    ['a=ftp://h', /must be http/],
    ['a=https://h:1,a=https://h:2', /given twice/],
  ];
  for (const [spec, re] of cases) {
    const r = parseAgents(spec, fallback);
    assert.equal(r.ok, false, spec);
    if (!r.ok) assert.match(r.reason, re);
  }
});

test('agentsListing shows names and origins, no PKI paths', () => {
  assert.deepEqual(agentsListing([fallback]), [{ name: 'default', url: 'https://127.0.0.1:10250' }]);
});
