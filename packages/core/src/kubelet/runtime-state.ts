/**
 * Runtime readiness (the kubelet's runtimeState + updateRuntimeUp): polls CRI Version and Status, retries with
 * back-off (1 s doubling to 30 s) while the runtime is unreachable, and publishes a `runtime` bus event on
 * every change of readiness or message.
 */
import type { CriClient } from '../cri/types.ts';
import { isCriError } from '../cri/types.ts';
import type { EventBus } from '../events/types.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';

export interface RuntimeInfo {
  name: string;
  version: string;
  apiVersion: string;
  endpoint: string;
}

export interface RuntimeStateConfig {
  /** Poll period while healthy (the kubelet: 5 s). */
  periodMs: number;
  retryInitialMs: number;
  retryMaxMs: number;
}

export const DEFAULT_RUNTIME_STATE_CONFIG: RuntimeStateConfig = { periodMs: 5_000, retryInitialMs: 1_000, retryMaxMs: 30_000 };

export class RuntimeState {
  ready = false;
  message = 'container runtime status check may not have completed yet';
  info: RuntimeInfo | undefined;
  /** Clock.now() of the last successful check. */
  lastSeen: number | undefined;
  private timer: TimerHandle | undefined;
  private running = false;
  private retryMs: number;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly deps: { cri: Pick<CriClient, 'version' | 'status' | 'endpoint'>; clock: Clock; logger: Logger; bus?: EventBus },
    private readonly config: RuntimeStateConfig = DEFAULT_RUNTIME_STATE_CONFIG,
  ) {
    this.retryMs = config.retryInitialMs;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** One check now (shared with one in flight). */
  check(): Promise<void> {
    this.checking ??= this.doCheck().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.timer = this.deps.clock.setTimeout(() => {
      void this.check().then(() => {
        if (this.ready) {
          this.retryMs = this.config.retryInitialMs;
          this.schedule(this.config.periodMs);
        } else {
          const wait = this.retryMs;
          this.retryMs = Math.min(this.retryMs * 2, this.config.retryMaxMs);
          this.schedule(wait);
        }
      });
    }, ms);
  }

  private async doCheck(): Promise<void> {
    const endpoint = this.deps.cri.endpoint;
    try {
      const v = await this.deps.cri.version({ version: '0.1.0' });
      this.info = { name: v.runtimeName, version: v.runtimeVersion, apiVersion: v.runtimeApiVersion, endpoint };
      const st = await this.deps.cri.status({});
      const conds = st.status?.conditions ?? [];
      const notReady = conds.filter((c) => (c.type === 'RuntimeReady' || c.type === 'NetworkReady') && !c.status);
      this.lastSeen = this.deps.clock.now();
      if (notReady.length === 0) return this.set(true, '');
      const rt = notReady.find((c) => c.type === 'RuntimeReady');
      const net = notReady.find((c) => c.type === 'NetworkReady');
      if (rt) return this.set(false, `container runtime not ready: RuntimeReady=false reason:${rt.reason} message:${rt.message}`);
      // A network that is not ready does not stop host-network pods; report it but stay ready.
      return this.set(true, `container runtime network not ready: NetworkReady=false reason:${net?.reason ?? ''} message:${net?.message ?? ''}`);
    } catch (err) {
      this.set(false, downMessage(endpoint, err));
    }
  }

  private set(ready: boolean, message: string): void {
    if (ready === this.ready && message === this.message) return;
    this.ready = ready;
    this.message = message;
    (ready ? this.deps.logger.info : this.deps.logger.warn)('container runtime state changed', { ready, message });
    this.deps.bus?.publish({ type: 'runtime', ready, message: message || 'container runtime is ready' });
  }
}

function downMessage(endpoint: string, err: unknown): string {
  const text = isCriError(err) ? err.details || err.message : err instanceof Error ? err.message : String(err);
  if (/ENOENT|no such file/i.test(text)) {
    return `container runtime is down: no runtime socket at ${endpoint} (retrying)`;
  }
  if (isCriError(err) && err.code === 'UNAVAILABLE') return `container runtime is down: ${endpoint} is unavailable: ${text} (retrying)`;
  return `container runtime is down: ${text}`;
}
