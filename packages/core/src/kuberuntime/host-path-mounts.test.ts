import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { hostPathMounts } from './host-path-mounts.ts';

test('hostPathMounts: hostPath volumes become CRI mounts (subPath, readOnly); other volume types are left out', () => {
  const pod: V1Pod = {
    spec: {
      volumes: [{ name: 'bin', hostPath: { path: '/usr/bin' } }, { name: 'scratch', emptyDir: {} }, { name: 'lib', hostPath: { path: '/lib', type: 'Directory' } }],
      containers: [],
    },
  };
  const cases: Array<[string, NonNullable<V1Pod['spec']>['containers'][number]['volumeMounts'], unknown[]]> = [
    ['none', undefined, []],
    ['plain', [{ name: 'lib', mountPath: '/lib' }], [{ containerPath: '/lib', hostPath: '/lib', readonly: false, propagation: 'PROPAGATION_PRIVATE' }]],
    ['subPath + readOnly', [{ name: 'bin', mountPath: '/usr/bin/node', subPath: 'node', readOnly: true }], [{ containerPath: '/usr/bin/node', hostPath: '/usr/bin/node', readonly: true, propagation: 'PROPAGATION_PRIVATE' }]],
    ['emptyDir and unknown names skipped', [{ name: 'scratch', mountPath: '/s' }, { name: 'nope', mountPath: '/n' }], []],
  ];
  for (const [name, volumeMounts, want] of cases) assert.deepEqual(hostPathMounts(pod, { name: 'c', ...(volumeMounts ? { volumeMounts } : {}) }), want, name);
});
