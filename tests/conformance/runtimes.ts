// The runtimes the conformance suite runs against: the embedded runtime (spawned by the agent) and a private
// real containerd from scripts/containerd-up.sh (root only). A missing containerd is a failure that names what
// to install, never a skip.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../e2e/harness.ts';
import { killContainerd, startContainerd } from '@nodelet/agent/testing';

export type RuntimeName = 'embedded' | 'containerd';

export interface ConformanceRuntime {
  name: RuntimeName;
  /** Image with sh + busybox-like tools, present without a pull. */
  image: string;
  /** --container-runtime-endpoint (undefined: the agent spawns the embedded runtime). */
  endpoint?: string;
  /** host:port of a loopback registry holding busybox:latest (containerd-up.sh starts one). */
  registry?: string;
  /** containerd only: kill containerd (shims and containers keep running) / start it again on the same state. */
  stopDaemon?(): void;
  startDaemon?(): Promise<void>;
  down(): Promise<void>;
}

export const INSTALL_HINT =
  'apt-get install -y containerd runc containernetworking-plugins busybox-static catatonit umoci skopeo docker-registry';

/** The embedded runtime, with a loopback registry (containerd-up.sh REGISTRY_ONLY=1) when the tools are here. */
export async function embeddedRuntime(): Promise<ConformanceRuntime> {
  const state = mkdtempSync(join(tmpdir(), 'nodelet-reg-'));
  const r = spawnSync('bash', [join(repoRoot, 'scripts/containerd-up.sh'), state], { encoding: 'utf8', env: { ...process.env, REGISTRY_ONLY: '1' } });
  const registry = /^REGISTRY=(.+)$/m.exec(r.stdout)?.[1];
  const down = async () => void spawnSync('bash', [join(repoRoot, 'scripts/containerd-down.sh'), state]);
  if (r.status !== 0 || !registry) {
    await down();
    if (process.env.CI === 'true') throw new Error(`loopback registry failed to start: ${r.stderr.trim()}\nInstall: ${INSTALL_HINT}`);
    return { name: 'embedded', image: 'nodelet.local/host:latest', down: async () => {} };
  }
  return { name: 'embedded', image: 'nodelet.local/host:latest', registry, down };
}

const NEEDED = ['containerd', 'runc', 'ctr', 'umoci', 'skopeo', 'docker-registry', 'catatonit', 'busybox'];

function missingTools(): string[] {
  const miss = NEEDED.filter((b) => spawnSync('sh', ['-c', `command -v ${b}`]).status !== 0);
  if (!existsSync('/usr/lib/cni/bridge')) miss.push('cni-bridge');
  return miss;
}

/** As root, installs Debian's containerd packages when something is missing (npm test and CI do this). */
function ensureInstalled(): void {
  if (missingTools().length === 0) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const pkgs = INSTALL_HINT.split(' ').slice(3);
  let r = spawnSync('apt-get', ['install', '-y', '-qq', ...pkgs], { env, encoding: 'utf8' });
  if (r.status !== 0) {
    spawnSync('apt-get', ['update', '-qq'], { env });
    r = spawnSync('apt-get', ['install', '-y', '-qq', ...pkgs], { env, encoding: 'utf8' });
  }
  const still = missingTools();
  if (still.length > 0) throw new Error(`containerd suite: missing ${still.join(', ')} after apt-get (${r.stderr.trim().slice(-300)}). Install: ${INSTALL_HINT}`);
}

/** Starts containerd via scripts/containerd-up.sh; throws with what to install when it cannot. */
export async function containerdRuntime(): Promise<ConformanceRuntime> {
  if (process.getuid?.() !== 0) {
    const miss = missingTools();
    throw new Error(`the containerd conformance suite needs root${miss.length ? ` and ${miss.join(', ')}` : ''}: run as root (${INSTALL_HINT})`);
  }
  ensureInstalled();
  const state = mkdtempSync(join(tmpdir(), 'nodelet-ctrd-'));
  const r = spawnSync('bash', [join(repoRoot, 'scripts/containerd-up.sh'), state], { encoding: 'utf8' });
  if (r.status !== 0) {
    spawnSync('bash', [join(repoRoot, 'scripts/containerd-down.sh'), state]);
    throw new Error(`containerd-up.sh failed (exit ${r.status}): ${r.stderr.trim()}\nInstall: ${INSTALL_HINT}`);
  }
  const env = Object.fromEntries(
    r.stdout.split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  ) as Record<string, string>;
  const endpoint = env.ENDPOINT ?? '';
  return {
    name: 'containerd',
    image: 'localhost/busybox:latest',
    endpoint,
    ...(env.REGISTRY ? { registry: env.REGISTRY } : {}),
    stopDaemon: () => killContainerd(state),
    startDaemon: () => startContainerd(state),
    async down() {
      spawnSync('bash', [join(repoRoot, 'scripts/containerd-down.sh'), state]);
    },
  };
}

export const RUNTIMES: Array<{ name: RuntimeName; make(): Promise<ConformanceRuntime> }> = [
  { name: 'embedded', make: embeddedRuntime },
  { name: 'containerd', make: containerdRuntime },
];
