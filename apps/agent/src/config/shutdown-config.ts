/**
 * Graceful node shutdown settings. The kubelet's shutdownGracePeriod and shutdownGracePeriodCriticalPods are
 * KubeletConfiguration fields only (no flags; default 0 = off), validated with the kubelet's message
 * (pkg/kubelet/apis/config/validation). --shutdown-on-sigterm is nodelet's own opt-in for machines without
 * systemd-logind (containers, CI): SIGTERM to the agent runs the same shutdown before it exits.
 */
import { migrateConfig, type ShutdownGracePeriodByPodPriority } from '@nodelet/core/kubelet';
import { formatDuration } from './duration.ts';
import type { FlagSpec } from './flag-spec.ts';

export interface ShutdownAgentConfig {
  shutdownGracePeriodMs: number;
  shutdownGracePeriodCriticalPodsMs: number;
  shutdownOnSigterm: boolean;
}

export const SHUTDOWN_DEFAULTS: ShutdownAgentConfig = {
  shutdownGracePeriodMs: 0,
  shutdownGracePeriodCriticalPodsMs: 0,
  shutdownOnSigterm: false,
};

export const SHUTDOWN_FLAG_SPECS: FlagSpec<keyof ShutdownAgentConfig>[] = [
  {
    name: 'shutdown-on-sigterm',
    kind: 'bool',
    key: 'shutdownOnSigterm',
    help: '(nodelet) Treat SIGTERM to the agent as an imminent node shutdown (machines without systemd-logind): pods are terminated as shutdownGracePeriod / shutdownGracePeriodCriticalPods say, then the agent exits.',
    defaultText: 'false',
  },
];

export const SHUTDOWN_FILE_FIELDS = [
  { path: 'shutdownGracePeriod', key: 'shutdownGracePeriodMs', kind: 'duration' },
  { path: 'shutdownGracePeriodCriticalPods', key: 'shutdownGracePeriodCriticalPodsMs', kind: 'duration' },
] as const;

export function validateShutdown(c: ShutdownAgentConfig): string | undefined {
  const period = c.shutdownGracePeriodMs;
  const critical = c.shutdownGracePeriodCriticalPodsMs;
  if (period < 0 || critical < 0 || critical > period) {
    return `shutdownGracePeriod (${formatDuration(period)}) must be >= 0, shutdownGracePeriodCriticalPods (${formatDuration(critical)}) must be >= 0 and <= shutdownGracePeriod`;
  }
  return undefined;
}

/** The core's priority groups (the kubelet's migrateConfig, whole seconds); empty when off. */
export function shutdownGroups(c: ShutdownAgentConfig): ShutdownGracePeriodByPodPriority[] {
  return migrateConfig(Math.floor(c.shutdownGracePeriodMs / 1000), Math.floor(c.shutdownGracePeriodCriticalPodsMs / 1000));
}
