/** Validation of the merged configuration; the first problem is returned as a readable message. */
import { isIP } from 'node:net';
import type { AgentConfig } from './types.ts';
import { validateEviction } from './eviction-config.ts';
import { validateApiServer } from './apiserver-config.ts';
import { validateBootstrap } from './bootstrap-config.ts';
import { validateHttp } from './http-config.ts';
import { validateRuntimeClasses } from './runtime-class-config.ts';
import { validateLogs } from './log-config.ts';
import { validateRecorder } from './recorder-config.ts';
import { validateShutdown } from './shutdown-config.ts';
import { validateCpuManager } from './cpu-manager-config.ts';
import { validateTopologyMemory } from './topology-memory-config.ts';
import { validatePodCidr } from './pod-cidr-config.ts';
import { validateFeatureGates } from './feature-gates-config.ts';
import { createSysctlAllowlist } from '@nodelet/core/kubelet';

export function validateConfig(c: AgentConfig): string | undefined {
  const checks: Array<() => string | undefined> = [
    () => portCheck('port', c.port, false),
    () => portCheck('readOnlyPort', c.readOnlyPort, true),
    () => portCheck('healthzPort', c.healthzPort, true),
    () => (isIP(c.address) ? undefined : `address: "${c.address}" is not a valid IP address`),
    () => (isIP(c.healthzBindAddress) ? undefined : `healthzBindAddress: "${c.healthzBindAddress}" is not a valid IP address`),
    () => (c.authorizationMode === 'AlwaysAllow' || c.authorizationMode === 'Webhook'
      ? undefined
      : `authorization.mode: "${c.authorizationMode}" is not supported (AlwaysAllow or Webhook)`),
    () => validateApiServer(c),
    () => validateBootstrap(c),
    () => validateHttp(c),
    () => (Boolean(c.tlsCertFile) !== Boolean(c.tlsPrivateKeyFile) ? 'tlsCertFile and tlsPrivateKeyFile must be given together' : undefined),
    () => (c.maxPods >= 0 ? undefined : `maxPods: must be >= 0, got ${c.maxPods}`),
    () => sysctlCheck(c.allowedUnsafeSysctls),
    () => validateRuntimeClasses(c),
    () => (c.nodeName.length > 0 ? undefined : 'node name must not be empty'),
    () => endpointCheck(c.containerRuntimeEndpoint),
    () => urlCheck(c.manifestUrl),
    () => positive('syncFrequency', c.syncFrequencyMs),
    () => positive('fileCheckFrequency', c.fileCheckFrequencyMs),
    () => positive('httpCheckFrequency', c.httpCheckFrequencyMs),
    () => positive('runtimeRequestTimeout', c.runtimeRequestTimeoutMs),
    () => positive('pleg relist period', c.plegRelistPeriodMs),
    () => positive('volumeStatsAggPeriod', c.volumeStatsAggPeriodMs),
    () => positive('pleg relist threshold', c.plegRelistThresholdMs),
    () => positive('crashloop backoff initial', c.crashLoopBackOff.initialMs),
    () => (c.crashLoopBackOff.maxMs >= c.crashLoopBackOff.initialMs
      ? undefined
      : 'crashloop backoff max must be >= crashloop backoff initial'),
    () => validateEviction(c),
    () => validateLogs(c),
    () => validateRecorder(c),
    () => validateShutdown(c),
    () => validateCpuManager(c),
    () => validateTopologyMemory(c),
    () => validatePodCidr(c),
    () => validateFeatureGates(c),
  ];
  for (const check of checks) {
    const problem = check();
    if (problem) return `invalid configuration: ${problem}`;
  }
  return undefined;
}

function portCheck(name: string, v: number, zeroOk: boolean): string | undefined {
  if (Number.isInteger(v) && v <= 65535 && (v >= 1 || (zeroOk && v === 0))) return undefined;
  return `${name}: ${v} is not a valid port number (${zeroOk ? '0' : '1'}-65535${zeroOk ? ', 0 disables' : ''})`;
}

function positive(name: string, ms: number): string | undefined {
  return ms > 0 ? undefined : `${name}: must be greater than 0`;
}

function endpointCheck(ep: string | undefined): string | undefined {
  if (ep === undefined) return undefined;
  if (/^unix:\/\/\/.+/.test(ep)) return undefined;
  return `containerRuntimeEndpoint: "${ep}" must be a unix socket URL like unix:///run/containerd/containerd.sock`;
}

function urlCheck(u: string | undefined): string | undefined {
  if (u === undefined) return undefined;
  try {
    const p = new URL(u);
    if (p.protocol === 'http:' || p.protocol === 'https:') return undefined;
  } catch {
    // fallthrough
  }
  return `staticPodURL: "${u}" is not an http(s) URL`;
}

function sysctlCheck(allowed: string[] | undefined): string | undefined {
  const r = createSysctlAllowlist(allowed ?? []);
  return r.ok ? undefined : `allowedUnsafeSysctls: ${r.reason}`;
}
