/** gRPC errors as Go's grpc-go prints them (the kubelet's messages embed that text). */

/** Go's codes.Code String() names, by numeric gRPC status. */
export const GO_CODE_NAMES = [
  'OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied',
  'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable',
  'DataLoss', 'Unauthenticated',
];

/**
 * `rpc error: code = <Name> desc = <details>` (status.Error's text). A client-side deadline reads as Go's
 * `context deadline exceeded`, whatever grpc-js put in its details.
 */
export function goRpcErrorText(err: unknown): string {
  if (!err || typeof err !== 'object' || typeof (err as { code?: unknown }).code !== 'number') return err instanceof Error ? err.message : String(err);
  const { code, details } = err as { code: number; details?: string };
  const name = GO_CODE_NAMES[code] ?? `Code(${code})`;
  const desc = code === 4 ? 'context deadline exceeded' : (details ?? '');
  return `rpc error: code = ${name} desc = ${desc}`;
}
