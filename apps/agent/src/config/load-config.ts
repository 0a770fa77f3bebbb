/** defaults ← KubeletConfiguration file ← flags, then validation. Pure apart from the injected file reader. */
import { isAbsolute, join, resolve } from 'node:path';
import { parseConfigFile } from './config-file.ts';
import { configFileDefaults, flagDefaults } from './defaults.ts';
import { CONSOLE_TOKEN_FILE_NAME } from './http-config.ts';
import { parseFlags } from './flags.ts';
import type { AgentConfig, PartialSettings } from './types.ts';
import { DEFAULT_POD_LOGS_DIR, DEFAULT_ROOT_DIR } from './types.ts';
import { validateConfig } from './validate.ts';
import { runtimeClassWarning } from './runtime-class-config.ts';

export interface LoadDeps {
  readFile(path: string): string;
  hostname(): string;
  cwd(): string;
}

export type LoadResult =
  | { ok: true; help: false; config: AgentConfig; warnings: string[]; configFile?: string }
  | { ok: true; help: true }
  | { ok: false; reason: string };

export function loadConfig(argv: readonly string[], deps: LoadDeps): LoadResult {
  const flags = parseFlags(argv);
  if (!flags.ok) return flags;
  if (flags.value.help) return { ok: true, help: true };
  if (flags.value.kubeconfig !== undefined) flags.value.settings.kubeconfig = flags.value.kubeconfig;
  let fileSettings: PartialSettings = {};
  let warnings: string[] = [];
  const configFile = flags.value.configFile;
  if (configFile !== undefined) {
    let text: string;
    try {
      text = deps.readFile(configFile);
    } catch (err) {
      return { ok: false, reason: `failed to read config file "${configFile}": ${(err as Error).message}` };
    }
    const parsed = parseConfigFile(text, configFile);
    if (!parsed.ok) return parsed;
    fileSettings = parsed.value;
    warnings = parsed.warnings;
  }
  const base = configFile !== undefined ? configFileDefaults() : flagDefaults();
  const merged = merge(base, fileSettings, flags.value.settings, deps);
  const invalid = validateConfig(merged);
  if (invalid) return { ok: false, reason: invalid };
  const unused = runtimeClassWarning(merged);
  if (unused) warnings = [...warnings, unused];
  return { ok: true, help: false, config: merged, warnings, configFile };
}

function merge(base: ReturnType<typeof flagDefaults>, file: PartialSettings, flags: PartialSettings, deps: LoadDeps): AgentConfig {
  const { crashLoopBackOffInitialMs: fi, crashLoopBackOffMaxMs: fm, ...fileRest } = file;
  const { crashLoopBackOffInitialMs: gi, crashLoopBackOffMaxMs: gm, ...flagRest } = flags;
  const cfg: AgentConfig = { ...base, nodeName: deps.hostname().toLowerCase(), ...defined(fileRest), ...defined(flagRest) };
  cfg.crashLoopBackOff = {
    initialMs: gi ?? fi ?? base.crashLoopBackOff.initialMs,
    maxMs: gm ?? fm ?? base.crashLoopBackOff.maxMs,
  };
  // nodeutil.GetHostname: the override (or the OS hostname) trimmed and lowercased.
  cfg.nodeName = cfg.nodeName.trim().toLowerCase();
  cfg.rootDir = resolve(deps.cwd(), cfg.rootDir);
  cfg.certDir = cfg.certDir ? resolve(deps.cwd(), cfg.certDir) : join(cfg.rootDir, 'pki');
  const podLogsDirSet = flagRest.podLogsDir !== undefined || fileRest.podLogsDir !== undefined;
  // A custom root dir keeps pod logs under it unless podLogsDir is set (the kubelet always uses /var/log/pods).
  if (!podLogsDirSet && cfg.rootDir !== DEFAULT_ROOT_DIR) cfg.podLogsDir = join(cfg.rootDir, 'logs', 'pods');
  else if (!podLogsDirSet) cfg.podLogsDir = DEFAULT_POD_LOGS_DIR;
  cfg.consoleTokenFile = cfg.consoleTokenFile ? resolve(deps.cwd(), cfg.consoleTokenFile) : join(cfg.rootDir, CONSOLE_TOKEN_FILE_NAME);
  for (const k of ['podManifestPath', 'clientCAFile', 'tlsCertFile', 'tlsPrivateKeyFile', 'podLogsDir', 'kubeconfig', 'bootstrapKubeconfig'] as const) {
    const v = cfg[k];
    if (v !== undefined && v !== '' && !isAbsolute(v)) cfg[k] = resolve(deps.cwd(), v);
  }
  for (const k of ['podManifestPath', 'manifestUrl', 'containerRuntimeEndpoint', 'clientCAFile', 'tlsCertFile', 'tlsPrivateKeyFile', 'kubeconfig', 'bootstrapKubeconfig'] as const) {
    if (cfg[k] === '') delete cfg[k];
  }
  return cfg;
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
