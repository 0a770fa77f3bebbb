// The agent as a real process for the conformance suite: started on free ports over one root dir, killable
// with SIGKILL and restartable on the same root dir and ports (stateless restart), with TLS access to 10250.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot, waitUntil } from '../../e2e/harness.ts';
import { daemonEnv, daemonNodeArgs, doRequest, type SimpleResponse, type TlsClientOptions, stopRuntimeOf } from '@nodelet/agent/testing';

export interface AgentProcess {
  dir: string;
  rootDir: string;
  manifests: string;
  nodeName: string;
  ports: { kubelet: number; readOnly: number; healthz: number };
  readOnlyUrl: string;
  kubeletUrl: string;
  /** Runtime endpoint the agent uses (the embedded runtime's socket when none was given). */
  endpoint: string;
  tls(): TlsClientOptions;
  get(path: string): Promise<SimpleResponse>;
  /** Starts the agent (again); resolves once /pods answers. */
  start(extraArgs?: string[]): Promise<void>;
  /** SIGKILL: no shutdown at all. */
  kill9(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  /** Stops the agent and the embedded runtime (if one was spawned), removes the dir. */
  dispose(): Promise<void>;
  logTail(chars?: number): string;
  /** The agent's process id while it runs. */
  pid(): number | undefined;
}

export interface AgentOptions {
  nodeName: string;
  /** --container-runtime-endpoint; undefined = embedded runtime. */
  endpoint?: string;
  args: string[];
  /** A compiled agent (`npm run build`'s dist/agent/main.js) to run with plain node instead of the sources through tsx. */
  compiledMain?: string;
  /** Node's own flags before the agent's script (V8 flags NODE_OPTIONS does not take, for a bench's A/B). */
  nodeArgs?: string[];
}

function exited(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
  return new Promise((r) => c.once('exit', () => r()));
}

export async function createAgentProcess(opts: AgentOptions): Promise<AgentProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-conf-'));
  const rootDir = join(dir, 'root');
  const manifests = join(dir, 'manifests');
  mkdirSync(manifests, { recursive: true });
  const ports = { kubelet: await freePort(), readOnly: await freePort(), healthz: await freePort() };
  const log = createWriteStream(join(dir, 'agent.log'), { flags: 'a' });
  let child: ChildProcess | undefined;
  const pki = join(rootDir, 'pki');
  const tls = (): TlsClientOptions => ({
    ca: readFileSync(join(pki, 'ca.crt'), 'utf8'),
    cert: readFileSync(join(pki, 'console.crt'), 'utf8'),
    key: readFileSync(join(pki, 'console.key'), 'utf8'),
  });
  const kubeletUrl = `https://127.0.0.1:${ports.kubelet}`;
  const readOnlyUrl = `http://127.0.0.1:${ports.readOnly}`;
  const self: AgentProcess = {
    dir,
    rootDir,
    manifests,
    nodeName: opts.nodeName,
    ports,
    readOnlyUrl,
    kubeletUrl,
    endpoint: opts.endpoint ?? `unix://${join(rootDir, 'runtime', 'nodelet.sock')}`,
    tls,
    get: (path) => doRequest(`${kubeletUrl}${path}`, tls()),
    async start(extraArgs = []) {
      const args = [
        ...daemonNodeArgs(),
        ...(opts.nodeArgs ?? []),
        ...(opts.compiledMain ? [opts.compiledMain] : ['--import', 'tsx', join(repoRoot, 'apps/agent/src/main.ts')]),
        '--root-dir', rootDir, '--pod-manifest-path', manifests, '--node-name', opts.nodeName,
        '--port', String(ports.kubelet), '--read-only-port', String(ports.readOnly), '--healthz-port', String(ports.healthz),
        '--file-check-frequency', '1s',
        ...(opts.endpoint ? ['--container-runtime-endpoint', opts.endpoint] : []),
        ...opts.args,
        ...extraArgs,
      ];
      const c = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: daemonEnv() });
      c.stdout?.pipe(log, { end: false });
      c.stderr?.pipe(log, { end: false });
      child = c;
      // An agent that dies while starting fails the start at once, with its last words, not after the 90 s wait.
      const died = new Promise<never>((_, reject) =>
        c.once('exit', (code, signal) => reject(new Error(`the agent exited while starting (${signal ?? `code ${code}`}); its log ends:\n${self.logTail(2000)}`))),
      );
      died.catch(() => {});
      await Promise.race([waitUntil('agent /pods', async () => (await fetch(`${readOnlyUrl}/pods`)).ok, 90_000), died]);
    },
    async kill9() {
      if (!child) return;
      child.kill('SIGKILL');
      await exited(child);
      child = undefined;
    },
    async stop() {
      if (!child) return;
      const c = child;
      c.kill('SIGTERM');
      const t = setTimeout(() => c.kill('SIGKILL'), 15_000);
      await exited(c);
      clearTimeout(t);
      child = undefined;
    },
    async dispose() {
      await self.stop();
      if (!opts.endpoint) await stopRuntimeOf(rootDir);
      log.end();
      // Retried (ENOTEMPTY): the embedded runtime may still be writing its state dir while it exits.
      if (!process.env.NODELET_KEEP_CONFORMANCE_DIR) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
    pid: () => child?.pid,
    logTail(chars = 3000) {
      const p = join(dir, 'agent.log');
      return existsSync(p) ? readFileSync(p, 'utf8').slice(-chars) : '';
    },
  };
  return self;
}
