/**
 * podCIDR on the embedded runtime (#16 item 5): the agent started with --pod-cidr sends the range through CRI
 * UpdateRuntimeConfig (the kubelet's updatePodCIDR, "Updating Pod CIDR" logged), the runtime's bridge takes it,
 * and an isolated pod's IP is inside it, not in the default 10.89.0.0/16. Needs root and the CNI bridge /
 * host-local plugins: skipped without, failed under CI=true.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { V1Pod } from '@kubernetes/client-node';
import { findCniBinDir } from '@nodelet/runtime';
import { doRequest } from './testing/https-client.ts';
import { eventually, freePort, lineReader, stopPid, stopRuntimeOf } from './testing/processes.ts';

const why = process.getuid?.() !== 0 ? 'needs root' : !findCniBinDir() ? 'needs containernetworking-plugins (bridge, host-local)' : '';
if (why && process.env.CI === 'true') throw new Error(`the pod CIDR test cannot run under CI: ${why}`);

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'nodelet-podcidr-'));
// A range of its own per run (two runs on one host never share a bridge).
const octet = process.pid % 250;
const podCIDR = `10.77.${octet}.0/24`;
let agent: ChildProcess | undefined;

after(async () => {
  if (agent?.pid && agent.exitCode === null) await stopPid(agent.pid, 5000);
  await stopRuntimeOf(root);
  rmSync(root, { recursive: true, force: true });
});

describe('--pod-cidr on the embedded runtime', { skip: why || false }, () => {
  it('the pod IP comes from the configured range', { timeout: 120_000 }, async () => {
    const dir = join(root, 'manifests');
    mkdirSync(dir);
    writeFileSync(join(dir, 'p.json'), JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'cidr', namespace: 'default' },
      spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'nodelet.local/host:latest', imagePullPolicy: 'Never', command: ['sleep', '3600'] }] },
    }));
    const [port, ro, hz] = [await freePort(), await freePort(), await freePort()];
    agent = spawn(process.execPath, ['--import', 'tsx', main,
      '--root-dir', root, '--pod-manifest-path', dir, '--node-name', 'pc', '--port', String(port), '--pod-cidr', podCIDR,
      '--read-only-port', String(ro), '--healthz-port', String(hz), '--file-check-frequency', '1s', '--address', '127.0.0.1',
    ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } });
    const out = lineReader(agent);
    await out.waitForLine((l) => l.includes('"msg":"Updating Pod CIDR"') && l.includes(`"newPodCIDR":"${podCIDR}"`), 'Updating Pod CIDR');
    const pod = await eventually(async () => {
      const p = (JSON.parse((await doRequest(`http://127.0.0.1:${ro}/pods`)).body).items as V1Pod[]).find((x) => x.metadata?.name === 'cidr-pc');
      return p?.status?.podIP ? p : undefined;
    }, 90_000, 'pod IP');
    assert.match(pod.status!.podIP!, new RegExp(`^10\\.77\\.${octet}\\.\\d+$`), `inside ${podCIDR}`);
    assert.equal(JSON.parse(readFileSync(join(root, 'runtime', 'cni', 'network.json'), 'utf8')).podCIDR, podCIDR, 'kept for a runtime restart');
  });
});
