/**
 * The environment of every process the runtime starts on the host side (sandbox holders, container setup,
 * nsenter for exec, port-forward relays, stty): fixed and built here. Nothing comes from the pod (its env is
 * only ever applied by the final `env -i` step inside the container's root, see scripts.ts) and nothing from
 * the runtime daemon's own environment, so no LD_PRELOAD / LD_AUDIT / LD_LIBRARY_PATH / GCONV_PATH / SHELL /
 * BASH_ENV reaches a host tool running as root.
 */

/** Host tools, whatever PATH the container or the daemon sets (the runtime calls its tools by absolute path). */
export const HOST_PATH = '/usr/sbin:/usr/bin:/sbin:/bin';

/** The fixed host environment plus the runtime's own settings for a setup script (NODELET_* names). */
export function hostEnv(settings: Record<string, string> = {}): Record<string, string> {
  return { PATH: HOST_PATH, LANG: 'C', ...settings };
}

export type EnvWords = { ok: true; words: string[] } | { ok: false; message: string };

/**
 * The container's environment as `NAME=value` words for the final `env -i --` step (argv data, never an
 * environment of a host process). A name must be non-empty and free of `=` and NUL; a value free of NUL.
 */
export function envWords(env: Record<string, string>): EnvWords {
  const words: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (name === '' || name.includes('=') || name.includes('\0')) return { ok: false, message: `invalid environment variable name ${JSON.stringify(name)}` };
    if (value.includes('\0')) return { ok: false, message: `environment variable ${name}: value contains a NUL byte` };
    words.push(`${name}=${value}`);
  }
  return { ok: true, words };
}
