import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '@nodelet/core/testing';
import { DoubleStore } from '../store/double-store.ts';
import { Registry } from '../store/registry.ts';
import type { AuthzAttributes } from './authn.ts';
import { nodeRestrictionPolicy } from './node-policy.ts';

test('node-restriction policy: a node may touch only its own objects', () => {
  const store = new DoubleStore(new Registry(new FakeClock()));
  for (const name of ['default', 'kube-node-lease']) store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  store.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'mine', namespace: 'default' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] } });
  store.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'theirs', namespace: 'default' }, spec: { nodeName: 'n2', containers: [{ name: 'c', image: 'i' }] } });
  const policy = nodeRestrictionPolicy(() => store);
  const node = { user: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
  const cases: [Partial<AuthzAttributes>, boolean][] = [
    [{ verb: 'list', resource: 'pods' }, true],
    [{ verb: 'patch', resource: 'pods', subresource: 'status', namespace: 'default', name: 'mine' }, true],
    [{ verb: 'patch', resource: 'pods', subresource: 'status', namespace: 'default', name: 'theirs' }, false],
    [{ verb: 'delete', resource: 'pods', namespace: 'default', name: 'theirs' }, false],
    [{ verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n1' }, true],
    [{ verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n2' }, false],
    [{ verb: 'update', resource: 'leases', group: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'n1' }, true],
    [{ verb: 'update', resource: 'leases', group: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'n2' }, false],
    [{ verb: 'get', resource: 'secrets', namespace: 'default', name: 's' }, true],
    [{ verb: 'list', resource: 'secrets', namespace: 'default' }, false],
    [{ verb: 'get', resource: 'secrets', namespace: 'kube-node-lease', name: 's' }, false],
    [{ verb: 'create', resource: 'events', namespace: 'default' }, true],
  ];
  for (const [a, want] of cases) {
    const d = policy({ ...node, verb: 'get', ...a } as AuthzAttributes);
    assert.equal(d.allowed, want, JSON.stringify(a));
  }
  assert.equal(policy({ user: 'system:node:n1', groups: [], verb: 'list', resource: 'pods' }).allowed, false, 'needs system:nodes');
  assert.equal(policy({ user: 'admin', groups: ['system:masters'], verb: 'delete', resource: 'nodes' }).allowed, true);
});
