import type { ContainerConfig__Output } from '../../../../proto/gen/runtime/v1/ContainerConfig.ts';
import type { ImageConfig } from '../images/types.ts';
import { resolveContainerUser } from './container-user.ts';

export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface ProcessSpec {
  argv: string[];
  env: Record<string, string>;
  workingDir: string;
  uid?: number;
  gid?: number;
  /** Supplementary groups (container-user.ts): the gid, the image's groups of the user, the CRI ones. */
  groups?: number[];
  stopSignal: string;
}

/**
 * The process a container runs, as containerd derives it: `command` replaces the image Entrypoint (and
 * then drops the image Cmd), `args` replaces the image Cmd; image env first, CRI envs override.
 * `rootfs` is used to resolve the user through <rootfs>/etc/passwd and /etc/group (container-user.ts).
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
  const user = resolveContainerUser(config.linux?.securityContext, image.user, rootfs);
  if (!user.ok) return user;
  return {
    ok: true,
    spec: {
      argv,
      env,
      workingDir: config.workingDir || image.workingDir || '/',
      ...(user.uid !== undefined ? { uid: user.uid, gid: user.gid ?? 0, groups: user.groups ?? [] } : {}),
      stopSignal: stopSignalOf(config.stopSignal, image.stopSignal),
    },
  };
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
