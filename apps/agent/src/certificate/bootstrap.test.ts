/**
 * When TLS bootstrap runs (the kubelet's isClientConfigStillValid): a missing kubeconfig silently, an unusable one
 * with a reason naming the files — expired certificate, key not matching, unreadable certificate file, no client
 * certificate at all (a token kubeconfig) — and never for a valid pair.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { clientConfigProblem } from './bootstrap.ts';
import { rsaKeyPem, testCa, testLeaf } from './testing.ts';

const NOW = Date.UTC(2026, 0, 1);
const kubeconfig = (user: string) =>
  `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:6443'}}]\nusers: [{name: u, user: ${user}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`;

test('clientConfigProblem: valid, missing, expired, mismatched, unreadable, token-only', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'h1-bootstrap-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const ca = testCa(NOW);
  const key = rsaKeyPem();
  const leaf = (notAfterMs: number, k = key) => testLeaf(ca, k, { commonName: 'system:node:n1', organizations: ['system:nodes'], notBeforeMs: NOW - 3_600_000, notAfterMs });
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const pem = write('current.pem', leaf(NOW + 3_600_000) + key);
  const kc = write('ok.kubeconfig', kubeconfig(`{client-certificate: ${pem}, client-key: ${pem}}`));
  assert.equal(await clientConfigProblem(kc, NOW), undefined);
  assert.equal(await clientConfigProblem(join(dir, 'absent.kubeconfig'), NOW), '');
  const old = write('old.pem', leaf(NOW - 1000) + key);
  const expired = write('expired.kubeconfig', kubeconfig(`{client-certificate: ${old}, client-key: ${old}}`));
  assert.equal(await clientConfigProblem(expired, NOW), `part of the existing client certificate in ${expired} is expired: Dec 31 23:59:59 2025 GMT`);
  const otherKey = write('other.key', rsaKeyPem());
  const mismatched = write('mismatched.kubeconfig', kubeconfig(`{client-certificate: ${pem}, client-key: ${otherKey}}`));
  assert.equal(await clientConfigProblem(mismatched, NOW), `unable to load the TLS configuration of the existing client config ${mismatched}: mismatched certificate/key pair "${pem}", "${otherKey}": the private key is not the certificate's key`);
  const gone = join(dir, 'gone.pem');
  const unreadable = write('unreadable.kubeconfig', kubeconfig(`{client-certificate: ${gone}, client-key: ${gone}}`));
  assert.equal(await clientConfigProblem(unreadable, NOW), `unable to load the TLS configuration of the existing client config ${unreadable}: cannot read the client certificate ${gone}: ENOENT`);
  const token = write('token.kubeconfig', kubeconfig('{token: abc}'));
  assert.equal(await clientConfigProblem(token, NOW), `the existing client config ${token} has no client certificate`);
});
