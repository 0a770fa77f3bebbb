/** gRPC status names the runtime answers with (containerd's choices, see docs/containerd.md). */
export type CriCode =
  | 'NOT_FOUND'
  | 'UNKNOWN'
  | 'INVALID_ARGUMENT'
  | 'DEADLINE_EXCEEDED'
  | 'FAILED_PRECONDITION'
  | 'UNIMPLEMENTED'
  | 'ALREADY_EXISTS';

export type OpResult<T> = { ok: true; value: T } | { ok: false; code: CriCode; message: string };

export const ok = <T>(value: T): OpResult<T> => ({ ok: true, value });
export const fail = <T = never>(code: CriCode, message: string): OpResult<T> => ({ ok: false, code, message });
