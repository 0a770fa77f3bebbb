/**
 * The evented PLEG's connection to the runtime's event stream (evented-pleg.ts): finds the event source (retried
 * with back-off while the runtime is unreachable; none: relisting only), reads the stream until it breaks and
 * reconnects with exponential back-off. An open stream counts as connected once it brought an event, or stayed up
 * `establishMs` and a relist since it opened reached the runtime. The events heard in a turn are handled after it
 * (HeardEvents); what an event does, and what connecting changes, is the evented PLEG's (`onEvent`, `setConnected`).
 */
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { EventSourceDetection, RuntimeContainerEvent, RuntimeEventSource } from '../cri/runtime-events.ts';
import type { GenericPleg } from './generic-pleg.ts';
import { HeardEvents } from './start-path-events.ts';
import type { EventedPlegConfig, EventedPlegMode, PlegMetrics } from './types.ts';

/** What the stream needs of the evented PLEG's deps (EventedPlegDeps). */
export interface EventStreamDeps {
  generic: Pick<GenericPleg, 'relistSoon' | 'lastRelist'>;
  clock: Clock;
  detect: (signal: AbortSignal) => Promise<EventSourceDetection>;
  metrics?: PlegMetrics;
}

export abstract class EventStream<D extends EventStreamDeps> {
  protected connected = false;
  protected sourceName: string | undefined;
  protected modeValue: EventedPlegMode = 'connecting';
  protected readonly heard = new HeardEvents();

  constructor(
    protected readonly deps: D,
    protected readonly config: EventedPlegConfig,
    protected readonly log: Logger,
  ) {}

  get mode(): EventedPlegMode {
    return this.modeValue;
  }

  /** The event source in use ('cri', 'containerd') once detected. */
  get source(): string | undefined {
    return this.sourceName;
  }

  protected async run(signal: AbortSignal): Promise<void> {
    let delay = this.config.reconnectInitialMs;
    const backOff = async (): Promise<boolean> => {
      try {
        await this.deps.clock.sleep(delay, signal);
      } catch {
        return false;
      }
      delay = Math.min(delay * 2, this.config.reconnectMaxMs);
      return true;
    };
    let source: RuntimeEventSource | undefined;
    while (!signal.aborted && !source) {
      const d = await this.deps.detect(signal);
      if (signal.aborted) return;
      if (d.ok) {
        source = d.source;
        this.sourceName = source.name;
        break;
      }
      if (d.reason === 'EventsUnsupported') {
        this.log.info('no runtime event source: relisting only', { message: d.message });
        this.modeValue = 'relist-only';
        return;
      }
      this.deps.metrics?.eventedPlegConnectionErrors.inc();
      this.log.warn('runtime event source not reachable; retrying', { message: d.message, retryMs: delay });
      if (!(await backOff())) return;
    }
    while (source && !signal.aborted) {
      const established = await this.consume(source, signal);
      if (signal.aborted) return;
      if (established) delay = this.config.reconnectInitialMs;
      if (!(await backOff())) return;
    }
  }

  /** Reads one stream until it breaks; true when it had been established. */
  private async consume(source: RuntimeEventSource, signal: AbortSignal): Promise<boolean> {
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const openedAt = this.deps.clock.now();
    let establish: TimerHandle | undefined;
    // An open stream proves nothing by itself (a call may hang while the runtime restarts): count it as
    // connected once it stayed up establishMs AND a relist since it opened reached the runtime.
    const confirm = (): void => {
      establish = undefined;
      void this.deps.generic.relistSoon().then(() => {
        if (ac.signal.aborted || this.connected) return;
        if ((this.deps.generic.lastRelist() ?? -Infinity) >= openedAt) this.setConnected(true);
        else establish = this.deps.clock.setTimeout(confirm, this.config.establishMs);
      });
    };
    establish = this.deps.clock.setTimeout(confirm, this.config.establishMs);
    try {
      for await (const ev of source.subscribe(ac.signal)) {
        this.setConnected(true);
        this.heard.push(ev, (evs) => {
          if (!ac.signal.aborted) for (const e of evs) this.onEvent(e, source, ac.signal);
        });
      }
    } catch (err) {
      if (!signal.aborted) {
        this.deps.metrics?.eventedPlegConnectionErrors.inc();
        this.log.warn('runtime event stream broke; relisting every second until it is back', { source: source.name, err: String(err) });
      }
    } finally {
      establish?.cancel();
      signal.removeEventListener('abort', onAbort);
      ac.abort();
    }
    const was = this.connected;
    this.setConnected(false);
    return was;
  }

  /** Handles one runtime event (after the turn that brought it). */
  protected abstract onEvent(ev: RuntimeContainerEvent, source: RuntimeEventSource, signal: AbortSignal): void;

  /** The stream is up (an event came, or it was confirmed) or down (it broke, or the PLEG stopped). */
  protected abstract setConnected(up: boolean): void;
}
