// The console against the MOCK agent (apps/web/dev/mock-agent.ts) as real processes on free ports: for console
// cases whose subject is the console itself and whose data would be costly to make on a real node (110 pods: the
// pod list is the same code whichever agent feeds it; the mock's tRPC router is type-checked against the agent's,
// dev/mock-router-conformance.ts). Plain HTTP between console and mock; the mock's clock ticks once an hour so its
// pod set stays fixed during a test.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot, startConsole, stopChild, waitUntil } from './harness.ts';

export interface MockStack {
  dir: string;
  /** The mock agent (plain HTTP; its dev-only POST /mock/shutdown starts a simulated node shutdown). */
  agentUrl: string;
  consoleUrl: string;
  token: string;
  stop(): Promise<void>;
}

export async function startMockStack(opts: { pods?: number; extraArgs?: string[] } = {}): Promise<MockStack> {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-e2e-mock-'));
  const token = randomBytes(24).toString('base64url');
  const tokenFile = join(dir, 'console.token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const [agentPort, consolePort] = [await freePort(), await freePort()];
  const log = createWriteStream(join(dir, 'mock-agent.log'));
  const children: ChildProcess[] = [];
  const mock = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'apps/web/dev/mock-agent.ts'), '--plain', '--port', String(agentPort), '--pki-dir', join(dir, 'pki'),
      '--token-file', tokenFile, '--tick-ms', '3600000', '--pods', String(opts.pods ?? 0), ...(opts.extraArgs ?? [])],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  mock.stdout?.pipe(log);
  mock.stderr?.pipe(log);
  children.push(mock);
  const stop = async () => {
    for (const c of children.reverse()) await stopChild(c, 5_000);
    if (!process.env.NODELET_KEEP_E2E_DIR) rmSync(dir, { recursive: true, force: true });
  };
  const agentUrl = `http://127.0.0.1:${agentPort}`;
  try {
    await waitUntil('mock agent node.get', async () => (await fetch(`${agentUrl}/trpc/node.get`, { headers: { authorization: `Bearer ${token}` } })).ok, 60_000);
    children.push(await startConsole({ dir, port: consolePort, agentUrl, pkiDir: join(dir, 'pki'), nodeName: 'mock-node-1', token }));
  } catch (e) {
    await stop();
    throw e;
  }
  return { dir, agentUrl, consoleUrl: `http://127.0.0.1:${consolePort}`, token, stop };
}
