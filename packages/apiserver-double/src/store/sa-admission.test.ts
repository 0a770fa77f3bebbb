import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../resources.ts';
import { admitServiceAccount, kubeApiAccessVolume, SA_MOUNT_PATH } from './sa-admission.ts';

const pod = (spec: Record<string, unknown>, annotations?: Record<string, string>): KubeObject => ({
  metadata: { name: 'p', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { containers: [{ name: 'a' }, { name: 'b', volumeMounts: [{ name: 'own', mountPath: SA_MOUNT_PATH }] }], initContainers: [{ name: 'i' }], ...spec },
});

test('admitServiceAccount: adds kube-api-access when the service account exists and automount is on', () => {
  const sas: Record<string, KubeObject> = {
    'ns/default': { metadata: { name: 'default' } },
    'ns/off': { metadata: { name: 'off' }, automountServiceAccountToken: false },
  };
  const cases: Array<{ name: string; p: KubeObject; mounted: string[] }> = [
    { name: 'default SA', p: pod({}), mounted: ['i', 'a'] },
    { name: 'missing SA: unchanged', p: pod({ serviceAccountName: 'nope' }), mounted: [] },
    { name: 'SA opts out', p: pod({ serviceAccountName: 'off' }), mounted: [] },
    { name: 'pod opts back in', p: pod({ serviceAccountName: 'off', automountServiceAccountToken: true }), mounted: ['i', 'a'] },
    { name: 'pod opts out', p: pod({ automountServiceAccountToken: false }), mounted: [] },
    { name: 'mirror pod', p: pod({}, { 'kubernetes.io/config.mirror': 'x' }), mounted: [] },
  ];
  for (const tc of cases) {
    admitServiceAccount(tc.p, (ns, name) => sas[`${ns}/${name}`], () => 'abcde');
    const cs = [...tc.p.spec.initContainers, ...tc.p.spec.containers] as Array<{ name: string; volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }> }>;
    const mounted = cs.filter((c) => c.volumeMounts?.some((m) => m.name === 'kube-api-access-abcde' && m.mountPath === SA_MOUNT_PATH && m.readOnly)).map((c) => c.name);
    assert.deepEqual(mounted, tc.mounted, tc.name);
    assert.deepEqual(tc.p.spec.volumes ?? [], tc.mounted.length ? [kubeApiAccessVolume('kube-api-access-abcde')] : [], tc.name);
  }
});
