/**
 * The plugin manager's operations (operationexecutor, v1.28): RegisterPlugin — dial the socket, GetInfo, pick
 * the handler for the plugin's type, ValidatePlugin, RegisterPlugin, NotifyRegistrationStatus — and
 * UnregisterPlugin, with the kubelet's error texts (the plugin reads the failure in NotifyRegistrationStatus).
 * At most one operation runs per socket (goroutinemap), and a socket whose operation failed waits out an
 * exponential backoff before the next try.
 */
import { Backoff } from '../util/backoff.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { goRpcErrorText } from '../util/grpc-status.ts';
import type { ActualStateOfWorld } from './state.ts';
import { OPERATION_BACKOFF, type DesiredPlugin, type DialPlugin, type PluginHandler, type PluginRefusal, type RegisteredPlugin, type RegistrationTimeouts } from './types.ts';

export interface OperationDeps {
  clock: Clock;
  logger: Logger;
  dial: DialPlugin;
  timeouts: RegistrationTimeouts;
  /** Each refusal before a handler took the plugin (for the event bus). */
  onRefused?: (r: PluginRefusal) => void;
}

const text = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** GenerateRegisterPluginFunc: resolves when registered; rejects with the kubelet's error otherwise. */
export async function registerPlugin(deps: OperationDeps, p: DesiredPlugin, handlers: ReadonlyMap<string, PluginHandler>, asw: ActualStateOfWorld): Promise<void> {
  const { socketPath } = p;
  /** Reports a refusal (onRefused) and gives its message back. */
  const refused = (message: string, info?: { type: string; name: string }): string => {
    deps.onRefused?.({ socketPath, ...(info ? { type: info.type, name: info.name } : {}), message });
    return message;
  };
  let client;
  try {
    client = await deps.dial(socketPath, deps.timeouts.dialMs);
  } catch (err) {
    throw new Error(refused(`RegisterPlugin error -- dial failed at socket ${socketPath}, err: ${text(err)}`));
  }
  // notifyPlugin: an error whenever the status carries one (so the caller's wrapping applies), or the call failed.
  const notify = async (registered: boolean, errStr: string): Promise<Error | undefined> => {
    try {
      await client.notifyRegistrationStatus(registered, errStr, deps.timeouts.notifyMs);
    } catch (err) {
      return new Error(`${errStr}: ${goRpcErrorText(err)}`);
    }
    return errStr ? new Error(errStr) : undefined;
  };
  const failedToSend = (e: Error) => new Error(`RegisterPlugin error -- failed to send error at socket ${socketPath}, err: ${e.message}`);
  try {
    let info;
    try {
      info = await client.getInfo(deps.timeouts.getInfoMs);
    } catch (err) {
      throw new Error(refused(`RegisterPlugin error -- failed to get plugin info using RPC GetInfo at socket ${socketPath}, err: ${goRpcErrorText(err)}`));
    }
    const handler = handlers.get(info.type);
    if (!handler) {
      const msg = refused(`RegisterPlugin error -- no handler registered for plugin type: ${info.type} at socket ${socketPath}`, info);
      const e = await notify(false, msg);
      throw e ? failedToSend(e) : new Error(msg);
    }
    const endpoint = info.endpoint || socketPath;
    try {
      await handler.validatePlugin(info.name, endpoint, info.supportedVersions);
    } catch (err) {
      const msg = refused(`RegisterPlugin error -- plugin validation failed with err: ${text(err)}`, info);
      const e = await notify(false, msg);
      throw e ? failedToSend(e) : new Error('RegisterPlugin error -- pluginHandler.ValidatePluginFunc failed');
    }
    // In the actual state before the handler runs, so a socket removed meanwhile is deregistered.
    asw.addPlugin({ ...p, handler, type: info.type, name: info.name, endpoint });
    try {
      await handler.registerPlugin(info.name, endpoint, info.supportedVersions);
    } catch (err) {
      const e = await notify(false, `RegisterPlugin error -- plugin registration failed with err: ${text(err)}`);
      if (e) throw e;
      return;
    }
    const e = await notify(true, '');
    if (e) throw new Error(`RegisterPlugin error -- failed to send registration status at socket ${socketPath}, err: ${e.message}`);
    deps.logger.info('Plugin registered', { type: info.type, name: info.name, endpoint, path: socketPath });
  } finally {
    client.close();
  }
}

export class OperationExecutor {
  private readonly running = new Map<string, Promise<void>>();
  private readonly backoff: Backoff;

  constructor(private readonly deps: OperationDeps) {
    this.backoff = new Backoff(deps.clock, OPERATION_BACKOFF);
  }

  /** Starts RegisterPlugin unless an operation on the socket is running or backing off; true when started. */
  registerPlugin(p: DesiredPlugin, handlers: ReadonlyMap<string, PluginHandler>, asw: ActualStateOfWorld): boolean {
    return this.run(p.socketPath, 'RegisterPlugin', () => registerPlugin(this.deps, p, handlers, asw));
  }

  /** UnregisterPlugin: out of the actual state first, then the handler's DeRegisterPlugin. */
  unregisterPlugin(p: RegisteredPlugin, asw: ActualStateOfWorld): boolean {
    return this.run(p.socketPath, 'UnregisterPlugin', async () => {
      asw.removePlugin(p.socketPath);
      p.handler.deRegisterPlugin(p.name, p.endpoint);
      this.deps.logger.info('DeRegisterPlugin called', { pluginName: p.name, type: p.type, path: p.socketPath });
    });
  }

  /** Resolves once the operations running now have finished (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all(this.running.values());
  }

  private run(key: string, what: string, op: () => Promise<void>): boolean {
    if (this.running.has(key) || this.backoff.isInBackOffSinceUpdate(key, this.deps.clock.now())) return false;
    const done = op()
      .then(
        () => this.backoff.reset(key),
        (err: unknown) => {
          const delayMs = this.backoff.next(key);
          this.deps.logger.error(`operationExecutor.${what} failed`, { path: key, err: text(err), retryInMs: delayMs });
        },
      )
      .finally(() => this.running.delete(key));
    this.running.set(key, done);
    return true;
  }
}
