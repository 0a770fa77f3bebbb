import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerConfig__Output } from '../../../../proto/gen/runtime/v1/ContainerConfig.ts';
import type { ImageConfig } from '../images/types.ts';

export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface ProcessSpec {
  argv: string[];
  env: Record<string, string>;
  workingDir: string;
  uid?: number;
  gid?: number;
  stopSignal: string;
}

/**
 * The process a container runs, as containerd derives it: `command` replaces the image Entrypoint (and
 * then drops the image Cmd), `args` replaces the image Cmd; image env first, CRI envs override.
 * `rootfs` is used to resolve user names through <rootfs>/etc/passwd.
 */
export function resolveProcessSpec(
  config: ContainerConfig__Output,
  image: ImageConfig,
  rootfs: string,
): { ok: true; spec: ProcessSpec } | { ok: false; message: string } {
  const argv = config.command.length > 0
    ? [...config.command, ...config.args]
    : [...image.entrypoint, ...(config.args.length > 0 ? config.args : image.cmd)];
  if (argv.length === 0) return { ok: false, message: 'no command specified' };
  const env: Record<string, string> = {};
  for (const kv of image.env) {
    const eq = kv.indexOf('=');
    if (eq > 0) env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  // KeyValue.value is `string` upstream; tolerate a bytes-typed proto too.
  for (const e of config.envs) if (e.key) env[e.key] = typeof e.value === 'string' ? e.value : Buffer.from(e.value ?? '').toString();
  env['PATH'] ??= DEFAULT_PATH;
  const user = resolveUser(config, image, rootfs);
  if (!user.ok) return user;
  return {
    ok: true,
    spec: {
      argv,
      env,
      workingDir: config.workingDir || image.workingDir || '/',
      ...(user.uid !== undefined ? { uid: user.uid, gid: user.gid ?? user.uid } : {}),
      stopSignal: stopSignalOf(config.stopSignal, image.stopSignal),
    },
  };
}

type UserResult = { ok: true; uid?: number; gid?: number } | { ok: false; message: string };

function resolveUser(config: ContainerConfig__Output, image: ImageConfig, rootfs: string): UserResult {
  const sc = config.linux?.securityContext;
  const gid = sc?.runAsGroup ? sc.runAsGroup.value : undefined;
  if (sc?.runAsUser) return { ok: true, uid: sc.runAsUser.value, gid };
  const spec = sc?.runAsUsername || image.user;
  if (!spec) return { ok: true, gid };
  const [u = '', g] = spec.split(':');
  const uid = /^\d+$/.test(u) ? Number(u) : lookup(join(rootfs, 'etc/passwd'), u, 2);
  if (uid === undefined) return { ok: false, message: `no users found for "${u}" in /etc/passwd` };
  let groupId = gid;
  if (groupId === undefined && g) groupId = /^\d+$/.test(g) ? Number(g) : lookup(join(rootfs, 'etc/group'), g, 2);
  if (groupId === undefined && !/^\d+$/.test(u)) groupId = lookup(join(rootfs, 'etc/passwd'), u, 3);
  return { ok: true, uid, gid: groupId };
}

function lookup(file: string, name: string, field: number): number | undefined {
  try {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const f = line.split(':');
      if (f[0] === name && f[field] !== undefined && /^\d+$/.test(f[field]!)) return Number(f[field]);
    }
  } catch {
    /* no passwd */
  }
  return undefined;
}

/** CRI Signal enum name ("SIGNAL_SIGINT") or image StopSignal ("SIGINT", "2") to a node signal name. */
export function stopSignalOf(cri: string | undefined, image: string | undefined): string {
  if (cri && cri !== 'SIGNAL_RUNTIME_DEFAULT') return cri.replace(/^SIGNAL_/, '');
  if (image) {
    if (/^\d+$/.test(image)) return image;
    return image.startsWith('SIG') ? image : `SIG${image}`;
  }
  return 'SIGTERM';
}
