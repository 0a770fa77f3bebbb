/**
 * Container log rotation settings, the kubelet's names: containerLogMaxSize / --container-log-max-size (a
 * quantity, default 10Mi; negative turns rotation off) and containerLogMaxFiles / --container-log-max-files
 * (default 5, at least 2). A bad value stops the agent as NewContainerLogManager's error stops the kubelet.
 */
import { checkLogRotatePolicy, DEFAULT_CONTAINER_LOG_MAX_FILES, DEFAULT_CONTAINER_LOG_MAX_SIZE, type LogRotatePolicy } from '@nodelet/core/kubelet';
import { tryParseQuantity } from '@nodelet/core/util';
import type { FlagSpec } from './flag-spec.ts';

export interface LogAgentConfig {
  containerLogMaxSize: string;
  containerLogMaxFiles: number;
}

export const LOG_DEFAULTS: LogAgentConfig = {
  containerLogMaxSize: DEFAULT_CONTAINER_LOG_MAX_SIZE,
  containerLogMaxFiles: DEFAULT_CONTAINER_LOG_MAX_FILES,
};

export const LOG_FLAG_SPECS: FlagSpec<keyof LogAgentConfig>[] = [
  { name: 'container-log-max-size', kind: 'string', key: 'containerLogMaxSize', help: 'Size a container log reaches before it is rotated (a quantity: 10Mi, 500Ki; negative: never).', defaultText: DEFAULT_CONTAINER_LOG_MAX_SIZE },
  { name: 'container-log-max-files', kind: 'int', key: 'containerLogMaxFiles', help: 'Log files kept per container, the current one included (at least 2).', defaultText: String(DEFAULT_CONTAINER_LOG_MAX_FILES) },
];

export const LOG_FILE_FIELDS = [
  { path: 'containerLogMaxSize', key: 'containerLogMaxSize', kind: 'string' },
  { path: 'containerLogMaxFiles', key: 'containerLogMaxFiles', kind: 'int' },
] as const;

/** The rotation policy, or the kubelet's start-up error. */
export function logRotatePolicy(c: LogAgentConfig): { ok: true; policy: LogRotatePolicy } | { ok: false; reason: string } {
  const fail = (why: string) => ({ ok: false as const, reason: `failed to initialize container log manager: ${why}` });
  const size = tryParseQuantity(c.containerLogMaxSize);
  if (!size.ok) return fail(`failed to parse container log max size "${c.containerLogMaxSize}": ${size.reason}`);
  if (!Number.isInteger(size.value)) return fail(`failed to parse container log max size "${c.containerLogMaxSize}": invalid max log size`);
  const policy = { maxSize: size.value, maxFiles: c.containerLogMaxFiles };
  const bad = checkLogRotatePolicy(policy);
  return bad ? fail(bad) : { ok: true, policy };
}

export function validateLogs(c: LogAgentConfig): string | undefined {
  const r = logRotatePolicy(c);
  return r.ok ? undefined : r.reason;
}
