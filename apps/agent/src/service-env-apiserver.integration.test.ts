/**
 * Service environment variables in API-server mode (the API server TEST DOUBLE, one real agent with its
 * embedded runtime). Our own test of the behaviour upstream checks in test/e2e/common/node/pods.go "Pods should
 * contain environment variables for services": a container started after a Service exists in its namespace
 * sees `<NAME>_SERVICE_HOST` / `_SERVICE_PORT` and the Docker-link variables; the default namespace's
 * `kubernetes` service is seen always, other namespaces' services never, headless services never, and with
 * enableServiceLinks: false only the master service (kubelet_pods.go getServiceEnvVarMap).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ApiServerDouble, KubeObject } from '@nodelet/apiserver-double';
import { boundPod, startApiNode } from './testing/api-node.ts';
import { call, type NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';

const NODE = 'node-svcenv';
let api: ApiServerDouble;
let agent: NodeAgent;
const tls = () => ({ cert: readFileSync(join(agent.root, 'pki', 'console.crt'), 'utf8'), key: readFileSync(join(agent.root, 'pki', 'console.key'), 'utf8') });
const service = (name: string, namespace: string, clusterIP: string, port: number): KubeObject => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name, namespace }, spec: { clusterIP, ports: [{ port, protocol: 'TCP', targetPort: 8080 }], selector: { app: name } },
});

/** The container's environment as it printed it (`env` once, then sleeps). */
async function envOf(pod: string): Promise<Map<string, string>> {
  const body = await eventually(async () => {
    const r = await call(`https://127.0.0.1:${agent.port}/containerLogs/default/${pod}/c`, tls());
    return r.status === 200 && r.body.includes('ENV-END') ? r.body : undefined;
  }, 60_000, `${pod} printed its env`);
  return new Map(body.split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

before(async () => {
  ({ api, agent } = await startApiNode(NODE, { staticPod: false }));
  api.store.create(service('kubernetes', 'default', '10.96.0.1', 443));
  api.store.create(service('fooservice', 'default', '10.96.0.42', 8765));
  api.store.create(service('headless', 'default', 'None', 80));
  api.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
  api.store.create(service('elsewhere', 'other', '10.96.0.77', 81));
});

after(async () => {
  await agent?.cleanup();
  await api?.stop();
});

describe('service environment variables through the API server', { timeout: 180_000 }, () => {
  it('a pod sees the services of its namespace and the master service, with the Docker-link variables', async () => {
    api.store.create(boundPod('svc-env', NODE, { script: "env; echo ENV-END; trap 'exit 0' TERM; while true; do sleep 1; done" }));
    const env = await envOf('svc-env');
    const want: Record<string, string> = {
      FOOSERVICE_SERVICE_HOST: '10.96.0.42',
      FOOSERVICE_SERVICE_PORT: '8765',
      FOOSERVICE_PORT: 'tcp://10.96.0.42:8765',
      FOOSERVICE_PORT_8765_TCP: 'tcp://10.96.0.42:8765',
      FOOSERVICE_PORT_8765_TCP_PROTO: 'tcp',
      FOOSERVICE_PORT_8765_TCP_PORT: '8765',
      FOOSERVICE_PORT_8765_TCP_ADDR: '10.96.0.42',
      KUBERNETES_SERVICE_HOST: '10.96.0.1',
      KUBERNETES_SERVICE_PORT: '443',
      KUBERNETES_PORT: 'tcp://10.96.0.1:443',
    };
    for (const [k, v] of Object.entries(want)) assert.equal(env.get(k), v, k);
    assert.equal(env.has('HEADLESS_SERVICE_HOST'), false, 'no variables for a service without a cluster IP');
    assert.equal(env.has('ELSEWHERE_SERVICE_HOST'), false, "no variables for another namespace's service");
  });

  it('enableServiceLinks: false keeps only the master service', async () => {
    const p = boundPod('svc-env-off', NODE, { script: "env; echo ENV-END; trap 'exit 0' TERM; while true; do sleep 1; done" });
    p.spec.enableServiceLinks = false;
    api.store.create(p);
    const env = await envOf('svc-env-off');
    assert.equal(env.get('KUBERNETES_SERVICE_HOST'), '10.96.0.1');
    assert.equal(env.has('FOOSERVICE_SERVICE_HOST'), false);
  });
});
