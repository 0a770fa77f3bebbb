/**
 * The node's own registry credentials (the kubelet's default docker config provider, cached for 5 minutes):
 * the first valid `config.json` in `<root-dir>`, the working directory, `$HOME/.docker`, `/.docker`; when there
 * is none, the first valid legacy `.dockercfg` in `<root-dir>`, the working directory, `$HOME`, `/`. A file that
 * does not parse is skipped (logged), as the kubelet does; no file at all is an empty keyring.
 */
import * as path from 'node:path';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { parseDockercfg, parseDockerConfigJson, type ParseResult } from './config.ts';
import { BasicDockerKeyring, type DockerConfig, type DockerKeyring } from './keyring.ts';

export interface NodeCredentialsDeps {
  /** Reads a file (rejects with code ENOENT when absent). */
  readFile(file: string): Promise<string>;
  clock: Clock;
  logger: Logger;
}

export interface NodeCredentialsConfig {
  /** --root-dir (the kubelet's preferred docker config path). */
  rootDir: string;
  /** The working directory (default process.cwd()). */
  cwd?: string;
  /** $HOME (default os.homedir() through process.env.HOME). */
  home?: string;
  /** Cache lifetime (default 5 minutes). */
  lifetimeMs?: number;
}

export const NODE_CREDENTIALS_LIFETIME_MS = 5 * 60_000;

/** The files searched, in order: config.json ones first, then the legacy .dockercfg ones. */
export function credentialFileCandidates(cfg: NodeCredentialsConfig): Array<{ file: string; legacy: boolean }> {
  const cwd = cfg.cwd ?? process.cwd();
  const home = cfg.home ?? process.env.HOME ?? '';
  const abs = (dir: string, name: string) => path.resolve(cwd, dir, name);
  const json = [cfg.rootDir, '', path.join(home, '.docker'), '/.docker'].map((d) => ({ file: abs(d, 'config.json'), legacy: false }));
  const legacy = [cfg.rootDir, '', home, '/'].map((d) => ({ file: abs(d, '.dockercfg'), legacy: true }));
  return [...json, ...legacy];
}

/** ReadDockerConfigFile: the first candidate that reads and parses (its path, for the log), else an empty config. */
export async function readNodeDockerConfig(deps: NodeCredentialsDeps, cfg: NodeCredentialsConfig): Promise<{ config: DockerConfig; file?: string }> {
  for (const c of credentialFileCandidates(cfg)) {
    let text: string;
    try {
      text = await deps.readFile(c.file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') deps.logger.info('cannot read registry credential file', { file: c.file, err: String(err) });
      continue;
    }
    const parsed: ParseResult = c.legacy ? parseDockercfg(text) : parseDockerConfigJson(text);
    if (!parsed.ok) {
      deps.logger.warn('registry credential file does not parse, skipped', { file: c.file, err: parsed.message });
      continue;
    }
    return { config: parsed.config, file: c.file };
  }
  return { config: new Map() };
}

/** The node keyring, read again once the cached one is older than its lifetime. */
export class NodeCredentials {
  private cached: { at: number; keyring: DockerKeyring } | undefined;
  private reading: Promise<DockerKeyring> | undefined;
  private readonly lifetimeMs: number;

  constructor(
    private readonly deps: NodeCredentialsDeps,
    private readonly cfg: NodeCredentialsConfig,
  ) {
    this.lifetimeMs = cfg.lifetimeMs ?? NODE_CREDENTIALS_LIFETIME_MS;
  }

  async keyring(): Promise<DockerKeyring> {
    const now = this.deps.clock.monotonic();
    if (this.cached && now - this.cached.at < this.lifetimeMs) return this.cached.keyring;
    this.reading ??= (async () => {
      const { config, file } = await readNodeDockerConfig(this.deps, this.cfg);
      if (file) this.deps.logger.debug('registry credentials read', { file, registries: config.size });
      const keyring = new BasicDockerKeyring();
      keyring.add(config);
      this.cached = { at: now, keyring };
      return keyring;
    })().finally(() => (this.reading = undefined));
    return this.reading;
  }
}
