/**
 * The thin seam between the kubelet and the API server: JSON requests and watch streams. Expected failures are
 * values carrying the API's Status reason (NotFound, Conflict, AlreadyExists, Expired, Gone...) or
 * `ConnectionError` when the server could not be reached.
 */

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type PatchType = 'application/strategic-merge-patch+json' | 'application/merge-patch+json' | 'application/json-patch+json';

export interface ApiRequest {
  method: ApiMethod;
  /** Absolute API path, e.g. /api/v1/namespaces/default/pods/x/status. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Content type of the body (patches); default application/json. */
  contentType?: string;
  signal?: AbortSignal;
}

export type ApiResult<T = unknown> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; reason: string; message: string };

export interface WatchEvent<T = unknown> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/** How a watch stream ended: closed by the server (re-watch), an ERROR event / HTTP error, or aborted. */
export type WatchEnd = { ok: true; reason: 'Closed' | 'Aborted' } | { ok: false; status: number; reason: string; message: string };

export interface ApiClient {
  /** The API server URL (cluster.server of the kubeconfig). */
  readonly server: string;
  request<T = unknown>(req: ApiRequest): Promise<ApiResult<T>>;
  /** Streams watch events until the server closes the stream, an ERROR event arrives, or `signal` aborts. */
  watch<T = unknown>(path: string, query: ApiRequest['query'], onEvent: (e: WatchEvent<T>) => void, signal: AbortSignal): Promise<WatchEnd>;
  close(): void;
  /** Client certificate rotation (rotateCertificates): reconnect with a new client certificate and key. */
  setClientCertificate?(certPem: string, keyPem: string): void;
}

/** The API's Status reason of a failed result ('' when ok). */
export function reasonOf(r: ApiResult): string {
  return r.ok ? '' : r.reason;
}
