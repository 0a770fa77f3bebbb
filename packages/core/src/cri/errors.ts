/** Mapping grpc-js failures to CriError with messages a person can act on, and endpoint parsing. */
import { status, type ServiceError } from '@grpc/grpc-js';
import { CriError, type CriErrorCode } from './types.ts';

/** `unix:///a.sock` and `/a.sock` → `unix:///a.sock`; `unix:rel.sock` and `host:port` pass through. */
export function toGrpcTarget(endpoint: string): string {
  if (endpoint.startsWith('/')) return `unix://${endpoint}`;
  return endpoint;
}

/** grpc numeric status → its name ('NOT_FOUND'). */
export function statusName(code: number | undefined): CriErrorCode {
  const name = code === undefined ? undefined : (status as unknown as Record<number, string>)[code];
  return (name ?? 'UNKNOWN') as CriErrorCode;
}

/** The OS-level reason hidden in grpc-js connection errors, e.g. "connect ENOENT". */
function connectReason(details: string): string | undefined {
  const m = /(connect|read|write) (E[A-Z]+)/.exec(details);
  return m ? `${m[1]} ${m[2]}` : undefined;
}

export function errorFromGrpc(
  err: Partial<ServiceError> & { message?: string },
  op: string,
  endpoint: string,
  timeoutMs: number | null,
): CriError {
  const code = statusName(err.code);
  const details = err.details ?? err.message ?? String(err);
  const extra = { op, endpoint, details, cause: err };
  switch (code) {
    case 'UNAVAILABLE': {
      const why = connectReason(details);
      if (why || /No connection established|failed to connect|Connection dropped/i.test(details)) {
        return new CriError(
          code,
          `container runtime is not reachable at ${endpoint} (${why ?? details}): is the runtime running?`,
          extra,
        );
      }
      return new CriError(code, `CRI ${op} at ${endpoint}: runtime unavailable: ${details}`, extra);
    }
    case 'DEADLINE_EXCEEDED':
      return new CriError(
        code,
        `CRI ${op} at ${endpoint} timed out${timeoutMs == null ? '' : ` after ${timeoutMs}ms`}: ${details}`,
        extra,
      );
    case 'UNIMPLEMENTED':
      return new CriError(code, `CRI ${op} is not implemented by the runtime at ${endpoint}`, extra);
    default:
      return new CriError(code, `CRI ${op} at ${endpoint} failed (${code}): ${details}`, extra);
  }
}
