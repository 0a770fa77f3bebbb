/**
 * metav1.Status error bodies, shaped and worded like the real kube-apiserver's (k8s.io/apimachinery
 * pkg/api/errors). Handlers throw ApiError; the router turns it into the JSON Status body.
 */
export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'Forbidden'
  | 'Unauthorized'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'Expired'
  | 'Gone'
  | 'Timeout'
  | 'UnsupportedMediaType'
  | 'NotAcceptable'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'NotImplemented';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message: string;
  reason?: StatusReason;
  details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: StatusCause[] };
  code: number;
}

export class ApiError extends Error {
  constructor(readonly status: StatusBody) {
    super(status.message);
  }
}

export function statusBody(
  code: number,
  reason: StatusReason | undefined,
  message: string,
  details?: StatusBody['details'],
): StatusBody {
  const b: StatusBody = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code };
  if (reason) b.reason = reason;
  if (details) {
    // metav1.StatusDetails fields are omitempty: a core resource's Status has no "group".
    const { group, ...rest } = details;
    b.details = group ? details : rest;
  }
  return b;
}

/** `pods "x"` or `leases.coordination.k8s.io "x"` (qualified resource, as in the real messages). */
export function qualified(resource: string, group: string): string {
  return group ? `${resource}.${group}` : resource;
}

/** utilerrors.Aggregate's Error(): one message as is, several (duplicates dropped) as `[a, b]`. */
function aggregate(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] as string) : `[${unique.join(', ')}]`;
}

export const errors = {
  notFound: (resource: string, group: string, name: string) =>
    new ApiError(
      statusBody(404, 'NotFound', `${qualified(resource, group)} "${name}" not found`, { name, group, kind: resource }),
    ),
  alreadyExists: (resource: string, group: string, name: string) =>
    new ApiError(
      statusBody(409, 'AlreadyExists', `${qualified(resource, group)} "${name}" already exists`, {
        name,
        group,
        kind: resource,
      }),
    ),
  conflict: (resource: string, group: string, name: string, why: string) =>
    new ApiError(
      statusBody(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(resource, group)} "${name}": ${why}`, {
        name,
        group,
        kind: resource,
      }),
    ),
  invalid: (kind: string, group: string, name: string, causes: { field: string; message: string; type: string }[]) =>
    new ApiError(
      statusBody(
        422,
        'Invalid',
        `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${aggregate(causes.map((c) => `${c.field}: ${c.message}`))}`,
        { name, group, kind, causes: causes.map((c) => ({ reason: c.type, message: c.message, field: c.field })) },
      ),
    ),
  forbidden: (message: string, details?: StatusBody['details']) =>
    new ApiError(statusBody(403, 'Forbidden', message, details)),
  unauthorized: () => new ApiError(statusBody(401, 'Unauthorized', 'Unauthorized')),
  badRequest: (message: string) => new ApiError(statusBody(400, 'BadRequest', message)),
  methodNotAllowed: (message = 'the server does not allow this method on the requested resource') =>
    new ApiError(statusBody(405, 'MethodNotAllowed', message)),
  expired: (message: string) => new ApiError(statusBody(410, 'Expired', message)),
  unsupportedMediaType: (contentType: string) =>
    new ApiError(statusBody(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json (got ${contentType})`)),
  notImplemented: (message: string) => new ApiError(statusBody(501, 'NotImplemented', message)),
  timeout: (message: string) => new ApiError(statusBody(504, 'Timeout', message)),
  internal: (message: string) => new ApiError(statusBody(500, 'InternalError', message)),
};

/** The message the real apiserver uses for a stale resourceVersion on update. */
export const MODIFIED_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';
