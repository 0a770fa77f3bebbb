/**
 * probes.* over tRPC, `nodelet:probes` on socket.io and /metrics/probes on both ports, against a fake kubelet
 * whose ProbesApi records every-run requests (reference-counted: released when the subscription or socket ends).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { io as connect } from 'socket.io-client';
import type { ProbeBusEvent } from '@nodelet/core/events';
import type { ProbesApi, ProbeWorkerInfo } from '@nodelet/core/kubelet';
import { nullLogger } from '@nodelet/core/util';
import { createAuthorizer } from '../servers/auth.ts';
import { createKubeletServer, type KubeletServer } from '../servers/kubelet-server.ts';
import { createReadOnlyServer, type PlainServer } from '../servers/readonly-server.ts';
import { FakeKubelet } from '../testing/fake-kubelet.ts';
import { doRequest, type TlsClientOptions } from '../testing/https-client.ts';
import { trpcTestClient } from '../testing/test-server.ts';
import { createTestPki, type TestPki } from '../testing/test-pki.ts';

const row = (pod: string, probeType: ProbeWorkerInfo['probeType']): ProbeWorkerInfo => ({
  pod: { namespace: 'default', name: pod, uid: `uid-${pod}` }, container: 'app', probeType, handler: 'exec', target: 'true',
  initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3, containerId: 'c1', consecutive: 0, onHold: false,
});

class RecordingProbes implements ProbesApi {
  refs = 0;
  rows = [row('web', 'readiness'), row('db', 'liveness')];
  list(f?: { namespace?: string; pod?: string }) {
    return this.rows.filter((r) => (!f?.pod || r.pod.name === f.pod) && (!f?.namespace || r.pod.namespace === f.namespace));
  }
  async metrics() {
    return { contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '# HELP prober_probe_total x\n# TYPE prober_probe_total counter\n' };
  }
  requestEveryRun() {
    this.refs++;
    let done = false;
    return () => {
      if (!done) this.refs--;
      done = true;
    };
  }
  everyRun() {
    return this.refs > 0;
  }
}

class ProbingKubelet extends FakeKubelet {
  readonly probes = new RecordingProbes();
}

const kubelet = new ProbingKubelet();
let tp: TestPki;
let srv: KubeletServer;
let ro: PlainServer;
let base: string;
let roBase: string;
let tls: TlsClientOptions;

before(async () => {
  tp = createTestPki();
  tls = { ca: tp.pki.ca.certPem, cert: tp.pki.console.certPem, key: tp.pki.console.keyPem };
  srv = createKubeletServer({
    kubelet, logger: nullLogger, authorizer: createAuthorizer('AlwaysAllow'), nodeName: 'fake-node', anonymousAuth: false,
    tls: { cert: tp.pki.serving.certPem, key: tp.pki.serving.keyPem, clientCAs: [tp.pki.ca.certPem] },
  });
  base = `https://127.0.0.1:${await srv.listen(0, '127.0.0.1')}`;
  ro = createReadOnlyServer(kubelet, nullLogger);
  roBase = `http://127.0.0.1:${await ro.listen(0, '127.0.0.1')}`;
});
after(async () => {
  await srv.closeStreams();
  await srv.close(10);
  await ro.close(10);
  tp.cleanup();
});

const client = () => trpcTestClient(base, tls);

const probeEvent = (pod: string, result: ProbeBusEvent['result']) =>
  ({ type: 'probe' as const, pod: { namespace: 'default', name: pod, uid: `uid-${pod}` }, container: 'app', probeType: 'readiness' as const, result, latencyMs: 3 });

const until = async (what: string, pred: () => boolean) => {
  for (let i = 0; i < 500 && !pred(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(pred(), what);
};

describe('probes API', () => {
  it('probes.list filters by pod; probes.recent returns probe events only', async () => {
    const c = client();
    assert.deepEqual((await c.probes.list.query()).map((r) => r.pod.name), ['web', 'db']);
    assert.deepEqual((await c.probes.list.query({ pod: 'db' })).map((r) => r.probeType), ['liveness']);
    kubelet.events.publish(probeEvent('web', 'failure'));
    kubelet.events.publish({ type: 'runtime', ready: true, message: '' });
    const recent = await c.probes.recent.query({ pod: 'web' });
    assert.deepEqual(recent.map((e) => [e.type, e.result]), [['probe', 'failure']]);
  });

  it('probes.onEvent streams matching probe events and holds every-run while subscribed', async () => {
    const got: ProbeBusEvent[] = [];
    const sub = client().probes.onEvent.subscribe({ pod: 'web', everyRun: true }, { onData: (d) => got.push(d.data) });
    await until('every-run requested', () => kubelet.probes.refs === 1);
    kubelet.events.publish(probeEvent('db', 'success'));
    kubelet.events.publish(probeEvent('web', 'success'));
    await until('event received', () => got.length > 0);
    assert.deepEqual(got.map((e) => [e.pod.name, e.result]), [['web', 'success']]);
    sub.unsubscribe();
    await until('every-run released', () => kubelet.probes.refs === 0);
  });

  it('socket.io nodelet:probes toggles every-run; a disconnect releases it', async () => {
    const s = connect(base, { path: '/socket.io', transports: ['websocket'], reconnection: false, ...tls });
    await new Promise<void>((resolve, reject) => {
      s.once('nodelet:hello', () => resolve());
      s.once('connect_error', reject);
    });
    s.emit('nodelet:probes', { everyRun: true });
    s.emit('nodelet:probes', { everyRun: true });
    await until('requested once', () => kubelet.probes.refs === 1);
    s.emit('nodelet:probes', { everyRun: false });
    await until('released', () => kubelet.probes.refs === 0);
    s.emit('nodelet:probes', { everyRun: true });
    await until('requested again', () => kubelet.probes.refs === 1);
    s.disconnect();
    await until('released on disconnect', () => kubelet.probes.refs === 0);
  });

  it('/metrics/probes on the kubelet port (authenticated) and the read-only port', async () => {
    const secure = await doRequest(`${base}/metrics/probes`, tls);
    assert.equal(secure.status, 200);
    assert.match(secure.body, /^# HELP prober_probe_total/);
    assert.equal((await doRequest(`${base}/metrics/probes`, { ca: tls.ca })).status, 401);
    const plain = await doRequest(`${roBase}/metrics/probes`);
    assert.equal(plain.status, 200);
    assert.match(plain.body, /# TYPE prober_probe_total counter/);
    assert.equal((await doRequest(`${roBase}/metrics/probes`, {}, 'POST')).status, 405);
  });
});
