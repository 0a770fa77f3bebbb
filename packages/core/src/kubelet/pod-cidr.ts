/**
 * The kubelet's updatePodCIDR (kubelet_network.go): the node's pod range (podCIDR / --pod-cidr) goes to the
 * runtime as CRI UpdateRuntimeConfig(runtime_config.network_config.pod_cidr) when it differs from the one the
 * runtime last accepted ("" never is sent: the runtime keeps its own range). A failure is logged ("Pod CIDR
 * update failed") and the range is sent again the next time the runtime turns ready (a `runtime` bus event).
 * In API-server mode the Node's spec.podCIDRs come here too, on every node status update (NodeStatusManager).
 */
import type { CriClient } from '../cri/types.ts';
import type { EventBus } from '../events/types.ts';
import type { Logger } from '../util/logger.ts';

export class PodCidrUpdater {
  /** The range the runtime accepted (the kubelet's runtimeState.podCIDR). */
  private current = '';
  private desired = '';
  private off: (() => void) | undefined;

  constructor(private readonly deps: { cri: Pick<CriClient, 'updateRuntimeConfig'>; logger: Logger; bus?: EventBus }) {}

  get podCIDR(): string {
    return this.current;
  }

  /** Sends `cidr` at once, then again whenever the runtime turns ready while it is not accepted. */
  async start(cidr: string): Promise<void> {
    if (cidr !== '') this.desired = cidr;
    this.off ??= this.deps.bus?.subscribe((e) => {
      if (e.type === 'runtime' && e.ready && this.desired !== this.current) void this.update(this.desired);
    });
    await this.update(cidr);
  }

  stop(): void {
    this.off?.();
    this.off = undefined;
  }

  /** True when the runtime took a new range. */
  async update(cidr: string): Promise<boolean> {
    // "" is never sent: the runtime keeps its range (the flag's default must not undo the Node's spec.podCIDRs).
    if (cidr === '') return false;
    this.desired = cidr;
    if (cidr === this.current) return false;
    try {
      this.deps.logger.debug('Updating runtime config through cri with podcidr', { CIDR: cidr });
      await this.deps.cri.updateRuntimeConfig({ runtimeConfig: { networkConfig: { podCidr: cidr } } }, { timeoutMs: 5_000 });
    } catch (err) {
      this.deps.logger.error('Pod CIDR update failed', { err: `failed to update pod CIDR: ${(err as Error).message}` });
      return false;
    }
    this.deps.logger.info('Updating Pod CIDR', { originalPodCIDR: this.current, newPodCIDR: cidr });
    this.current = cidr;
    return true;
  }
}
