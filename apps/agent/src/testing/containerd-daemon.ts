/**
 * Stops and starts the containerd of a scripts/containerd-up.sh state dir in place (same config, root and
 * state), as a crash and a restart: shims and their containers keep running while it is down.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** SIGKILLs the instance's containerd (its pid file); the socket stops answering at once. */
export function killContainerd(state: string): void {
  const pid = Number(readFileSync(join(state, 'containerd.pid'), 'utf8').trim());
  if (pid > 0) process.kill(pid, 'SIGKILL');
}

/** Starts containerd again on the instance's config; resolves once `ctr version` answers on its socket. */
export async function startContainerd(state: string, timeoutMs = 10_000): Promise<void> {
  const sock = join(state, 'containerd.sock');
  const out = openSync(join(state, 'containerd.log'), 'a');
  try {
    const c = spawn('containerd', ['--config', join(state, 'config.toml')], { stdio: ['ignore', out, out], detached: true });
    c.unref();
    writeFileSync(join(state, 'containerd.pid'), `${c.pid}\n`);
  } finally {
    closeSync(out);
  }
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (existsSync(sock) && spawnSync('ctr', ['--address', sock, 'version']).status === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`containerd under ${state} did not come back within ${timeoutMs} ms`);
}
