/**
 * The kubelet's plugin manager (pkg/kubelet/pluginmanager, v1.28): the watcher fills the desired state of
 * the world from `<root-dir>/plugins_registry`; every second the reconciler deregisters plugins whose socket
 * is gone or was re-created (a plugin restart), then registers the sockets not yet registered, each through
 * the handler of the plugin's type (DevicePlugin: the device manager). Plugins of a type without a handler
 * (Nodelet has no CSI or DRA component) are told so in NotifyRegistrationStatus and retried with backoff.
 */
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { ActualStateOfWorld, DesiredStateOfWorld } from './state.ts';
import { OperationExecutor } from './operations.ts';
import { PluginWatcher } from './watcher.ts';
import { grpcDialPlugin } from './registration-client.ts';
import { RECONCILE_PERIOD_MS, REGISTRATION_TIMEOUTS, type DialPlugin, type PluginHandler, type PluginRefusal, type RegisteredPlugin, type RegistrationTimeouts } from './types.ts';

export interface PluginManagerDeps {
  clock: Clock;
  logger: Logger;
  /** `<root-dir>/plugins_registry`. */
  dir: string;
  /** The plugin client (default: gRPC over the socket). */
  dial?: DialPlugin;
  timeouts?: Partial<RegistrationTimeouts>;
  /** loopSleepDuration (1 s). */
  periodMs?: number;
  metrics?: PluginManagerMetrics;
  /** Registrations refused before a handler took the plugin (the lifecycle tail gets them as device events). */
  onRefused?: (r: PluginRefusal) => void;
}

/** plugin_manager_total_plugins{socket_path, state}: the desired and actual states, refreshed each reconciler pass. */
export interface PluginManagerMetrics {
  pluginManagerTotalPlugins: { reset(): void; inc(labels: { socket_path: string; state: string }): void };
}

export class PluginManager {
  readonly dsw: DesiredStateOfWorld;
  readonly asw = new ActualStateOfWorld();
  readonly watcher: PluginWatcher;
  private readonly executor: OperationExecutor;
  private readonly handlers = new Map<string, PluginHandler>();
  private timer: { cancel(): void } | undefined;

  constructor(private readonly deps: PluginManagerDeps) {
    this.dsw = new DesiredStateOfWorld(deps.clock);
    this.watcher = new PluginWatcher({ dir: deps.dir, dsw: this.dsw, logger: deps.logger });
    this.executor = new OperationExecutor({
      clock: deps.clock,
      logger: deps.logger,
      dial: deps.dial ?? grpcDialPlugin,
      timeouts: { ...REGISTRATION_TIMEOUTS, ...deps.timeouts },
      ...(deps.onRefused ? { onRefused: deps.onRefused } : {}),
    });
  }

  /** AddHandler: the component that takes plugins of this type. */
  addHandler(type: string, handler: PluginHandler): void {
    this.handlers.set(type, handler);
  }

  /** Run: the watcher first (sockets already there are found), then the reconciler now and every period. */
  async start(): Promise<void> {
    await this.watcher.start();
    this.deps.logger.info('Starting Kubelet Plugin Manager', { path: this.deps.dir });
    this.reconcile();
    this.timer = this.deps.clock.setInterval(() => this.reconcile(), this.deps.periodMs ?? RECONCILE_PERIOD_MS);
  }

  async stop(): Promise<void> {
    this.timer?.cancel();
    this.watcher.stop();
    await this.executor.idle();
    this.deps.logger.info('Shutting down Kubelet Plugin Manager');
  }

  /** One reconciler pass: unregistrations before registrations. */
  reconcile(): void {
    for (const r of this.asw.registeredPlugins()) {
      const d = this.dsw.get(r.socketPath);
      if (!d || d.generation !== r.generation) this.executor.unregisterPlugin(r, this.asw);
    }
    for (const d of this.dsw.pluginsToRegister()) {
      if (!this.asw.pluginExistsWithCorrectTimestamp(d)) this.executor.registerPlugin(d, this.handlers, this.asw);
    }
    this.collect();
  }

  private collect(): void {
    const g = this.deps.metrics?.pluginManagerTotalPlugins;
    if (!g) return;
    g.reset();
    for (const p of this.asw.registeredPlugins()) g.inc({ socket_path: p.socketPath, state: 'actual_state_of_world' });
    for (const p of this.dsw.pluginsToRegister()) g.inc({ socket_path: p.socketPath, state: 'desired_state_of_world' });
  }

  /** Resolves when the watcher's events and the operations started so far are done (tests). */
  async settled(): Promise<void> {
    await this.watcher.settled();
    await this.executor.idle();
  }

  registeredPlugins(): RegisteredPlugin[] {
    return this.asw.registeredPlugins();
  }
}
