// Starts a real agent (embedded runtime) and the real console as processes on free ports, for e2e tests and
// benches. Everything lives under a fresh temp directory that stop() removes. Specs sign in as a user does after
// `npm start`: by opening the console URL with the agent's console token in it (signIn).
import type { Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync, createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { daemonEnv, daemonNodeArgs, removeCgroupTree, stopRuntimeOf } from '@nodelet/agent/testing';

export { removeCgroupTree };

export const repoRoot = resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => res(port));
    });
  });
}

export async function waitUntil(what: string, pred: () => Promise<boolean> | boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  let lastErr: unknown;
  while (Date.now() < end) {
    try {
      if (await pred()) return;
    } catch (e) {
      lastErr = e;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}${lastErr ? `: ${String(lastErr)}` : ''}`);
}


export interface Stack {
  dir: string;
  rootDir: string;
  manifests: string;
  nodeName: string;
  ports: { kubelet: number; readOnly: number; healthz: number; console: number };
  consoleUrl: string;
  readOnlyUrl: string;
  /** The agent's console token (its --console-token-file) and the console URL that signs a browser in with it. */
  token: string;
  tokenUrl: string;
  /** Stops the agent (SIGTERM) and starts it again on the same root dir and ports; the console stays up. */
  restartAgent(): Promise<void>;
  stop(): Promise<void>;
}

export interface StackOptions {
  nodeName?: string;
  withConsole?: boolean;
  extraAgentArgs?: string[];
  /** More agents for this stack's console (NODELET_AGENTS: /agents/<name>/..., the /nodes page); pkiDir defaults to this stack's. */
  consoleAgents?: Array<{ name: string; url: string; pkiDir?: string }>;
  /** The agent's --console-token-file (default <root-dir>/console.token); agents behind one console share one. */
  consoleTokenFile?: string;
  /** A compiled agent (a build's agent/main.js) run with plain node and the daemons' environment; default the sources through tsx. */
  agentMain?: string;
}

export async function stopChild(c: ChildProcess, ms = 15_000): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return;
  c.kill('SIGTERM');
  const done = new Promise<void>((r) => c.once('exit', () => r()));
  const timer = new Promise<'t'>((r) => setTimeout(() => r('t'), ms));
  if ((await Promise.race([done, timer])) === 't') c.kill('SIGKILL');
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-e2e-'));
  const rootDir = join(dir, 'root');
  const manifests = join(dir, 'manifests');
  mkdirSync(manifests, { recursive: true });
  const nodeName = opts.nodeName ?? 'e2e-node';
  const cgroupRoot = `/${basename(dir)}`;
  const ports = { kubelet: await freePort(), readOnly: await freePort(), healthz: await freePort(), console: await freePort() };
  const children: ChildProcess[] = [];
  const agentLog = createWriteStream(join(dir, 'agent.log'));
  const launchAgent = () => spawn(
    process.execPath,
    [
      ...(opts.agentMain ? [...daemonNodeArgs(), opts.agentMain] : ['--import', 'tsx', join(repoRoot, 'apps/agent/src/main.ts')]),
      '--root-dir', rootDir,
      '--pod-manifest-path', manifests,
      '--node-name', nodeName,
      '--port', String(ports.kubelet),
      '--read-only-port', String(ports.readOnly),
      '--healthz-port', String(ports.healthz),
      '--file-check-frequency', '1s',
      // Each stack owns its own cgroup tree, so concurrent agents never take each other's pod cgroups for orphans.
      '--cgroup-root', cgroupRoot,
      ...(opts.consoleTokenFile ? ['--console-token-file', opts.consoleTokenFile] : []),
      ...(opts.extraAgentArgs ?? []),
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], ...(opts.agentMain ? { env: daemonEnv() } : {}) },
  );
  const spawnAgent = () => {
    const a = launchAgent();
    a.stdout?.pipe(agentLog, { end: false }); // one log across restarts (restartAgent)
    a.stderr?.pipe(agentLog, { end: false });
    return a;
  };
  children.push(spawnAgent());
  const readOnlyUrl = `http://127.0.0.1:${ports.readOnly}`;
  const consoleUrl = `http://127.0.0.1:${ports.console}`;
  const tokenFile = opts.consoleTokenFile ?? join(rootDir, 'console.token');
  let token = '';

  const stop = async () => {
    for (const c of children.reverse()) await stopChild(c);
    await stopRuntimeOf(rootDir);
    // Processes of the stopped runtime may still be exiting: retry for a few seconds.
    for (let i = 0; i < 20 && removeCgroupTree(cgroupRoot).length > 0; i++) await new Promise((r) => setTimeout(r, 250));
    if (!process.env.NODELET_KEEP_E2E_DIR) rmSync(dir, { recursive: true, force: true });
  };

  try {
    await waitUntil('agent read-only /pods', async () => (await fetch(`${readOnlyUrl}/pods`)).ok, 90_000);
    await waitUntil('agent console token', () => existsSync(tokenFile) && readFileSync(tokenFile, 'utf8').trim().length > 0, 30_000);
    token = readFileSync(tokenFile, 'utf8').trim();
    if (opts.withConsole !== false) {
      children.push(await startConsole({
        dir, port: ports.console, agentUrl: `https://127.0.0.1:${ports.kubelet}`, pkiDir: join(rootDir, 'pki'), nodeName, token,
        ...(opts.consoleAgents ? { env: { NODELET_AGENTS: opts.consoleAgents.map((a) => `${a.name}=${a.url}${a.pkiDir ? `|${a.pkiDir}` : ''}`).join(',') } } : {}),
      }));
    }
  } catch (e) {
    const logText = existsSync(join(dir, 'agent.log')) ? readFileSync(join(dir, 'agent.log'), 'utf8').slice(-4000) : '';
    await stop();
    throw new Error(`${String(e)}\n--- agent log (tail) ---\n${logText}`);
  }
  const restartAgent = async () => {
    const i = children.findIndex((c) => c.spawnfile === process.execPath && c.spawnargs.includes('--root-dir'));
    const old = children[i];
    if (old) await stopChild(old);
    children[i < 0 ? children.length : i] = spawnAgent();
    await waitUntil('agent read-only /pods after the restart', async () => (await fetch(`${readOnlyUrl}/pods`)).ok, 90_000);
  };
  return { dir, rootDir, manifests, nodeName, ports, consoleUrl, readOnlyUrl, token, tokenUrl: tokenUrlOf(consoleUrl, token), restartAgent, stop };
}

/**
 * Starts the console (apps/web/server.ts) on `port` for the agent at `agentUrl` (its CA in `pkiDir`), logging to
 * <dir>/web.log, and waits until it signs a browser in with `token` (the sign-in redirect, 303).
 */
export async function startConsole(o: { dir: string; port: number; agentUrl: string; pkiDir: string; nodeName: string; token: string; env?: Record<string, string> }): Promise<ChildProcess> {
  const webLog = createWriteStream(join(o.dir, 'web.log'));
  const web = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'apps/web/server.ts')], {
    cwd: join(repoRoot, 'apps/web'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(o.port),
      NEXT_TELEMETRY_DISABLED: '1',
      NODELET_AGENT_URL: o.agentUrl,
      NODELET_PKI_DIR: o.pkiDir,
      NODELET_NODE_NAME: o.nodeName,
      ...o.env,
    },
  });
  web.stdout?.pipe(webLog);
  web.stderr?.pipe(webLog);
  // Up and accepting the token; without it every page is the sign-in page.
  try {
    await waitUntil('console sign-in', async () => (await fetch(tokenUrlOf(`http://127.0.0.1:${o.port}`, o.token), { redirect: 'manual' })).status === 303, 90_000);
  } catch (e) {
    await stopChild(web);
    throw e;
  }
  return web;
}

