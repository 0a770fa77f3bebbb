/**
 * Test helpers for API-server mode: an agent process joined to an API server double (its own root dir,
 * ports, embedded runtime), restartable with SIGKILL; and a small HTTPS client with headers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeletOverrides } from '../kubelet-factory.ts';
import { freePort, lineReader, stopPid } from './processes.ts';

const main = fileURLToPath(new URL('../main.ts', import.meta.url));
/** The agent with kubelet overrides (testing/agent-main.ts). */
const overridingMain = fileURLToPath(new URL('./agent-main.ts', import.meta.url));

export interface NodeAgent {
  name: string;
  root: string;
  port: number;
  child: ChildProcess;
  lines: string[];
  start(): Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
  cleanup(): Promise<void>;
}

/** `opts.root`: a caller-owned root dir (e.g. a tmpfs mount; emptied, not removed, by cleanup); `opts.kubelet`: overrides of kubelet constants. */
export async function nodeAgent(name: string, args: (root: string) => string[], opts: { root?: string; kubelet?: KubeletOverrides } = {}): Promise<NodeAgent> {
  const root = opts.root ?? mkdtempSync(join(tmpdir(), `nodelet-${name}-`));
  const port = await freePort();
  const self: NodeAgent = {
    name,
    root,
    port,
    child: undefined as unknown as ChildProcess,
    lines: [],
    async start() {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', ...(opts.kubelet ? [overridingMain, JSON.stringify(opts.kubelet)] : [main]), '--root-dir', root, '--node-name', name, '--port', String(port), '--read-only-port', '0', '--healthz-port', '0', '--address', '127.0.0.1', ...args(root)],
        { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODELET_LOG_FORMAT: 'json' } },
      );
      self.child = child;
      const out = lineReader(child);
      self.lines = out.lines;
      await out.waitForLine((l) => l.includes('"msg":"agent started"'), `${name} started`);
    },
    async kill(signal) {
      const c = self.child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill(signal);
      await exited;
    },
    async cleanup() {
      if (self.child?.pid && self.child.exitCode === null && self.child.signalCode === null) await stopPid(self.child.pid, 5000);
      const pidFile = join(root, 'runtime', 'runtime.pid');
      if (existsSync(pidFile)) await stopPid(Number(readFileSync(pidFile, 'utf8').trim()));
      if (!opts.root) rmSync(root, { recursive: true, force: true });
      else for (const f of readdirSync(root)) rmSync(join(root, f), { recursive: true, force: true });
    },
  };
  return self;
}

export interface Reply {
  status: number;
  body: string;
}

export function call(url: string, opts: { method?: string; headers?: Record<string, string>; body?: unknown; ca?: string; cert?: string; key?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers: Record<string, string> = { ...(opts.headers ?? {}), ...(body ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}) };
    const req = httpsRequest(new URL(url), { method: opts.method ?? 'GET', headers, ca: opts.ca, cert: opts.cert, key: opts.key, agent: false, rejectUnauthorized: Boolean(opts.ca) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
