/**
 * `kubectl exec` / `kubectl port-forward` through the API server: @kubernetes/client-node's Exec and PortForward
 * (WebSocket, v5/v4.channel.k8s.io) → the API server TEST DOUBLE's pods/exec and pods/portforward (upgrade proxied
 * to the kubelet with its client cert) → a real agent's /exec and /portForward on 10250 → the embedded runtime's
 * CRI streaming server → the command in the container / 127.0.0.1:8080 in the pod's network namespace.
 * Also real `kubectl exec` when /usr/bin/kubectl exists.
 * Run: node --import tsx --test apps/agent/src/streams-apiserver.integration.test.ts
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Exec, KubeConfig, PortForward, type V1Pod, type V1Status } from '@kubernetes/client-node';
import type { ApiServerDouble } from '@nodelet/apiserver-double';
import { startApiNode } from './testing/api-node.ts';
import type { NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';

let api: ApiServerDouble;
let n: NodeAgent;
let kc: KubeConfig;
const SERVER = "require('node:net').createServer((s) => s.on('data', (d) => s.end('pod got ' + d))).listen(8080, '127.0.0.1')";

before(async () => {
  ({ api, agent: n } = await startApiNode('node-s', { staticPod: false, trustApiServerCa: true, args: () => ['--cgroups-per-qos=false'] }));
  kc = new KubeConfig();
  kc.loadFromFile(api.adminKubeconfig());
  api.store.create({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'srv', namespace: 'default' },
    spec: { nodeName: 'node-s', terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'nodelet.local/host:latest', imagePullPolicy: 'Never', command: ['node', '-e', SERVER] }] },
  });
  await eventually(async () => {
    const p = api.store.get('pods', 'default', 'srv') as V1Pod | undefined;
    return p?.status?.containerStatuses?.[0]?.state?.running ? true : undefined;
  }, 60_000, 'pod srv running');
});

after(async () => {
  await n?.cleanup();
  await api?.stop();
});

function sink(): { w: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const w = new Writable({ write: (c: Buffer, _e, cb) => (chunks.push(Buffer.from(c)), cb()) });
  return { w, text: () => Buffer.concat(chunks).toString() };
}

describe('exec and port-forward through the API server double', { timeout: 120_000 }, () => {
  it('exec: stdout, stderr and exit code 3 in the Status', async () => {
    const out = sink();
    const err = sink();
    const status = await new Promise<V1Status>((resolve, reject) => {
      new Exec(kc).exec('default', 'srv', 'c', ['sh', '-c', 'echo hi; echo err >&2; exit 3'], out.w, err.w, null, false, resolve).catch(reject);
    });
    assert.equal(out.text(), 'hi\n');
    assert.equal(err.text(), 'err\n');
    assert.equal(status.status, 'Failure');
    assert.equal(status.reason, 'NonZeroExitCode');
    assert.deepEqual(status.details?.causes, [{ reason: 'ExitCode', message: '3' }]);
  });

  it('exec of a command that succeeds ends with Success', async () => {
    const out = sink();
    const status = await new Promise<V1Status>((resolve, reject) => {
      new Exec(kc).exec('default', 'srv', 'c', ['hostname'], out.w, null, null, false, resolve).catch(reject);
    });
    assert.equal(status.status, 'Success');
    assert.equal(out.text(), 'srv\n');
  });

  // kubectl ≥ 1.30 speaks v5.channel.k8s.io over WebSocket for exec (SPDY, tty, attach: streams-kubectl.integration.test.ts).
  it('kubectl exec (when installed): output, exit code, stdin with -i', { skip: !existsSync('/usr/bin/kubectl') && 'no kubectl' }, async () => {
    const kubectl = (args: string[], input?: string) => new Promise<{ code: number; out: string; err: string }>((resolve) => {
      const c = execFile('kubectl', ['--kubeconfig', api.adminKubeconfig(), ...args], { timeout: 30_000 }, (e, out, err) =>
        resolve({ code: e ? Number((e as { code?: number }).code ?? -1) : 0, out, err }));
      c.stdin?.end(input ?? '');
    });
    const r = await kubectl(['exec', 'srv', '--', 'sh', '-c', 'echo hi; echo err >&2; exit 3']);
    assert.deepEqual([r.code, r.out], [3, 'hi\n']);
    assert.match(r.err, /^err\n.*exit code 3/s);
    const i = await kubectl(['exec', '-i', 'srv', '--', 'cat'], 'piped\n');
    assert.deepEqual([i.code, i.out], [0, 'piped\n']);
  });

  it('port-forward reaches 127.0.0.1:8080 inside the pod network namespace', async () => {
    const got = await eventually(async () => {
      const out = sink();
      const input = new PassThrough();
      const ws = await new PortForward(kc).portForward('default', 'srv', [8080], out.w, null, input);
      input.write('ping');
      await new Promise((r) => (ws as unknown as { once(e: string, f: () => void): void }).once('close', () => r(undefined)));
      return out.text().startsWith('pod got') ? out.text() : undefined;
    }, 20_000, 'port-forward answer');
    assert.equal(got, 'pod got ping');
  });
});
