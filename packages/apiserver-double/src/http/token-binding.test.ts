import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '@nodelet/core/testing';
import { ServiceAccountTokens } from '../auth/sa-tokens.ts';
import { Registry } from '../store/registry.ts';
import { RawStore } from '../store/store.ts';
import { ApiError } from '../status.ts';
import { tokenRequest } from './reviews.ts';

test('TokenRequest: TokenRequest out with status.token; boundObjectRef checked against the pod; 404 without the service account', () => {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const reg = new Registry(clock, new RawStore({ historyWindow: 100 }));
  reg.create(reg.resource('', 'namespaces'), undefined, { metadata: { name: 'default' } });
  const sa = reg.create(reg.resource('', 'serviceaccounts'), 'default', { metadata: { name: 'default' } });
  const pod = reg.create(reg.resource('', 'pods'), 'default', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
  const tokens = new ServiceAccountTokens(clock, (_ns, _n, uid) => uid === sa.metadata.uid);
  const req = (saName: string, ref?: Record<string, string>, expirationSeconds?: number) => {
    try {
      const out = tokenRequest(reg, tokens, 'default', saName, { metadata: {}, spec: { audiences: ['api'], ...(expirationSeconds ? { expirationSeconds } : {}), ...(ref ? { boundObjectRef: ref } : {}) } }, clock.now());
      return { code: 201, out };
    } catch (e) {
      assert.ok(e instanceof ApiError);
      return { code: e.status.code, message: e.status.message };
    }
  };
  const ok = req('default', { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: pod.metadata.uid });
  assert.equal(ok.code, 201);
  assert.equal(ok.out?.kind, 'TokenRequest');
  assert.equal(ok.out?.status.expirationTimestamp, '2026-01-01T01:00:00Z');
  const claims = JSON.parse(Buffer.from(String(ok.out?.status.token).split('.')[1]!, 'base64url').toString());
  assert.deepEqual(claims['kubernetes.io'].pod, { name: 'p', uid: pod.metadata.uid });
  assert.deepEqual(claims.aud, ['api']);
  const cases: Array<[string, ReturnType<typeof req>['code'], string]> = [
    ['missing SA', req('nope').code, '404'],
    ['missing pod', req('default', { kind: 'Pod', name: 'gone' }).code, '404'],
    ['stale uid', req('default', { kind: 'Pod', name: 'p', uid: 'old' }).code, '409'],
    ['other SA', (reg.create(reg.resource('', 'serviceaccounts'), 'default', { metadata: { name: 'other' } }), req('other', { kind: 'Pod', name: 'p' }).code), '400'],
    ['too short', req('default', undefined, 60).code, '422'],
  ];
  for (const [name, got, want] of cases) assert.equal(String(got), want, name);
  assert.equal(req('default', { kind: 'Pod', name: 'p', uid: 'old' }).message, 'Operation cannot be fulfilled on Pod "p": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated');
});
