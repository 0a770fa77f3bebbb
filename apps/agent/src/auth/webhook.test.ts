import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, FakeApiClient, fail, ok } from '@nodelet/core/testing';
import { nullLogger } from '@nodelet/core/util';
import { requestAttributes } from '../servers/auth.ts';
import { createTokenWebhook, createWebhookAuthorizer } from './webhook.ts';

describe('TokenReview authenticator', () => {
  it('authenticates through TokenReview and caches answers for the TTL (2 min)', async () => {
    const clock = new FakeClock();
    const client = new FakeApiClient((req) => {
      const token = (req.body as { spec: { token: string } }).spec.token;
      return ok({ status: token === 'good' ? { authenticated: true, user: { username: 'alice', groups: ['devs'] } } : { authenticated: false, error: 'invalid bearer token' } });
    });
    const authn = createTokenWebhook({ client, clock, logger: nullLogger });
    assert.deepEqual(await authn.authenticate('good'), { ok: true, user: { name: 'alice', groups: ['devs'] } });
    assert.deepEqual(await authn.authenticate('bad'), { ok: false, message: 'invalid bearer token' });
    assert.equal(client.calls[0]?.path, '/apis/authentication.k8s.io/v1/tokenreviews');
    await authn.authenticate('good');
    await clock.step(119_999);
    await authn.authenticate('good');
    assert.equal(authn.reviews, 2, 'cached until the TTL');
    await clock.step(1);
    await authn.authenticate('good');
    assert.equal(authn.reviews, 3);
  });

  it('does not cache transport failures', async () => {
    const clock = new FakeClock();
    const client = new FakeApiClient(() => fail(0, 'ConnectionError', 'ECONNREFUSED'));
    const authn = createTokenWebhook({ client, clock, logger: nullLogger });
    assert.equal((await authn.authenticate('t')).ok, false);
    assert.equal((await authn.authenticate('t')).ok, false);
    assert.equal(authn.reviews, 2);
  });
});

describe('SubjectAccessReview authorizer', () => {
  const table: Array<{ method: string; path: string; verb: string; subresource: string }> = [
    { method: 'GET', path: '/pods', verb: 'get', subresource: 'proxy' },
    { method: 'GET', path: '/stats/summary', verb: 'get', subresource: 'stats' },
    { method: 'GET', path: '/metrics/cadvisor', verb: 'get', subresource: 'metrics' },
    { method: 'GET', path: '/logs/syslog', verb: 'get', subresource: 'log' },
    { method: 'POST', path: '/trpc/pods.list', verb: 'create', subresource: 'proxy' },
    { method: 'GET', path: '/socket.io/', verb: 'get', subresource: 'proxy' },
    { method: 'DELETE', path: '/pods', verb: 'delete', subresource: 'proxy' },
  ];
  for (const t of table) {
    it(`${t.method} ${t.path} → nodes/${t.subresource} ${t.verb}`, async () => {
      const client = new FakeApiClient(() => ok({ status: { allowed: true } }));
      const authz = createWebhookAuthorizer({ client, clock: new FakeClock(), logger: nullLogger });
      const d = await authz.authorize(requestAttributes({ name: 'bob', groups: ['g'] }, t.method, t.path, 'n1'));
      assert.deepEqual(d, { allowed: true });
      assert.equal(client.calls[0]?.path, '/apis/authorization.k8s.io/v1/subjectaccessreviews');
      assert.deepEqual((client.calls[0]?.body as { spec: unknown }).spec, {
        user: 'bob',
        groups: ['g'],
        resourceAttributes: { namespace: '', verb: t.verb, group: '', version: 'v1', resource: 'nodes', subresource: t.subresource, name: 'n1' },
      });
    });
  }

  it('caches allowed answers 5 min and denied ones 30 s', async () => {
    const clock = new FakeClock();
    const client = new FakeApiClient((req) => {
      const user = (req.body as { spec: { user: string } }).spec.user;
      return ok({ status: user === 'admin' ? { allowed: true } : { allowed: false, reason: 'no RBAC policy matched' } });
    });
    const authz = createWebhookAuthorizer({ client, clock, logger: nullLogger });
    const attrs = (name: string) => requestAttributes({ name, groups: [] }, 'GET', '/pods', 'n1');
    assert.deepEqual(await authz.authorize(attrs('eve')), { allowed: false, reason: 'no RBAC policy matched' });
    await authz.authorize(attrs('admin'));
    await clock.step(29_999);
    await authz.authorize(attrs('eve'));
    await authz.authorize(attrs('admin'));
    assert.equal(authz.reviews, 2);
    await clock.step(1);
    await authz.authorize(attrs('eve'));
    assert.equal(authz.reviews, 3, 'denied answer expired after 30 s');
    await clock.step(270_000);
    await authz.authorize(attrs('admin'));
    assert.equal(authz.reviews, 4, 'allowed answer expired after 5 min');
  });
});
