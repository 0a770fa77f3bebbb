// Expected values from kubernetes pkg/kubelet/envvars/envvars_test.go (TestFromServices) and
// pkg/kubelet/kubelet_pods_test.go (TestMakeEnvironmentVariables: its services and namespace cases).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod, V1Service } from '@kubernetes/client-node';
import { fromServices, serviceEnvVarMap } from './service-env.ts';
import { makeEnvironment } from './container-env.ts';

const svc = (name: string, namespace: string, clusterIP: string, ports: Array<{ name?: string; port: number; protocol?: string }>): V1Service => ({ metadata: { name, namespace }, spec: { clusterIP, ports } });

test('fromServices: the upstream TestFromServices table', () => {
  const vars = fromServices([
    svc('foo-bar', '', '1.2.3.4', [{ port: 8080, protocol: 'TCP' }]),
    svc('abc-123', '', '5.6.7.8', [{ name: 'u-d-p', port: 8081, protocol: 'UDP' }, { name: 't-c-p', port: 8081, protocol: 'TCP' }]),
    svc('q-u-u-x', '', '9.8.7.6', [{ port: 8082, protocol: 'TCP' }, { name: '8083', port: 8083, protocol: 'TCP' }]),
    svc('svrc-clusterip-none', '', 'None', [{ port: 8082, protocol: 'TCP' }]),
    svc('svrc-clusterip-empty', '', '', [{ port: 8082, protocol: 'TCP' }]),
  ]).map((e) => `${e.name}=${e.value}`);
  assert.deepEqual(vars, [
    'FOO_BAR_SERVICE_HOST=1.2.3.4', 'FOO_BAR_SERVICE_PORT=8080', 'FOO_BAR_PORT=tcp://1.2.3.4:8080', 'FOO_BAR_PORT_8080_TCP=tcp://1.2.3.4:8080',
    'FOO_BAR_PORT_8080_TCP_PROTO=tcp', 'FOO_BAR_PORT_8080_TCP_PORT=8080', 'FOO_BAR_PORT_8080_TCP_ADDR=1.2.3.4',
    'ABC_123_SERVICE_HOST=5.6.7.8', 'ABC_123_SERVICE_PORT=8081', 'ABC_123_SERVICE_PORT_U_D_P=8081', 'ABC_123_SERVICE_PORT_T_C_P=8081',
    'ABC_123_PORT=udp://5.6.7.8:8081', 'ABC_123_PORT_8081_UDP=udp://5.6.7.8:8081', 'ABC_123_PORT_8081_UDP_PROTO=udp', 'ABC_123_PORT_8081_UDP_PORT=8081',
    'ABC_123_PORT_8081_UDP_ADDR=5.6.7.8', 'ABC_123_PORT_8081_TCP=tcp://5.6.7.8:8081', 'ABC_123_PORT_8081_TCP_PROTO=tcp', 'ABC_123_PORT_8081_TCP_PORT=8081',
    'ABC_123_PORT_8081_TCP_ADDR=5.6.7.8',
    'Q_U_U_X_SERVICE_HOST=9.8.7.6', 'Q_U_U_X_SERVICE_PORT=8082', 'Q_U_U_X_SERVICE_PORT_8083=8083', 'Q_U_U_X_PORT=tcp://9.8.7.6:8082',
    'Q_U_U_X_PORT_8082_TCP=tcp://9.8.7.6:8082', 'Q_U_U_X_PORT_8082_TCP_PROTO=tcp', 'Q_U_U_X_PORT_8082_TCP_PORT=8082', 'Q_U_U_X_PORT_8082_TCP_ADDR=9.8.7.6',
    'Q_U_U_X_PORT_8083_TCP=tcp://9.8.7.6:8083', 'Q_U_U_X_PORT_8083_TCP_PROTO=tcp', 'Q_U_U_X_PORT_8083_TCP_PORT=8083', 'Q_U_U_X_PORT_8083_TCP_ADDR=9.8.7.6',
  ]);
});

