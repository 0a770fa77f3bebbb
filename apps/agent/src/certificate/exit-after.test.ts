/**
 * The kubelet's exit on a lost client certificate (pkg/kubelet/certificate/transport.go, exitAfter = 5 min,
 * checked every 10 s) and the manager's ServerHealthy (client-go certificate_manager.go updateServerError /
 * updateCached) it depends on. Injected clock; the exit is recorded.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FakeClock, RecordingLogger } from '@nodelet/core/testing';
import { CsrError } from './csr-client.ts';
import { watchClientCertificate, type ClientCertificateSource } from './exit-after.ts';
import { CertificateStore } from './store.ts';
import { certTestBed, testLeaf } from './testing.ts';

const bed = certTestBed('nodelet-certexit-');
const { root, ca, key, harness } = bed;
const T0 = bed.t0;

const RESPONSIVE = 'No valid client certificate is found and the server is responsive, exiting.';
const NOT_RESPONSIVE = 'No valid client certificate is found but the server is not responsive. A restart may be necessary to retrieve new initial credentials.';

function watch(manager: ClientCertificateSource, clock: FakeClock) {
  const log = new RecordingLogger();
  const exits: Array<{ code: number; at: number }> = [];
  const stop = watchClientCertificate({ manager, clock, logger: log.logger, exit: (code) => exits.push({ code, at: clock.now() - T0 }) });
  return { log, exits, stop, errors: () => log.records.filter((r) => r.level === 'error').map((r) => r.msg) };
}

describe('exit after the client certificate is gone for 5 minutes (UpdateTransport exitAfter)', () => {
  it('a certificate that expires with the API server answering: exit 1 at the first 10 s check past 5 minutes', async () => {
    const h = harness({ initialLifetimeMs: 60_000, lifetimeMs: 60_000 });
    h.setDown(new CsrError('Api', 'cannot create certificate signing request: 403 Forbidden', undefined, 403));
    h.manager.start();
    const w = watch(h.manager, h.clock);
    await h.clock.step(50_000);
    assert.ok(h.manager.status().renewErrors > 0, 'the rotation from 42 s on fails');
    assert.equal(h.manager.serverHealthy(), true, 'a 403 on the CSR create is a working API server');
    // Valid until 60 s: the last check that saw it is at 60 s, so the exit comes at the first check after 360 s.
    await h.clock.step(310_000);
    assert.deepEqual(w.exits, []);
    await h.clock.step(10_000);
    assert.deepEqual(w.exits, [{ code: 1, at: 370_000 }]);
    assert.equal(w.errors().at(-1), RESPONSIVE);
    assert.equal(w.log.records.at(-1)?.shutdownThreshold, '5m0s');
    await h.clock.step(60_000);
    assert.equal(w.exits.length, 1, 'exits once');
    h.manager.stop();
  });

  it('while the API server cannot be reached: the other message every 10 s, no exit; once it answers, exit', async () => {
    const h = harness({ lifetimeMs: 60_000 });
    h.setDown(true);
    h.manager.start();
    const w = watch(h.manager, h.clock);
    await h.clock.step(310_000);
    assert.equal(h.manager.serverHealthy(), false);
    assert.deepEqual(w.exits, []);
    assert.deepEqual(w.errors().filter((m) => m === NOT_RESPONSIVE).length, 1, 'at 310 s, the first check past 300 s');
    await h.clock.step(20_000);
    assert.equal(w.errors().filter((m) => m === NOT_RESPONSIVE).length, 3);
    // The API server answers again but refuses the credentials (401: an SSL-terminating proxy may too): responsive.
    h.setDown(new CsrError('Api', 'cannot create certificate signing request: 401 Unauthorized', undefined, 401));
    await h.clock.step(40_000);
    assert.equal(h.manager.serverHealthy(), true);
    assert.equal(w.exits.length, 1);
    assert.equal(w.errors().at(-1), RESPONSIVE);
    h.manager.stop();
  });

  it('a valid certificate (rotated in time) never exits', async () => {
    const h = harness({ initialLifetimeMs: 100_000, lifetimeMs: 100_000 });
    h.manager.start();
    const w = watch(h.manager, h.clock);
    for (let i = 0; i < 60; i++) await h.clock.step(10_000);
    assert.ok(h.manager.status().rotations >= 5);
    assert.equal(h.manager.serverHealthy(), true, 'healthy after an issued certificate');
    assert.deepEqual(w.exits, []);
    assert.deepEqual(w.errors(), []);
    w.stop();
    h.manager.stop();
  });

  it('a pair handed out past its notAfter (the race transport.go guards): the expired messages', async () => {
    const clock = new FakeClock(T0);
    const leaf = new CertificateStore({ pairNamePrefix: 'x', certDirectory: join(root, 'race'), now: () => T0 }).update(
      testLeaf(ca, key, { commonName: 'system:node:n1', notBeforeMs: T0, notAfterMs: T0 + 5_000 }),
      key,
    ).leaf;
    let healthy = false;
    const w = watch({ current: () => ({ leaf }), serverHealthy: () => healthy }, clock);
    await clock.step(10_000);
    assert.deepEqual(w.errors(), ['The currently active client certificate has expired, but the server is not responsive. A restart may be necessary to retrieve new initial credentials.']);
    healthy = true;
    await clock.step(10_000);
    assert.equal(w.errors().at(-1), 'The currently active client certificate has expired and the server is responsive, exiting.');
    assert.deepEqual(w.exits, [{ code: 1, at: 20_000 }]);
  });
});

describe('ServerHealthy (updateServerError)', () => {
  const cases: Array<[string, Error, boolean]> = [
    ['401 Unauthorized', new CsrError('Api', 'x', undefined, 401), true],
    ['403 Forbidden', new CsrError('Api', 'x', undefined, 403), true],
    ['404 Not Found', new CsrError('Api', 'x', undefined, 404), true],
    ['500 Internal Server Error', new CsrError('Api', 'x', undefined, 500), false],
    ['connection refused', new CsrError('Api', 'connect ECONNREFUSED', undefined, 0), false],
  ];
  for (const [what, err, healthy] of cases) {
    it(`a CSR create failing with ${what} → ${healthy}`, async () => {
      const h = harness({ lifetimeMs: 60_000 });
      h.setDown(err);
      h.manager.start();
      await h.clock.step(0);
      assert.equal(h.manager.serverHealthy(), healthy);
      h.manager.stop();
    });
  }
});
