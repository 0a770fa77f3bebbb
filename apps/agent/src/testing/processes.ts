/** Helpers for integration tests that start real processes: line readers, free ports, polling, pid cleanup. */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createCriClient } from '@nodelet/core/cri';
import { pidAlive } from '@nodelet/core/util';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Collects a child's stdout lines; `waitForLine` resolves with the first line matching. */
export function lineReader(child: ChildProcess) {
  const lines: string[] = [];
  let partial = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  const waitForLine = (pred: (line: string) => boolean, what: string) =>
    new Promise<string>((resolve, reject) => {
      // One data and one exit listener per wait (a listener per chunk piled up: MaxListenersExceededWarning).
      const stop = () => {
        child.stdout?.off('data', onData);
        child.off('exit', check);
      };
      const check = (): boolean => {
        const hit = lines.find(pred);
        if (hit) {
          stop();
          resolve(hit);
          return true;
        }
        if (child.exitCode !== null || child.signalCode !== null) {
          stop();
          reject(new Error(`process exited (${child.exitCode ?? child.signalCode}) before ${what}:\n${lines.slice(-20).join('\n')}`));
          return true;
        }
        return false;
      };
      const onData = () => setImmediate(check);
      if (check()) return;
      child.stdout?.on('data', onData);
      child.once('exit', check);
    });
  return { lines, waitForLine };
}

/** Polls `fn` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

export const alive = pidAlive;

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the pid is gone. */
export async function stopPid(pid: number, graceMs = 20_000): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const end = Date.now() + graceMs;
  while (alive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

/**
 * Stops the embedded runtime an agent spawned under `rootDir` (its pid file), if it still runs. Its pod sandboxes
 * are stopped and removed first: pods outlive the runtime (as containerd's), and a sandbox's namespace holder is
 * not in a cgroup the tests remove, so a test that ended with pods still stopping left their holders (and veths)
 * running for the rest of the run.
 */
export async function stopRuntimeOf(rootDir: string): Promise<void> {
  const pidFile = join(rootDir, 'runtime', 'runtime.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!(pid > 0) || !alive(pid)) return;
  const socket = join(rootDir, 'runtime', 'nodelet.sock');
  if (existsSync(socket)) {
    const cri = createCriClient(`unix://${socket}`, { timeoutMs: 10_000 });
    try {
      const { items } = await cri.listPodSandbox({});
      await Promise.all(items.map(async (sb) => {
        await cri.stopPodSandbox({ podSandboxId: sb.id }).catch(() => {});
        await cri.removePodSandbox({ podSandboxId: sb.id }).catch(() => {});
      }));
    } catch {
      // A runtime that does not answer is stopped all the same.
    } finally {
      cri.close();
    }
  }
  await stopPid(pid);
}
