/**
 * The plugin manager's two caches (pluginmanager/cache): the desired state of the world, the sockets the
 * watcher sees (re-created sockets get a new generation), and the actual state of the world, the plugins
 * registered with a handler. The reconciler moves the second towards the first.
 */
import type { DesiredPlugin, RegisteredPlugin } from './types.ts';

export class DesiredStateOfWorld {
  private readonly plugins = new Map<string, DesiredPlugin>();
  private generation = 0;

  constructor(private readonly clock: { now(): number }) {}

  /** AddOrUpdatePlugin: a new socket, or the same path seen again (a restarted plugin) with a new generation. */
  addOrUpdatePlugin(socketPath: string): void {
    if (!socketPath) throw new Error('socket path is empty');
    this.plugins.set(socketPath, { socketPath, timestamp: this.clock.now(), generation: ++this.generation });
  }

  removePlugin(socketPath: string): void {
    this.plugins.delete(socketPath);
  }

  pluginsToRegister(): DesiredPlugin[] {
    return [...this.plugins.values()];
  }

  pluginExists(socketPath: string): boolean {
    return this.plugins.has(socketPath);
  }

  get(socketPath: string): DesiredPlugin | undefined {
    return this.plugins.get(socketPath);
  }
}

export class ActualStateOfWorld {
  private readonly plugins = new Map<string, RegisteredPlugin>();

  addPlugin(p: RegisteredPlugin): void {
    if (!p.socketPath) throw new Error('socket path is empty');
    this.plugins.set(p.socketPath, p);
  }

  removePlugin(socketPath: string): void {
    this.plugins.delete(socketPath);
  }

  registeredPlugins(): RegisteredPlugin[] {
    return [...this.plugins.values()];
  }

  /** PluginExistsWithCorrectTimestamp: registered from this very socket instance. */
  pluginExistsWithCorrectTimestamp(p: DesiredPlugin): boolean {
    return this.plugins.get(p.socketPath)?.generation === p.generation;
  }
}
