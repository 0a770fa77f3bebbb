import * as grpc from '@grpc/grpc-js';
import type { Logger } from '../util/logger.ts';
import type { CriCode, OpResult } from '../runtime/result.ts';

const CODES: Record<CriCode, grpc.status> = {
  NOT_FOUND: grpc.status.NOT_FOUND,
  UNKNOWN: grpc.status.UNKNOWN,
  INVALID_ARGUMENT: grpc.status.INVALID_ARGUMENT,
  DEADLINE_EXCEEDED: grpc.status.DEADLINE_EXCEEDED,
  FAILED_PRECONDITION: grpc.status.FAILED_PRECONDITION,
  UNIMPLEMENTED: grpc.status.UNIMPLEMENTED,
  ALREADY_EXISTS: grpc.status.ALREADY_EXISTS,
};

/** Adapt `(request) => OpResult<response>` to a grpc-js unary handler; thrown errors become INTERNAL. */
export function unary<Req, Res>(
  logger: Logger,
  method: string,
  fn: (req: Req) => OpResult<Res> | Promise<OpResult<Res>>,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => fn(call.request))
      .then((r) => {
        if (r.ok) callback(null, r.value);
        else {
          logger.debug('rpc failed', { method, code: r.code, err: r.message });
          callback({ code: CODES[r.code], details: r.message, metadata: new grpc.Metadata() } as grpc.ServiceError);
        }
      })
      .catch((err: unknown) => {
        logger.error('rpc crashed', { method, err: err instanceof Error ? err.stack : String(err) });
        callback({ code: grpc.status.INTERNAL, details: String(err), metadata: new grpc.Metadata() } as grpc.ServiceError);
      });
  };
}

export function unimplemented(method: string): grpc.handleUnaryCall<unknown, unknown> {
  return (_call, callback) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: `${method} is not implemented by nodelet-runtime`, metadata: new grpc.Metadata() } as grpc.ServiceError);
}

export function unimplementedStream(method: string): grpc.handleServerStreamingCall<unknown, unknown> {
  return (call) =>
    call.emit('error', { code: grpc.status.UNIMPLEMENTED, details: `${method} is not implemented by nodelet-runtime` });
}
