/** One unary call and one server stream over grpc-js, with deadline, AbortSignal and CriError mapping. */
import * as grpc from '@grpc/grpc-js';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { errorFromGrpc } from './errors.ts';
import { MEMO_LIST_FIELD, type ListMemo } from './list-memo.ts';
import { CriError } from './types.ts';

type StreamFn = (req: unknown, md: grpc.Metadata, opts: grpc.CallOptions) => grpc.ClientReadableStream<unknown>;

export interface CallContext {
  endpoint: string;
  clock: Clock;
  log?: Logger;
  isClosed(): boolean;
  /** Decodes repeated list answers once (list-memo.ts). */
  memo: ListMemo;
}

function method<F>(client: grpc.Client, rpc: string): F {
  const f = (client as unknown as Record<string, unknown>)[rpc];
  if (typeof f !== 'function') throw new Error(`CRI client has no method ${rpc}`);
  return f.bind(client) as F;
}

/**
 * Starts a unary call with the service's own (de)serializers; a memoized list RPC serializes its request first, as
 * the key of its last answer, and decodes through the memo.
 */
function startUnary(
  ctx: CallContext,
  client: grpc.Client,
  rpc: string,
  req: unknown,
  md: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: (err: grpc.ServiceError | null, res?: unknown) => void,
): grpc.ClientUnaryCall {
  const def = (client.constructor as grpc.ServiceClientConstructor).service?.[rpc];
  if (!def) throw new Error(`CRI client has no method ${rpc}`);
  let bytes: Buffer | undefined;
  try {
    if (MEMO_LIST_FIELD[rpc]) bytes = def.requestSerialize(req);
  } catch {
    // a request that does not serialize fails in the call as any other does (INTERNAL)
  }
  if (!bytes) return client.makeUnaryRequest(def.path, def.requestSerialize, def.responseDeserialize, req, md, opts, cb);
  const request = bytes;
  return client.makeUnaryRequest(def.path, () => request, ctx.memo.deserializer(rpc, request, def.responseDeserialize), req, md, opts, cb);
}

const cancelled = (rpc: string, endpoint: string, why: string) =>
  new CriError('CANCELLED', `CRI ${rpc} to ${endpoint} ${why}`, { op: rpc, endpoint });

/**
 * A unary call; `timeoutMs` null means no deadline. Fails fast when the runtime is absent, unless
 * `waitForReady`: then it waits for the channel to (re)connect until the deadline.
 */
export function unaryCall<Res>(
  ctx: CallContext,
  client: grpc.Client,
  rpc: string,
  req: unknown,
  timeoutMs: number | null,
  signal?: AbortSignal,
  waitForReady = false,
): Promise<Res> {
  return new Promise<Res>((resolve, reject) => {
    if (ctx.isClosed()) return reject(cancelled(rpc, ctx.endpoint, 'failed: the client is closed'));
    if (signal?.aborted) return reject(cancelled(rpc, ctx.endpoint, 'was cancelled by the caller'));
    const callOpts: grpc.CallOptions = timeoutMs == null ? {} : { deadline: ctx.clock.now() + timeoutMs };
    const md = new grpc.Metadata({ waitForReady });
    const onAbort = () => call.cancel();
    const call = startUnary(ctx, client, rpc, req ?? {}, md, callOpts, (err, res) => {
      signal?.removeEventListener('abort', onAbort);
      if (!err) return resolve(res as Res);
      if (signal?.aborted) return reject(cancelled(rpc, ctx.endpoint, 'was cancelled by the caller'));
      const e = errorFromGrpc(err, rpc, ctx.endpoint, timeoutMs);
      ctx.log?.debug('CRI call failed', { op: rpc, code: e.code, details: e.details });
      reject(e);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A server stream as an async iterator: returns on abort/close or server end, throws CriError on break. */
export async function* serverStream<T>(
  ctx: CallContext,
  client: grpc.Client,
  rpc: string,
  req: unknown,
  signal?: AbortSignal,
): AsyncGenerator<T> {
  if (signal?.aborted) return;
  if (ctx.isClosed()) throw cancelled(rpc, ctx.endpoint, 'failed: the client is closed');
  const call = method<StreamFn>(client, rpc)(req, new grpc.Metadata({ waitForReady: false }), {});
  const onAbort = () => call.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const item of call) yield item as T;
  } catch (err) {
    if (signal?.aborted || ctx.isClosed()) return;
    throw errorFromGrpc(err as grpc.ServiceError, rpc, ctx.endpoint, null);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    call.cancel();
  }
}