// TestMakeEnvironmentVariables' services (buildService: one port, protocol TCP).
const services = [
  svc('kubernetes', 'default', '1.2.3.1', [{ port: 8081, protocol: 'TCP' }]),
  svc('test', 'test1', '1.2.3.3', [{ port: 8083, protocol: 'TCP' }]),
  svc('kubernetes', 'test2', '1.2.3.4', [{ port: 8084, protocol: 'TCP' }]),
  svc('test', 'test2', '1.2.3.5', [{ port: 8085, protocol: 'TCP' }]),
  svc('test', 'test2', 'None', [{ port: 8085, protocol: 'TCP' }]),
  svc('test', 'test2', '', [{ port: 8085, protocol: 'TCP' }]),
  svc('not-special', 'default', '1.2.3.8', [{ port: 8088, protocol: 'TCP' }]),
  svc('not-special', 'default', 'None', [{ port: 8088, protocol: 'TCP' }]),
  svc('not-special', 'default', '', [{ port: 8088, protocol: 'TCP' }]),
];
const link = (p: string, ip: string, port: number) => [`${p}_SERVICE_HOST=${ip}`, `${p}_SERVICE_PORT=${port}`, `${p}_PORT=tcp://${ip}:${port}`, `${p}_PORT_${port}_TCP=tcp://${ip}:${port}`, `${p}_PORT_${port}_TCP_PROTO=tcp`, `${p}_PORT_${port}_TCP_PORT=${port}`, `${p}_PORT_${port}_TCP_ADDR=${ip}`];
const sorted = (m: Map<string, string>) => [...m].map(([k, v]) => `${k}=${v}`).sort();

test('serviceEnvVarMap: the master service always, the namespace services with enableServiceLinks (upstream cases)', () => {
  assert.deepEqual(sorted(serviceEnvVarMap(services, 'test1', false)), link('KUBERNETES', '1.2.3.1', 8081).sort(), 'api server = N; kubelet = Y');
  assert.deepEqual(sorted(serviceEnvVarMap(services, 'test1', true)), [...link('TEST', '1.2.3.3', 8083), ...link('KUBERNETES', '1.2.3.1', 8081)].sort(), 'service env vars');
  assert.deepEqual(sorted(serviceEnvVarMap(services, 'test2', false)), link('KUBERNETES', '1.2.3.1', 8081).sort(), 'master service in pod ns');
  assert.deepEqual(sorted(serviceEnvVarMap(services, 'test2', true)), [...link('TEST', '1.2.3.5', 8085), ...link('KUBERNETES', '1.2.3.4', 8084)].sort(), 'master service in pod ns, service env vars');
  assert.deepEqual(sorted(serviceEnvVarMap(services, 'default', true)), [...link('NOT_SPECIAL', '1.2.3.8', 8088), ...link('KUBERNETES', '1.2.3.1', 8081)].sort(), 'pod in master service ns, service env vars');
  assert.deepEqual(sorted(serviceEnvVarMap([], 'default', true)), [], 'no lister: none');
});

test('makeEnvironment: container env wins over service vars, $(VAR) sees them, services come last; unsynced services refuse an API pod', async () => {
  const pod: V1Pod = { metadata: { name: 'p', namespace: 'test1', annotations: { 'kubernetes.io/config.source': 'api' } }, spec: { containers: [], enableServiceLinks: true } };
  const c = { name: 'c', env: [{ name: 'TEST_SERVICE_PORT', value: '9999' }, { name: 'SERVICE_VAR_TEST', value: '$(TEST_SERVICE_HOST):$(TEST_SERVICE_PORT)' }] };
  const none = async () => ({ ok: false as const, notFound: true, message: 'not found' });
  const objects = { getConfigMap: none, getSecret: none, getServices: async () => ({ ok: true as const, services }) };
  const r = await makeEnvironment(pod, c, { podIp: '', podIps: [], nodeName: 'n', objects });
  assert.ok(r.ok);
  const env = r.env.map((e) => `${e.key}=${e.value}`);
  assert.deepEqual(env.slice(0, 2), ['TEST_SERVICE_PORT=9999', 'SERVICE_VAR_TEST=1.2.3.3:9999']);
  assert.ok(env.includes('TEST_SERVICE_HOST=1.2.3.3') && env.includes('KUBERNETES_SERVICE_HOST=1.2.3.1'));
  assert.equal(env.filter((e) => e.startsWith('TEST_SERVICE_PORT=')).length, 1);
  const unsynced = { ...objects, getServices: async () => ({ ok: false as const, message: 'services have not yet been read at least once, cannot construct envvars' }) };
  assert.deepEqual(await makeEnvironment(pod, c, { podIp: '', podIps: [], nodeName: 'n', objects: unsynced }), { ok: false, message: 'services have not yet been read at least once, cannot construct envvars' });
});
