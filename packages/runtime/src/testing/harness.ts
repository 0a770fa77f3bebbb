/**
 * Integration-test harness: a runtime on a temp socket/root and promisified CRI clients.
 * `startInProcess` runs it inside the test process; `spawnDaemon` runs main.ts as a child process.
 */
import * as grpc from '@grpc/grpc-js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCriPackage } from '../../../../proto/load.ts';
import { startRuntime, type RunningRuntime } from '../index.ts';
import { jsonLogger } from '../util/logger.ts';

type Unary = (req: object, cb: (err: grpc.ServiceError | null, res: unknown) => void) => void;
type Method =
  | 'Version' | 'Status' | 'RunPodSandbox' | 'StopPodSandbox' | 'RemovePodSandbox' | 'PodSandboxStatus' | 'ListPodSandbox'
  | 'CreateContainer' | 'StartContainer' | 'StopContainer' | 'RemoveContainer' | 'ListContainers' | 'ContainerStatus'
  | 'ContainerStats' | 'ListContainerStats' | 'PodSandboxStats' | 'ListPodSandboxStats' | 'ExecSync' | 'UpdateContainerResources' | 'ReopenContainerLog' | 'Exec' | 'Attach' | 'PortForward'
  | 'ListImages' | 'ImageStatus' | 'PullImage' | 'RemoveImage' | 'ImageFsInfo';
/** Loosely typed promisified client: tests assert on the plain JS shapes proto-loader produces. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Client = { [M in Method]: (req?: object) => Promise<any> } & { raw: grpc.Client; events(): grpc.ClientReadableStream<any> };

export function criClients(socketPath: string): { rt: Client; img: Client; close(): void } {
  const pkg = loadCriPackage();
  const target = `unix://${socketPath}`;
  const rtRaw = new pkg.runtime.v1.RuntimeService(target, grpc.credentials.createInsecure());
  const imgRaw = new pkg.runtime.v1.ImageService(target, grpc.credentials.createInsecure());
  const wrap = (c: grpc.Client): Client =>
    new Proxy({} as Client, {
      get(_t, name: string) {
        if (name === 'raw') return c;
        if (name === 'events') return () => (c as unknown as { GetContainerEvents(r: object): grpc.ClientReadableStream<unknown> }).GetContainerEvents({});
        const fn = (c as unknown as Record<string, Unary>)[name];
        if (typeof fn !== 'function') return undefined;
        return (req: object = {}) =>
          new Promise((resolve, reject) => fn.call(c, req, (err, res) => (err ? reject(err) : resolve(res))));
      },
    });
  return { rt: wrap(rtRaw), img: wrap(imgRaw), close: () => (rtRaw.close(), imgRaw.close()) };
}

export interface Harness {
  dir: string;
  socketPath: string;
  rt: Client;
  img: Client;
  runtime: RunningRuntime;
  logs: string[];
  /** Stop the runtime, close clients, remove the temp dir. */
  cleanup(): Promise<void>;
}

export async function startInProcess(dir = mkdtempSync(join(tmpdir(), 'nodelet-rt-'))): Promise<Harness> {
  const socketPath = join(dir, 'cri.sock');
  const logs: string[] = [];
  const runtime = await startRuntime({ socketPath, rootDir: join(dir, 'root'), logger: jsonLogger((l) => logs.push(l)), shutdownGraceMs: 500 });
  const c = criClients(socketPath);
  return {
    dir, socketPath, rt: c.rt, img: c.img, runtime, logs,
    cleanup: async () => {
      c.close();
      await runtime.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const MAIN_TS = fileURLToPath(new URL('../main.ts', import.meta.url));

/** Start main.ts as a daemon; resolves once it logs that it serves CRI. `wrap` prefixes the command (e.g. setpriv). */
export async function spawnDaemon(socketPath: string, rootDir: string, wrap: string[] = []): Promise<{ child: ChildProcess; stderr: string[] }> {
  const argv = [...wrap, process.execPath, '--import', 'tsx', MAIN_TS, '--listen', `unix://${socketPath}`, '--root', rootDir, '--shutdown-grace-ms', '500'];
  // Another uid would leave its own tsx cache dir behind in /tmp: run uncached then.
  const env = { ...process.env, ...(wrap.length > 0 ? { TSX_DISABLE_CACHE: '1' } : {}) };
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], env, cwd: fileURLToPath(new URL('../../', import.meta.url)) });
  const stderr: string[] = [];
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  const serving = () => stderr.join('').includes('"msg":"serving CRI"');
  for (let i = 0; i < 400 && !serving(); i++) {
    if (child.exitCode !== null) throw new Error(`runtime exited: ${stderr.join('')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!serving() || !existsSync(socketPath)) throw new Error(`runtime did not listen: ${stderr.join('')}`);
  return { child, stderr };
}

export function waitExit(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code))));
}

/** Poll `fn` until it returns a truthy value (integration waits on real processes). */
export async function until<T>(fn: () => Promise<T> | T, what: string, ms = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const HOST_IMAGE = 'nodelet.local/host:latest';

export function sandboxConfig(name: string, logDirectory: string, extra: Record<string, unknown> = {}): object {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, attempt: 0 },
    hostname: name, logDirectory, labels: { app: name }, annotations: {}, ...extra,
  };
}

export function containerConfig(name: string, command: string[], extra: Record<string, unknown> = {}): object {
  return {
    metadata: { name, attempt: 0 }, image: { image: HOST_IMAGE }, command, logPath: `${name}/0.log`,
    linux: { securityContext: { namespaceOptions: { pid: 'CONTAINER' } } }, ...extra,
  };
}
