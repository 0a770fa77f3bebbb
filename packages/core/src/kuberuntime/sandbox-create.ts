/**
 * SyncPod's sandbox step (the kubelet's createPodSandbox): the sandbox config (DNS included), the pod's log
 * directory, the runtime handler of its RuntimeClass, RunPodSandbox; then PodSandboxStatus for the pod's IPs (unless
 * the runtime's event about the sandbox already showed that status), asked at once and awaited where a container's
 * config needs them. A failure is a CreatePodSandboxError step and a
 * FailedCreatePodSandBox event; it is logged once per distinct message per pod.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from '../util/logger.ts';
import type { SyncStepResult } from '../container/types.ts';
import { formatPod } from './crash-loop-backoff.ts';
import type { CriClient } from '../cri/types.ts';
import type { RuntimeHandlerResolver } from '../runtimeclass/runtime-class-manager.ts';
import type { ResolverConfig } from './pod-dns.ts';
import { generatePodSandboxConfig, safePodLogsDirectory } from './sandbox-config.ts';
import { errText } from './start-container.ts';
import type { EventSink, KubeRuntimeConfig, RuntimeFs } from './types.ts';

/** What the sandbox step uses of the kuberuntime manager's dependencies (KubeRuntimeDeps). */
export interface SandboxDeps {
  cri: CriClient;
  events: EventSink;
  fs?: RuntimeFs;
  podDns?: (pod: V1Pod) => Promise<ResolverConfig>;
  runtimeClasses?: RuntimeHandlerResolver;
  shownSandboxIps?: (podUid: string, podSandboxId: string) => string[] | undefined;
}

export class SandboxCreator {
  /** The last sandbox error logged per pod UID: a retry failing the same way is not logged again (the event counts it). */
  private readonly errors = new Map<string, string>();

  constructor(
    private readonly deps: SandboxDeps,
    private readonly config: KubeRuntimeConfig,
    private readonly log: Logger,
  ) {}

  /**
   * The sandbox's IPs: as the runtime's event about the started sandbox showed them when it came before
   * RunPodSandbox's reply (the embedded runtime's CRI events carry its PodSandboxStatus: one round trip less on every
   * start), else PodSandboxStatus; none when it fails (logged). Never rejects.
   */
  private async ips(podUid: string, podSandboxId: string): Promise<string[]> {
    const shown = this.deps.shownSandboxIps?.(podUid, podSandboxId);
    if (shown) return shown;
    try {
      const st = await this.deps.cri.podSandboxStatus({ podSandboxId });
      return [st.status?.network?.ip ?? '', ...(st.status?.network?.additionalIps ?? []).map((x) => x.ip)].filter((x) => x);
    } catch (err) {
      this.log.warn('PodSandboxStatus failed after RunPodSandbox', { err: errText(err) });
      return [];
    }
  }

  /** `whileRunning`: called once RunPodSandbox is asked (not when a step before it fails), for work to overlap with it. */
  async create(pod: V1Pod, attempt: number, whileRunning?: () => void): Promise<{ step: SyncStepResult; id: string; ips: Promise<string[]> }> {
    const step: SyncStepResult = { action: 'CreatePodSandbox', target: pod.metadata?.uid ?? '' };
    let stage = 'Failed to generate sandbox config for pod';
    try {
      const dns = await this.deps.podDns?.(pod);
      const config = generatePodSandboxConfig(pod, attempt, this.config, dns);
      stage = 'Failed to create log directory for pod';
      const logDir = safePodLogsDirectory(this.config.podLogsDir, pod); // throws (before RunPodSandbox) when unsafe
      await this.deps.fs?.mkdirp(logDir);
      stage = 'Failed to create sandbox for pod';
      const runtimeHandler = (await this.deps.runtimeClasses?.lookupRuntimeHandler(pod.spec?.runtimeClassName)) ?? '';
      if (runtimeHandler) this.log.info('Running pod with runtime handler', { pod: formatPod(pod), runtimeHandler });
      const running = this.deps.cri.runPodSandbox({ config, runtimeHandler });
      whileRunning?.();
      const r = await running;
      this.errors.delete(pod.metadata?.uid ?? '');
      // SyncPod's PodSandboxStatus for the pod's IPs: asked now, awaited where a container's config needs them (the
      // first start's image check, termination-log file and log dir go on meanwhile).
      return { step, id: r.podSandboxId, ips: this.ips(pod.metadata?.uid ?? '', r.podSandboxId) };
    } catch (err) {
      // As createPodSandbox + SyncPod: the step's message names the pod, the event carries the error.
      this.deps.events(pod, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${errText(err)}`);
      const message = `${stage} ${JSON.stringify(formatPod(pod))}: ${errText(err)}`;
      if (this.errors.get(pod.metadata?.uid ?? '') !== message) {
        this.errors.set(pod.metadata?.uid ?? '', message);
        if (this.errors.size > 1024) this.errors.delete(this.errors.keys().next().value!); // pods gone unsynced
        this.log.error('CreatePodSandbox for pod failed', { pod: `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`, reason: 'CreatePodSandboxError', err: message });
      }
      return { step: { ...step, error: 'CreatePodSandboxError', message }, id: '', ips: Promise.resolve([]) };
    }
  }
}