const tokenUrlOf = (consoleUrl: string, token: string, path = '/') => `${consoleUrl}${path}?token=${encodeURIComponent(token)}`;

/**
 * Signs the page's browser context in by opening the token URL (of `path`, default `/`), as a user opens the URL
 * `npm start` prints: the console sets its session cookie and redirects to the same URL without the token.
 */
/**
 * page.goto, again when Chromium aborts it with net::ERR_NETWORK_CHANGED: Chromium cancels navigations when a network
 * interface of the host changes, and the agent under test adds a bridge and veths while its pods start.
 */
export async function gotoStable(page: Page, url: string): Promise<Awaited<ReturnType<Page['goto']>>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await page.goto(url);
    } catch (err) {
      if (attempt >= 4 || !String(err).includes('ERR_NETWORK_CHANGED')) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

export async function signIn(page: Page, stack: Pick<Stack, 'consoleUrl' | 'token'>, path = '/'): Promise<void> {
  const res = await gotoStable(page, tokenUrlOf(stack.consoleUrl, stack.token, path));
  if (!res?.ok() || page.url().includes('token=')) throw new Error(`sign-in at ${path} failed: ${res?.status()} ${page.url()}`);
}

/** GET /pods on the read-only port. */
export async function readOnlyPods(stack: Stack): Promise<Array<{ metadata: { name: string; namespace: string }; status?: { phase?: string } }>> {
  const r = await fetch(`${stack.readOnlyUrl}/pods`);
  const body = (await r.json()) as { items: Array<{ metadata: { name: string; namespace: string }; status?: { phase?: string } }> };
  return body.items;
}

/**
 * A static pod manifest running `script` under sh in one container `main` of the node's host image; `containerTail` /
 * `podTail`: extra YAML lines for the container (indented 6) and the pod spec (indented 2).
 */
export function hostPodYaml(name: string, script: string, extra: { containerTail?: string; podTail?: string } = {}): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: default
spec:
  containers:
    - name: main
      image: nodelet.local/host:latest
      imagePullPolicy: Never
      command: ["sh", "-c", ${JSON.stringify(script)}]
${extra.containerTail ?? ''}${extra.podTail ?? ''}`;
}
