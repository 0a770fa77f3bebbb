/**
 * A plugin's side of pluginregistration for tests: serves `pluginregistration.Registration` on a socket in the
 * plugin registry (GetInfo answers the given PluginInfo; NotifyRegistrationStatus is recorded), as a CSI
 * driver registrar or a device plugin that registers through the plugin watcher does.
 */
import { rm } from 'node:fs/promises';
import * as grpc from '@grpc/grpc-js';
import type { PluginInfoMessage } from '../types.ts';
import { addRegistrationService, type RegistrationStatusMessage } from '../registration-server.ts';

export interface RegistrationPluginOptions {
  /** The registration socket (a file in the plugin registry). */
  socket: string;
  info: Omit<PluginInfoMessage, 'endpoint'> & { endpoint?: string };
  /** GetInfo never answers (a hung plugin). */
  hangGetInfo?: boolean;
}

export type RecordedStatus = RegistrationStatusMessage;

export class RegistrationPlugin {
  readonly statuses: RecordedStatus[] = [];
  getInfoCalls = 0;
  private server: grpc.Server | undefined;
  private waiters: Array<() => void> = [];

  constructor(private readonly opts: RegistrationPluginOptions) {}

  get socket(): string {
    return this.opts.socket;
  }

  async serve(): Promise<void> {
    const server = new grpc.Server();
    addRegistrationService(server, {
      getInfo: () => {
        this.getInfoCalls++;
        return this.opts.hangGetInfo ? undefined : { endpoint: '', ...this.opts.info };
      },
      onStatus: (status) => {
        this.statuses.push(status);
        for (const w of this.waiters.splice(0)) w();
      },
    });
    await rm(this.socket, { force: true });
    await new Promise<void>((resolve, reject) => server.bindAsync(`unix://${this.socket}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
    this.server = server;
  }

  /** Resolves once `n` statuses have arrived (or rejects after `ms`). */
  async statusCount(n: number, ms = 10_000): Promise<RecordedStatus[]> {
    const deadline = Date.now() + ms;
    while (this.statuses.length < n) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${this.statuses.length} registration statuses after ${ms} ms, wanted ${n}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, left).unref();
      });
    }
    return this.statuses;
  }

  /** Stops serving and removes the socket (a plugin that exits). */
  async stop(): Promise<void> {
    this.server?.forceShutdown();
    this.server = undefined;
    await rm(this.socket, { force: true });
  }
}
