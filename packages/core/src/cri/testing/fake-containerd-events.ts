/**
 * An in-process containerd Events service on a unix socket, for tests: records each Subscribe (filters and
 * namespace header), lets the test push envelopes (payloads encoded as Any with protobufjs, as containerd
 * does: type URL = the bare message name), end or fail the streams.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import {
  CONTAINERD_NAMESPACE_HEADER,
  loadContainerdEventsPackageDefinition,
  loadContainerdEventsRoot,
} from '../../../../../proto/containerd/load.ts';
import type { Envelope } from '../../../../../proto/containerd/gen/containerd/services/events/v1/Envelope.ts';

export interface FakeSubscription {
  filters: string[];
  namespace: string | undefined;
  call: grpc.ServerWritableStream<unknown, Envelope>;
  /** Resolves when the client cancels or the stream is closed. */
  closed: Promise<void>;
}

/** Encodes `data` as the Any payload of type `containerd.events.<type>`. */
export function anyEvent(type: string, data: Record<string, unknown>): { type_url: string; value: Buffer } {
  const name = `containerd.events.${type}`;
  const t = loadContainerdEventsRoot().lookupType(name);
  const err = t.verify(data);
  if (err) throw new Error(`bad ${name}: ${err}`);
  return { type_url: name, value: Buffer.from(t.encode(t.fromObject(data)).finish()) };
}

/** An Envelope for `type` at `ms` in `namespace` (topic derived as containerd names them). */
export function envelope(type: string, data: Record<string, unknown>, ms: number, namespace = 'k8s.io'): Envelope {
  const topic = type.startsWith('Task')
    ? `/tasks/${type.slice(4).toLowerCase()}`
    : `/containers/${type.slice(9).toLowerCase()}`;
  return { timestamp: ts(ms), namespace, topic, event: anyEvent(type, data) };
}

export function ts(ms: number): { seconds: number; nanos: number } {
  return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 };
}

export class FakeContainerdEvents {
  readonly subscriptions: FakeSubscription[] = [];
  private server = new grpc.Server();
  private dir = mkdtempSync(path.join(tmpdir(), 'nodelet-ctrd-events-'));
  private waiters: (() => void)[] = [];
  /** When set, Subscribe fails at once with this status. */
  failWith: { code: grpc.status; details: string } | undefined;
  readonly socketPath = path.join(this.dir, 'containerd.sock');
  readonly endpoint = `unix://${this.socketPath}`;

  async start(): Promise<void> {
    const def = loadContainerdEventsPackageDefinition();
    const svc = (def['containerd.services.events.v1.Events'] as unknown) as grpc.ServiceDefinition;
    const unimplemented = (_c: unknown, cb: grpc.sendUnaryData<unknown>) =>
      cb({ code: grpc.status.UNIMPLEMENTED, details: 'not in the fake' });
    this.server.addService(svc, {
      Publish: unimplemented,
      Forward: unimplemented,
      Subscribe: (call: grpc.ServerWritableStream<{ filters: string[] }, Envelope>) => this.onSubscribe(call),
    });
    await new Promise<void>((resolve, reject) =>
      this.server.bindAsync(this.endpoint, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())),
    );
  }

  private onSubscribe(call: grpc.ServerWritableStream<{ filters: string[] }, Envelope>): void {
    if (this.failWith) {
      call.emit('error', { code: this.failWith.code, details: this.failWith.details });
      return;
    }
    const ns = call.metadata.get(CONTAINERD_NAMESPACE_HEADER)[0];
    const closed = new Promise<void>((resolve) => {
      call.on('cancelled', () => resolve());
      call.on('finish', () => resolve());
    });
    this.subscriptions.push({ filters: call.request.filters, namespace: ns === undefined ? undefined : String(ns), call, closed });
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves once `n` Subscribe calls have arrived. */
  async waitForSubscriptions(n: number): Promise<FakeSubscription> {
    while (this.subscriptions.length < n) await new Promise<void>((r) => this.waiters.push(r));
    const s = this.subscriptions[n - 1];
    if (!s) throw new Error('unreachable');
    return s;
  }

  /** Writes envelopes to every open subscription. */
  publish(...envs: Envelope[]): void {
    for (const s of this.subscriptions) if (!s.call.cancelled && s.call.writable) for (const e of envs) s.call.write(e);
  }

  /** Ends every stream normally (as containerd shutting down cleanly). */
  endStreams(): void {
    for (const s of this.subscriptions) if (s.call.writable) s.call.end();
  }

  async stop(): Promise<void> {
    this.server.forceShutdown();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
