// `npm start`: installs what is missing, builds the console (next build) and the daemon (`npm run build`) when
// their sources changed, starts the agent (embedded runtime, examples/ as
// the static pod directory, state under .nodelet/) and the console on 4194, prints the URLs — the console's with
// the agent's console token in it, as Jupyter does: opening it signs the browser in. Ctrl-C stops all of it,
// including the embedded runtime and therefore every pod process it started.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { buildAll, buildIsStale } from './build.mjs';
import { ensureDependencies, ensureWebBuilt, log, repoRoot } from './lib.mjs';

const stateDir = process.env.NODELET_STATE_DIR ?? join(repoRoot, '.nodelet');
const manifests = process.env.NODELET_MANIFESTS ?? join(repoRoot, 'examples');
const ports = {
  kubelet: process.env.NODELET_PORT ?? '10250',
  readOnly: process.env.NODELET_READ_ONLY_PORT ?? '10255',
  healthz: process.env.NODELET_HEALTHZ_PORT ?? '10248',
  console: process.env.NODELET_CONSOLE_PORT ?? '4194',
};

ensureDependencies();
ensureWebBuilt();
// The agent, its embedded runtime and the console's server run as compiled JavaScript with plain node.
if (buildIsStale()) await buildAll();

const nodeName = process.env.NODELET_NODE_NAME ?? hostname().toLowerCase();
log(`state directory: ${stateDir}`);
log(`static pod manifests: ${manifests}`);
const children = [];
const agent = spawn(
  process.execPath,
  [
    ...(/--max-old-space-size\b/.test(process.env.NODE_OPTIONS ?? '') ? [] : ['--max-old-space-size=512']),
    join(repoRoot, 'dist/agent/main.js'),
    '--root-dir', stateDir,
    '--pod-manifest-path', manifests,
    '--node-name', nodeName,
    '--port', ports.kubelet,
    '--read-only-port', ports.readOnly,
    '--healthz-port', ports.healthz,
  ],
  // Two libuv pool threads, one malloc arena, 1 MiB semi-spaces, a 512 MiB old generation (V8 grows it by less): RSS
  // (apps/agent/src/daemon-env.ts, whose test holds these to it).
  {
    cwd: repoRoot,
    stdio: 'inherit',
    env: {
      ...process.env,
      UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '2',
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '1',
      NODE_OPTIONS: /--max-semi-space-size\b/.test(process.env.NODE_OPTIONS ?? '') ? process.env.NODE_OPTIONS : `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=1`.trim(),
    },
  },
);
children.push(agent);

async function waitFor(pred, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (pred()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const pki = join(stateDir, 'pki');
const tokenFile = join(stateDir, 'console.token');
// The agent writes its CA (which the console trusts for the agent's TLS) and its console token at start.
if (!(await waitFor(() => existsSync(join(pki, 'ca.crt')) && existsSync(tokenFile), 60_000))) {
  log('the agent did not create its certificates and console token within 60 s; see its log above');
}
const token = existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '';
const web = spawn(process.execPath, [join(repoRoot, 'dist/web/server.js')], {
  cwd: join(repoRoot, 'apps/web'),
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: ports.console,
    NEXT_TELEMETRY_DISABLED: '1',
    NODELET_AGENT_URL: `https://127.0.0.1:${ports.kubelet}`,
    NODELET_PKI_DIR: pki,
    NODELET_NODE_NAME: nodeName,
  },
});
children.push(web);

log('');
log(`console:        http://127.0.0.1:${ports.console}/?token=${encodeURIComponent(token)}`);
log(`                (opening it signs you in; the token is in ${tokenFile})`);
log(`kubelet API:    curl --cacert ${pki}/ca.crt -H "Authorization: Bearer $(cat ${tokenFile})" https://127.0.0.1:${ports.kubelet}/pods`);
log(`read-only API:  http://127.0.0.1:${ports.readOnly}/pods`);
log(`healthz:        http://127.0.0.1:${ports.healthz}/healthz`);
log(`live tail:      npm run -s tail`);
log('Ctrl-C stops everything.');

let stopping = false;
async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  log('stopping console and agent…');
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await waitFor(() => children.every((c) => c.exitCode !== null || c.signalCode !== null), 15_000);
  const pidFile = join(stateDir, 'runtime', 'runtime.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (pid > 0 && alive(pid)) {
      log(`stopping the embedded runtime (pid ${pid}) and its pods…`);
      process.kill(pid, 'SIGTERM');
      if (!(await waitFor(() => !alive(pid), 20_000))) process.kill(pid, 'SIGKILL');
    }
  }
  log('stopped.');
  process.exit(code);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
agent.on('exit', (code) => {
  if (!stopping) {
    log(`the agent exited (${code}); stopping`);
    void stopAll(code ?? 1);
  }
});
web.on('exit', (code) => {
  if (!stopping) {
    log(`the console exited (${code}); stopping`);
    void stopAll(code ?? 1);
  }
});
