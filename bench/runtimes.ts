// The runtimes a bench can run against: the embedded runtime (always), and a private containerd started with
// scripts/containerd-up.sh when running as root. `--runtime embedded|containerd|both` picks (default both).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { repoRoot } from '../e2e/harness.ts';
import { removeCgroupRoot } from '../tests/conformance/cgroups.ts';

export interface RuntimeUnderTest {
  name: string;
  image: string;
  /** Absent for the embedded runtime (the agent starts it). */
  endpoint?: string;
  stop(): Promise<void>;
}

export function containerdRuntime(): RuntimeUnderTest | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const state = mkdtempSync(join(tmpdir(), 'nodelet-bench-ctd-'));
  try {
    const out = execFileSync(join(repoRoot, 'scripts/containerd-up.sh'), [state], { encoding: 'utf8' });
    const env = Object.fromEntries(out.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    return {
      name: 'containerd',
      image: 'localhost/busybox:latest',
      endpoint: env.ENDPOINT,
      stop: async () => {
        execFileSync(join(repoRoot, 'scripts/containerd-down.sh'), [state]);
        for (const root of leftovers) if (removeCgroupRoot(root).length === 0) leftovers.delete(root);
      },
    };
  } catch (e) {
    console.error(`containerd not available: ${String(e)}`);
    rmSync(state, { recursive: true, force: true });
    return undefined;
  }
}

/** Cgroup roots a bench could not remove while the runtime still ran pods in them: removed again once it stopped. */
const leftovers = new Set<string>();

/** Removes a bench's cgroup root; what is still in use (containers the runtime has not stopped yet) goes when the runtime stops. */
export function removeBenchCgroupRoot(root: string): void {
  if (removeCgroupRoot(root).length > 0) leftovers.add(root);
}

/** The runtimes named by `--runtime` in argv; containerd is started here (stop it with `stop()`). */
export function selectRuntimes(argv: string[]): RuntimeUnderTest[] {
  const which = argv.includes('--runtime') ? argv[argv.indexOf('--runtime') + 1] : 'both';
  const runtimes: RuntimeUnderTest[] = [];
  if (which === 'embedded' || which === 'both') runtimes.push({ name: 'embedded', image: 'nodelet.local/host:latest', stop: async () => {} });
  if (which === 'containerd' || which === 'both') {
    const c = containerdRuntime();
    if (c) runtimes.push(c);
  }
  return runtimes;
}

/** A bench pod (namespace bench): one container looping on `sleep <sleepS>` until SIGTERM. */
export function benchPodManifest(name: string, image: string, sleepS: number): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'bench' },
    spec: {
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'main', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', `trap "exit 0" TERM; while true; do sleep ${sleepS}; done`] }],
    },
  });
}

/**
 * The compiled agent: `<dist>/agent/main.js` of a build made elsewhere (`node scripts/build.mjs --out <dist>`, taken
 * as it is), else dist/agent/main.js, built first when dist/ is older than the sources (`npm run build`).
 */
export function compiledAgentMain(dist?: string): string {
  if (dist !== undefined) {
    const main = join(resolve(dist), 'agent/main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build it with \`node scripts/build.mjs --out ${dist}\``);
    return main;
  }
  execFileSync(process.execPath, [join(repoRoot, 'scripts/build.mjs'), '--if-stale'], { cwd: repoRoot, stdio: 'inherit' });
  return join(repoRoot, 'dist/agent/main.js');
}

/** "machine: 2 × <cpu>, 24 GiB, node v20…": the line every bench table prints above itself. */
export function machineLine(): string {
  const steal = stealSinceStart();
  return `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}${steal === undefined ? '' : `; CPU time stolen by the hypervisor since the bench began: ${steal.toFixed(1)} %`}`;
}

/** /proc/stat's machine-wide cpu line: [steal, total] jiffies (a VM's neighbours show as steal, not as load). */
export function cpuJiffies(): [number, number] | undefined {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1, 9).map(Number) ?? [];
    return f.length === 8 ? [f[7] ?? 0, f.reduce((a, b) => a + b, 0)] : undefined;
  } catch {
    return undefined;
  }
}

const atStart = cpuJiffies();

/** % of the machine's CPU time stolen by the hypervisor since `from` (cpuJiffies()), by default since this module loaded (the bench began). */
export function stealSinceStart(from = atStart): number | undefined {
  const now = cpuJiffies();
  if (!from || !now || now[1] === from[1]) return undefined;
  return ((now[0] - from[0]) / (now[1] - from[1])) * 100;
}

/** One kept-alive connection for the benches' fast polls of an agent (fetch cost ≈ 2× the CPU of node:http per GET). */
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** GET `url` over the kept-alive connection, its body parsed as JSON. */
export function getJsonKeptAlive<T>(url: string): Promise<T> {
  return new Promise((resolve, reject) => {
    get(url, { agent: keepAlive }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as T);
        } catch (err) {
          reject(err);
        }
      });
      r.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * A socket.io client of the agent's event streams (the console's identity: its client certificate). `filter`: the
 * events it takes (`nodelet:subscribe`, sent as it connects), so the agent encodes and sends no others; every event
 * without one.
 */
export function agentSocket(rootDir: string, kubeletPort: number, filter?: { namespace?: string; types?: string[] }): Promise<Socket> {
  const pki = join(rootDir, 'pki');
  const s = connect(`https://127.0.0.1:${kubeletPort}`, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    ca: readFileSync(join(pki, 'ca.crt'), 'utf8'),
    cert: readFileSync(join(pki, 'console.crt'), 'utf8'),
    key: readFileSync(join(pki, 'console.key'), 'utf8'),
  });
  if (filter) s.emit('nodelet:subscribe', filter);
  return new Promise((res, rej) => {
    s.once('connect', () => res(s));
    s.once('connect_error', rej);
  });
}
