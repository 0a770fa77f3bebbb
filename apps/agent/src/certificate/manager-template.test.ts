/**
 * A dynamic template (the serving certificate's node addresses) as client-go's certificate manager checks it: every
 * second, when the pair lacks what the template asks and no CSR was made for this template, a pending request is
 * cancelled and the rotation starts at once ("Certificate template changed, rotating"), not at the deadline.
 * Injected clock, fake CSR client.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { servingTemplate } from './serving.ts';
import { certTestBed } from './testing.ts';

const bed = certTestBed('nodelet-certtpl-');

function servingHarness(dynamicTemplate: boolean) {
  let ip = '10.0.0.5';
  const h = bed.harness({
    initialLifetimeMs: 1000_000,
    initialSans: { dnsNames: ['n1'], ips: ['10.0.0.5'] },
    lifetimeMs: 1000_000,
    template: () => servingTemplate('n1', [{ type: 'InternalIP', address: ip }, { type: 'Hostname', address: 'n1' }]),
    dynamicTemplate,
  });
  return { ...h, setIp: (v: string) => (ip = v), changed: () => h.log.records.filter((r) => r.msg === 'Certificate template changed, rotating').length };
}

describe('templateChanged (a dynamic template checked every second)', () => {
  it('a new node address is requested within a second, long before the deadline', async () => {
    const h = servingHarness(true);
    h.manager.start();
    await h.clock.step(10_000);
    assert.equal(h.requests.length, 0, 'the pair satisfies the template: wait for the deadline (700 s)');
    h.setIp('10.0.0.6');
    await h.clock.step(1_000);
    assert.equal(h.requests.length, 1);
    assert.deepEqual(h.requests[0]?.ipAddresses, ['10.0.0.6']);
    assert.deepEqual(h.requests[0]?.dnsNames, ['n1']);
    assert.equal(h.changed(), 1);
    assert.match(h.manager.current()?.leaf.subjectAltName ?? '', /IP Address:10\.0\.0\.6/);
    await h.clock.step(30_000);
    assert.equal(h.requests.length, 1, 'the new pair satisfies the template');
    h.manager.stop();
  });

  it('a pending CSR for an older template is cancelled and the newest one requested; one for this template is waited for', async () => {
    const h = servingHarness(true);
    h.setPending(true);
    h.manager.start();
    h.setIp('10.0.0.6');
    await h.clock.step(1_000);
    assert.equal(h.requests.length, 1);
    await h.clock.step(20_000);
    assert.equal(h.requests.length, 1, 'the CSR for the current template stays pending: no new request');
    h.setIp('10.0.0.7');
    await h.clock.step(1_000);
    assert.equal(h.manager.status().renewErrors, 1, 'the pending request was cancelled');
    assert.match(h.manager.status().lastError ?? '', /template changed/);
    await h.clock.step(2_200);
    assert.equal(h.requests.length, 2, 'retried 2 s later (the backoff) with the new template');
    assert.deepEqual(h.requests[1]?.ipAddresses, ['10.0.0.7']);
    h.setPending(false);
    h.manager.stop();
  });

  it('a static template (the client certificate) is only compared when the manager wakes', async () => {
    const h = servingHarness(false);
    h.manager.start();
    h.setIp('10.0.0.6');
    await h.clock.step(60_000);
    assert.equal(h.requests.length, 0);
    assert.equal(h.changed(), 0);
    h.manager.stop();
  });
});
