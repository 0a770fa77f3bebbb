/**
 * Graceful node shutdown settings. The kubelet's shutdownGracePeriod and shutdownGracePeriodCriticalPods are
 * KubeletConfiguration fields only (no flags; default 0 = off), validated with the kubelet's message
 * (pkg/kubelet/apis/config/validation); shutdownGracePeriodByPodPriority replaces both. --shutdown-on-sigterm is
 * nodelet's own opt-in for machines without systemd-logind (containers, CI): SIGTERM to the agent runs the same
 * shutdown before it exits.
 */
import { migrateConfig, type ShutdownGracePeriodByPodPriority } from '@nodelet/core/kubelet';
import { formatDuration } from './duration.ts';
import type { FlagSpec } from './flag-spec.ts';

export interface ShutdownAgentConfig {
  shutdownGracePeriodMs: number;
  shutdownGracePeriodCriticalPodsMs: number;
  shutdownOnSigterm: boolean;
  /** shutdownGracePeriodByPodPriority: [{ priority, shutdownGracePeriodSeconds }] as read (checked by validateShutdown). */
  shutdownGracePeriodByPodPriority?: Array<Record<string, unknown>>;
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
  { path: 'shutdownGracePeriodByPodPriority', key: 'shutdownGracePeriodByPodPriority', kind: 'objects' },
] as const;

const INT32 = 2 ** 31;

export function validateShutdown(c: ShutdownAgentConfig): string | undefined {
  const period = c.shutdownGracePeriodMs;
  const critical = c.shutdownGracePeriodCriticalPodsMs;
  if (period < 0 || critical < 0 || critical > period) {
    return `shutdownGracePeriod (${formatDuration(period)}) must be >= 0, shutdownGracePeriodCriticalPods (${formatDuration(critical)}) must be >= 0 and <= shutdownGracePeriod`;
  }
  const byPriority = c.shutdownGracePeriodByPodPriority ?? [];
  if (byPriority.length > 0 && (period !== 0 || critical !== 0)) return 'Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time';
  for (const [i, item] of byPriority.entries()) {
    for (const [field, min, max] of [['priority', -INT32, INT32 - 1], ['shutdownGracePeriodSeconds', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]] as const) {
      const v = item[field];
      if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)) {
        return `shutdownGracePeriodByPodPriority[${i}].${field}: expected an integer${field === 'priority' ? ' (int32)' : ''}, got ${JSON.stringify(v)}`;
      }
    }
    const unknown = Object.keys(item).find((k) => k !== 'priority' && k !== 'shutdownGracePeriodSeconds');
    if (unknown) return `shutdownGracePeriodByPodPriority[${i}]: unknown field "${unknown}"`;
  }
  return undefined;
}

/** The core's priority groups: shutdownGracePeriodByPodPriority, else migrateConfig (whole seconds); empty: off. */
export function shutdownGroups(c: ShutdownAgentConfig): ShutdownGracePeriodByPodPriority[] {
  const byPriority = c.shutdownGracePeriodByPodPriority ?? [];
  if (byPriority.length > 0) return byPriority.map((g) => ({ priority: Number(g.priority ?? 0), shutdownGracePeriodSeconds: Number(g.shutdownGracePeriodSeconds ?? 0) }));
  return migrateConfig(Math.floor(c.shutdownGracePeriodMs / 1000), Math.floor(c.shutdownGracePeriodCriticalPodsMs / 1000));
}
