/**
 * Runtime readiness (the kubelet's runtimeState + updateRuntimeUp): polls CRI Version and Status every period
 * while ready. While the runtime is unreachable, a fail-fast Version names the problem, then a Version that
 * waits (wait-for-ready, `waitMs` deadline) for the channel to reconnect, so readiness comes back as soon as the
 * runtime serves again; retries start at retryInitialMs and double up to retryMaxMs. Publishes a `runtime` bus
 * event on every change of readiness or message.
 */
import type { VersionResponse__Output } from '../cri/proto-types.ts';
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
  /** While unreachable: how long one check waits for the connection to come back. */
  waitMs: number;
}

export const DEFAULT_RUNTIME_STATE_CONFIG: RuntimeStateConfig = { periodMs: 5_000, retryInitialMs: 100, retryMaxMs: 1_000, waitMs: 1_000 };

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
  private readonly config: RuntimeStateConfig;
  /** The last check waited waitMs for a connection that did not come. */
  private waited = false;

  constructor(
    private readonly deps: { cri: Pick<CriClient, 'version' | 'status' | 'endpoint'>; clock: Clock; logger: Logger; bus?: EventBus },
    config: Partial<RuntimeStateConfig> = {},
  ) {
    this.config = { ...DEFAULT_RUNTIME_STATE_CONFIG, ...config };
    this.retryMs = this.config.retryInitialMs;
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
        } else if (this.waited) {
          // The check itself waited for the connection: look again at once, so one is always waiting.
          this.schedule(0);
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
    this.waited = false;
    try {
      const v = await this.reach();
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
      // A wait that timed out says nothing new: keep the fail-fast call's diagnosis.
      if (err instanceof Waited) this.waited = true;
      else this.set(false, downMessage(endpoint, err));
    }
  }

  /** CRI Version; while not ready, after a fail-fast UNAVAILABLE, waits up to waitMs for the reconnection. */
  private async reach(): Promise<VersionResponse__Output> {
    const cri = this.deps.cri;
    try {
      return await cri.version({ version: '0.1.0' });
    } catch (err) {
      if (this.ready || !isCriError(err) || err.code !== 'UNAVAILABLE') throw err;
      this.set(false, downMessage(cri.endpoint, err));
    }
    try {
      return await cri.version({ version: '0.1.0' }, { waitForReady: true, timeoutMs: this.config.waitMs });
    } catch (err) {
      throw isCriError(err) && err.code === 'DEADLINE_EXCEEDED' ? new Waited() : err;
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

class Waited extends Error {}

function downMessage(endpoint: string, err: unknown): string {
  const text = isCriError(err) ? err.details || err.message : err instanceof Error ? err.message : String(err);
  if (/ENOENT|no such file/i.test(text)) {
    return `container runtime is down: no runtime socket at ${endpoint} (retrying)`;
  }
  if (isCriError(err) && err.code === 'UNAVAILABLE') return `container runtime is down: ${endpoint} is unavailable: ${text} (retrying)`;
  return `container runtime is down: ${text}`;
}
