/**
 * Test helpers (also for containerd tests and benches): build a busybox OCI image offline with umoci from
 * the host's static busybox, export it with skopeo, and run Debian's docker-registry on a loopback port.
 * Needs the apt packages busybox-static, umoci, skopeo, docker-registry.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { hostArch } from '../oci.ts';

const run = promisify(execFile);

export interface BusyboxLayout {
  /** The OCI layout directory. */
  layout: string;
  /** Tag inside the layout ("busybox"). */
  tag: string;
  /** skopeo/containers transport reference: "oci:<layout>:busybox". */
  transport: string;
}

export interface BuildOptions {
  /** Tag inside the layout (default "busybox"). */
  tag?: string;
  /** Image entrypoint (e.g. ['/bin/sleep']); default none. */
  entrypoint?: string[];
  /** Image cmd (default ['sh']). */
  cmd?: string[];
  /** Static binary to use (default /bin/busybox). */
  busybox?: string;
  /** Extra host files to copy in, e.g. { from: '/usr/bin/catatonit', to: '/catatonit' } for a pause image. */
  extraFiles?: Array<{ from: string; to: string }>;
}

/** Builds `<dir>/oci` holding a one-layer busybox image (Cmd ["sh"], Env PATH=/bin:/usr/bin:..). */
export async function buildBusyboxOciLayout(dir: string, opts: BuildOptions = {}): Promise<BusyboxLayout> {
  const tag = opts.tag ?? 'busybox';
  const layout = path.join(dir, 'oci');
  const bundle = path.join(dir, `bundle-${tag}`);
  const image = `${layout}:${tag}`;
  const rootless = process.getuid?.() !== 0 ? ['--rootless'] : [];
  await fsp.mkdir(dir, { recursive: true });
  if ((await fsp.stat(path.join(layout, 'index.json')).catch(() => null)) === null) {
    await run('umoci', ['init', '--layout', layout]);
  }
  await run('umoci', ['new', '--image', image]);
  await run('umoci', ['unpack', ...rootless, '--image', image, bundle]);
  await populateRootfs(path.join(bundle, 'rootfs'), opts.busybox ?? '/bin/busybox');
  for (const f of opts.extraFiles ?? []) {
    const dest = path.join(bundle, 'rootfs', f.to);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    await fsp.copyFile(f.from, dest);
    await fsp.chmod(dest, (await fsp.stat(f.from)).mode & 0o7777);
  }
  await run('umoci', ['repack', '--image', image, bundle]);
  const cfg = ['config', '--image', image, '--architecture', hostArch(), '--os', 'linux'];
  cfg.push('--config.env', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
  for (const c of opts.cmd ?? ['sh']) cfg.push('--config.cmd', c);
  for (const e of opts.entrypoint ?? []) cfg.push('--config.entrypoint', e);
  await run('umoci', cfg);
  await run('umoci', ['gc', '--layout', layout]);
  await fsp.rm(bundle, { recursive: true, force: true });
  return { layout, tag, transport: `oci:${image}` };
}

async function populateRootfs(rootfs: string, busybox: string): Promise<void> {
  for (const d of ['bin', 'etc', 'root', 'tmp', 'proc', 'sys', 'dev', 'var', 'usr']) {
    await fsp.mkdir(path.join(rootfs, d), { recursive: true });
  }
  await fsp.chmod(path.join(rootfs, 'tmp'), 0o1777);
  await fsp.copyFile(busybox, path.join(rootfs, 'bin', 'busybox'));
  await fsp.chmod(path.join(rootfs, 'bin', 'busybox'), 0o755);
  const { stdout } = await run(busybox, ['--list']);
  for (const applet of stdout.split('\n').map((s) => s.trim())) {
    if (applet === '' || applet === 'busybox' || applet.includes('/')) continue;
    await fsp.symlink('busybox', path.join(rootfs, 'bin', applet)).catch(() => {});
  }
  await fsp.writeFile(path.join(rootfs, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n');
  await fsp.writeFile(path.join(rootfs, 'etc', 'group'), 'root:x:0:\nnogroup:x:65534:\n');
}

/** Exports the layout's image as a docker-archive tar named `name` (e.g. "localhost/busybox:latest"). */
export async function saveDockerArchive(img: BusyboxLayout, file: string, name: string): Promise<string> {
  await fsp.rm(file, { force: true });
  await run('skopeo', ['copy', '-q', img.transport, `docker-archive:${file}:${name}`]);
  return file;
}

/** Exports the layout's image as an OCI archive tar with ref name `name`. */
export async function saveOciArchive(img: BusyboxLayout, file: string, name: string): Promise<string> {
  await fsp.rm(file, { force: true });
  await run('skopeo', ['copy', '-q', img.transport, `oci-archive:${file}:${name}`]);
  return file;
}

export interface LoopbackRegistry {
  /** "http://127.0.0.1:PORT" */
  url: string;
  /** "127.0.0.1:PORT", for image references. */
  host: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface RegistryUser {
  username: string;
  password: string;
}

/**
 * An htpasswd line for docker-registry's basic auth: bcrypt through the C library's crypt(3) (libxcrypt, which
 * Debian's perl-base uses), as apache2-utils' htpasswd -B would write it.
 */
export async function htpasswdLine(user: RegistryUser): Promise<string> {
  const abc = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const salt = Array.from(randomBytes(22), (b) => abc[b % 64]).join('');
  const { stdout } = await run('perl', ['-e', 'print crypt($ARGV[0], $ARGV[1])', user.password, `$2b$05$${salt}`]);
  if (!stdout.startsWith('$2b$')) throw new Error(`crypt(3) here has no bcrypt: ${stdout}`);
  return `${user.username}:${stdout}`;
}

/**
 * Starts `docker-registry serve` on a free loopback port with storage under `dir`; waits until /v2/ answers.
 * With `users`, the registry asks for HTTP basic auth (htpasswd) on every request (plain HTTP on loopback).
 */
export async function startLoopbackRegistry(dir: string, users?: RegistryUser[]): Promise<LoopbackRegistry> {
  await fsp.mkdir(path.join(dir, 'storage'), { recursive: true });
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const config = path.join(dir, 'registry.yml');
  const htpasswd = path.join(dir, 'htpasswd');
  if (users) await fsp.writeFile(htpasswd, (await Promise.all(users.map(htpasswdLine))).join('\n') + '\n');
  await fsp.writeFile(config, [
    'version: 0.1', 'log:', '  level: error', 'storage:', '  filesystem:', `    rootdirectory: ${path.join(dir, 'storage')}`,
    '  delete:', '    enabled: true', 'http:', `  addr: ${host}`,
    ...(users ? ['auth:', '  htpasswd:', '    realm: nodelet-test', `    path: ${htpasswd}`] : []), '',
  ].join('\n'));
  const child = spawn('docker-registry', ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    await stopChild(child);
  };
  const url = `http://${host}`;
  const ready = await waitReady(url, child);
  if (!ready) {
    await stop();
    throw new Error(`docker-registry did not start on ${host}: ${stderr}`);
  }
  return { url, host, stop };
}

async function waitReady(url: string, child: ChildProcess): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) return false;
    const ok = await fetch(`${url}/v2/`).then((r) => r.ok || r.status === 401, () => false);
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(t);
}

/** Pushes the layout's image to `<registryHost>/<repo>` (e.g. "busybox:latest") over plain HTTP. */
export async function pushToRegistry(img: BusyboxLayout, registryHost: string, repo = 'busybox:latest', user?: RegistryUser): Promise<string> {
  const dest = `${registryHost}/${repo}`;
  const creds = user ? ['--dest-creds', `${user.username}:${user.password}`] : [];
  await run('skopeo', ['copy', '-q', '--dest-tls-verify=false', ...creds, img.transport, `docker://${dest}`]);
  return dest;
}
