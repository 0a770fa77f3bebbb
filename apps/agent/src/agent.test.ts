import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { realClock } from '@nodelet/core/util';
import { RecordingLogger } from '@nodelet/core/testing';
import { createAgent, type Agent } from './agent.ts';
import { flagDefaults } from './config/defaults.ts';
import type { AgentConfig } from './config/types.ts';
import { fakePod, FakeKubelet } from './testing/fake-kubelet.ts';
import { doRequest } from './testing/https-client.ts';
import { freePort } from './testing/processes.ts';
import { createTestPki, type TestPki } from './testing/test-pki.ts';

let tp: TestPki;
let agent: Agent;
const kubelet = new FakeKubelet();
kubelet.pods = [fakePod('default', 'web')];
const rec = new RecordingLogger();
const closed: string[] = [];

before(async () => {
  tp = createTestPki();
  rmSync(`${tp.root}/pki/kubelet.crt`);
  const config: AgentConfig = {
    ...flagDefaults(),
    nodeName: 'fake-node',
    rootDir: tp.root,
    address: '127.0.0.1',
    port: 0,
    // 0 disables these two, so give them free ports.
    readOnlyPort: await freePort(),
    healthzPort: await freePort(),
  };
  agent = createAgent(config, {
    logger: rec.logger,
    clock: realClock,
    createKubelet: async () => ({ kubelet, close: () => void closed.push('cri') }),
    launchRuntime: async () => ({ ok: true, endpoint: 'unix:///fake.sock', embedded: false }),
  });
  await agent.start();
});
after(async () => {
  await agent.stop();
  tp.cleanup();
});

describe('createAgent', () => {
  it('starts the kubelet, re-issues the missing serving cert, and listens on all three ports', async () => {
    assert.deepEqual(kubelet.calls, ['start']);
    const listening = rec.records.filter((r) => r.msg === 'listening').map((r) => [r.server, r.port]);
    assert.deepEqual(listening.map(([s]) => s), ['kubelet', 'readonly', 'healthz']);
    assert.deepEqual(listening.map(([, p]) => p), [agent.ports.kubelet, agent.ports.readonly, agent.ports.healthz]);
    assert.ok(rec.records.some((r) => r.msg === 'wrote certificates'));
  });

  it('serves the read-only, healthz and kubelet ports', async () => {
    assert.equal((await doRequest(`http://127.0.0.1:${agent.ports.readonly}/pods`)).status, 200);
    assert.equal((await doRequest(`http://127.0.0.1:${agent.ports.healthz}/healthz`)).body, 'ok');
    const tls = { ca: tp.pki.ca.certPem, cert: tp.pki.console.certPem, key: tp.pki.console.keyPem };
    const r = await doRequest(`https://127.0.0.1:${agent.ports.kubelet}/pods`, tls);
    assert.equal(JSON.parse(r.body).items.length, 1);
    assert.equal((await doRequest(`https://127.0.0.1:${agent.ports.kubelet}/pods`, { ca: tp.pki.ca.certPem })).status, 401);
  });

  it('creates the console token at <root-dir>/console.token, logs its path, and accepts it as a bearer token on 10250', async () => {
    const path = `${tp.root}/console.token`;
    const token = readFileSync(path, 'utf8').trim();
    assert.ok(rec.records.some((r) => r.msg === `console token: ${path}`));
    const url = `https://127.0.0.1:${agent.ports.kubelet}/pods`;
    assert.equal((await doRequest(url, { ca: tp.pki.ca.certPem }, 'GET', undefined, { Authorization: `Bearer ${token}` })).status, 200);
    assert.equal((await doRequest(url, { ca: tp.pki.ca.certPem }, 'GET', undefined, { Authorization: 'Bearer x' })).status, 401);
  });

  it('stops in order and closes the ports', async () => {
    const results = await agent.stop();
    assert.deepEqual(results.map((r) => [r.name, r.outcome]), [
      ['not-ready', 'done'], ['stop-accepting', 'done'], ['close-streams', 'done'],
      ['stop-kubelet', 'done'], ['close-recorder', 'done'], ['close-cri', 'done'], ['close-connections', 'done'],
    ]);
    assert.deepEqual(kubelet.calls, ['start', 'stop']);
    assert.deepEqual(closed, ['cri']);
    await assert.rejects(doRequest(`http://127.0.0.1:${agent.ports.healthz}/healthz`), /ECONNREFUSED/);
    assert.strictEqual(await agent.stop(), results, 'stop is idempotent');
  });
});
