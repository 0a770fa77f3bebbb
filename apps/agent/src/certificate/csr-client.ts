/**
 * client-go's util/certificate/csr for the kubelet: create a certificates.k8s.io/v1 CertificateSigningRequest (an
 * existing one of the same name is reused when it carries the same key and signer, as RequestCertificate does) and
 * wait until it is approved and issued (WaitForCertificate: a GET, then a watch on metadata.name, re-watched when
 * the stream ends). requestCertificate never retries a failure: the caller backs off (bootstrap, rotation).
 */
import type { ApiClient, ApiResult } from '@nodelet/core/apiclient';
import { nullLogger, realClock, type Clock, type Logger } from '@nodelet/core/util';
import { derNode, makeCsrPem, publicKeyDer, type CsrSubject } from './csr-pem.ts';
import { forge } from '../pki/certs.ts';

export const CSR_PATH = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
export const KUBE_APISERVER_CLIENT_KUBELET_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';

export interface CertificateRequest {
  signerName: string;
  usages: string[];
  subject: CsrSubject;
  dnsNames?: string[];
  ipAddresses?: string[];
  /** The private key (PEM) the certificate is for; it signs the request. */
  keyPem: string;
  /** The CSR's name; default a generated `csr-xxxxx`, as client-go (bootstrap names it node-csr-<digest>). */
  name?: string;
  /** spec.expirationSeconds (at least 600, the API's minimum). */
  expirationSeconds?: number;
}

export interface RequestOptions {
  clock?: Clock;
  logger?: Logger;
  signal?: AbortSignal;
  /** How long to wait for the certificate (default one hour, as the kubelet's bootstrap). */
  timeoutMs?: number;
  /** Called once the CSR exists (created or reused), with its name: the caller's "waiting for" log line. */
  onCreated?: (name: string) => void;
}

export type CsrErrorKind = 'Denied' | 'Failed' | 'Deleted' | 'Timeout' | 'Aborted' | 'Incompatible' | 'Api';

export class CsrError extends Error {
  constructor(
    readonly kind: CsrErrorKind,
    message: string,
    readonly csrName?: string,
    /** HTTP status of the failed API call (0: not reached), for kind 'Api'. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CsrError';
  }
}

interface Condition {
  type: string;
  status?: string;
  reason?: string;
  message?: string;
}
interface Csr {
  metadata: { name: string; uid: string; resourceVersion?: string };
  spec: { request: string; signerName?: string };
  status?: { conditions?: Condition[]; certificate?: string };
}

/** Create the CSR and wait for its certificate (PEM, leaf first). Throws CsrError. */
export async function requestCertificate(client: ApiClient, req: CertificateRequest, opts: RequestOptions = {}): Promise<string> {
  const created = await createCsr(client, req, opts);
  opts.onCreated?.(created.metadata.name);
  return waitForCertificate(client, created.metadata.name, created.metadata.uid, opts);
}

async function createCsr(client: ApiClient, req: CertificateRequest, opts: RequestOptions): Promise<Csr> {
  const request = makeCsrPem(req.keyPem, req.subject, req.dnsNames, req.ipAddresses);
  const body = {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: req.name ? { name: req.name } : { generateName: 'csr-' },
    spec: {
      request: Buffer.from(request).toString('base64'),
      signerName: req.signerName,
      usages: req.usages,
      ...(req.expirationSeconds !== undefined ? { expirationSeconds: req.expirationSeconds } : {}),
    },
  };
  const res = await client.request<Csr>({ method: 'POST', path: CSR_PATH, body, signal: opts.signal });
  if (res.ok) return res.body;
  if (res.reason === 'AlreadyExists' && req.name) {
    (opts.logger ?? nullLogger).info('csr for this node already exists, reusing', { csr: req.name });
    const got = await client.request<Csr>({ method: 'GET', path: `${CSR_PATH}/${req.name}`, signal: opts.signal });
    if (!got.ok) throw apiError(got, 'cannot retrieve certificate signing request', req.name);
    const why = incompatibility(got.body, req);
    if (why) throw new CsrError('Incompatible', `retrieved csr is not compatible: ${why}`, req.name);
    return got.body;
  }
  throw apiError(res, 'cannot create certificate signing request', req.name);
}

/** client-go ensureCompatible, on what the digest-named CSR must share with ours: the public key and the signer. */
function incompatibility(existing: Csr, req: CertificateRequest): string | undefined {
  if (existing.spec.signerName && existing.spec.signerName !== req.signerName)
    return `csr signerNames differ: new "${existing.spec.signerName}", orig: "${req.signerName}"`;
  try {
    const f = forge();
    const pem = Buffer.from(existing.spec.request, 'base64').toString('utf8');
    const der = Buffer.from(f.pem.decode(pem)[0]?.body ?? '', 'binary');
    const info = (derNode(der).value as Array<{ value: unknown }>)[0]!.value as unknown[];
    const spki = Buffer.from(f.asn1.toDer(info[2] as Parameters<typeof f.asn1.toDer>[0]).getBytes(), 'binary');
    return spki.equals(publicKeyDer(req.keyPem)) ? undefined : 'the request was signed by a different key';
  } catch (err) {
    return `cannot parse the existing request: ${(err as Error).message}`;
  }
}

/**
 * client-go's updateServerError, on a failed CSR create: 401 (an SSL-terminating proxy may answer it), 403 and 404
 * are a working API server; anything else (unreachable, 5xx, a body that is no Status) is not.
 */
export function serverHealthAfter(err: unknown): boolean {
  return err instanceof CsrError && err.kind === 'Api' && (err.status === 401 || err.status === 403 || err.status === 404);
}

function apiError(r: Extract<ApiResult, { ok: false }>, what: string, name?: string): CsrError {
  const detail = r.status === 0 ? r.message : `${r.status} ${r.reason}${r.message ? `: ${r.message}` : ''}`;
  return new CsrError('Api', `${what}: ${detail}`, name, r.status);
}

/** undefined while pending; the certificate PEM once approved and issued; throws when denied, failed or replaced. */
function outcome(csr: Csr, name: string, uid: string, log: Logger, seen: { approved?: boolean }): string | undefined {
  if (csr.metadata.uid !== uid) throw new CsrError('Deleted', `csr "${name}" changed UIDs`, name);
  let approved = false;
  for (const c of csr.status?.conditions ?? []) {
    if (c.type === 'Denied') throw new CsrError('Denied', `certificate signing request is denied, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}`, name);
    if (c.type === 'Failed') throw new CsrError('Failed', `certificate signing request failed, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}`, name);
    if (c.type === 'Approved') approved = true;
  }
  if (!approved) return undefined;
  if (csr.status?.certificate) {
    log.info('certificate signing request is issued', { csr: name });
    return Buffer.from(csr.status.certificate, 'base64').toString('utf8');
  }
  if (!seen.approved) log.info('certificate signing request is approved, waiting to be issued', { csr: name });
  seen.approved = true;
  return undefined;
}

/** WaitForCertificate: watch the CSR until it is issued, denied, failed or deleted, or the timeout / signal ends it. */
export async function waitForCertificate(client: ApiClient, name: string, uid: string, opts: RequestOptions = {}): Promise<string> {
  const clock = opts.clock ?? realClock;
  const log = opts.logger ?? nullLogger;
  const stop = new AbortController();
  let timedOut = false;
  const timer = clock.setTimeout(() => {
    timedOut = true;
    stop.abort();
  }, opts.timeoutMs ?? 3_600_000);
  const onAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const seen = {};
  let retryMs = 500;
  try {
    while (!stop.signal.aborted) {
      const got = await client.request<Csr>({ method: 'GET', path: `${CSR_PATH}/${name}`, signal: stop.signal });
      if (!got.ok) {
        if (got.status === 404) throw new CsrError('Deleted', `csr "${name}" was deleted`, name);
        if (stop.signal.aborted) break;
        log.warn('cannot get the certificate signing request, retrying', { csr: name, err: apiError(got, 'get').message });
        await clock.sleep(retryMs, stop.signal).catch(() => undefined);
        retryMs = Math.min(retryMs * 2, 30_000);
        continue;
      }
      retryMs = 500;
      const cert = outcome(got.body, name, uid, log, seen);
      if (cert) return cert;
      const watched = await watchUntil(client, got.body, name, uid, log, seen, stop.signal);
      if (watched.cert) return watched.cert;
      if (!watched.ok && !stop.signal.aborted) {
        await clock.sleep(retryMs, stop.signal).catch(() => undefined);
        retryMs = Math.min(retryMs * 2, 30_000);
      }
    }
    throw timedOut
      ? new CsrError('Timeout', `timed out waiting for certificate signing request "${name}" to be issued`, name)
      : new CsrError('Aborted', `stopped waiting for certificate signing request "${name}"`, name);
  } finally {
    timer.cancel();
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** One watch from the GET's resourceVersion: the certificate, or how the stream ended without one. */
async function watchUntil(client: ApiClient, from: Csr, name: string, uid: string, log: Logger, seen: { approved?: boolean }, outer: AbortSignal): Promise<{ cert?: string; ok: boolean }> {
  const local = new AbortController();
  const onAbort = () => local.abort();
  outer.addEventListener('abort', onAbort, { once: true });
  let result: { cert?: string; error?: unknown } = {};
  let end: Awaited<ReturnType<ApiClient['watch']>>;
  try {
    end = await client.watch<Csr>(
      CSR_PATH,
      { fieldSelector: `metadata.name=${name}`, resourceVersion: from.metadata.resourceVersion, allowWatchBookmarks: true },
      (e) => {
        if (local.signal.aborted) return;
        try {
          if (e.type === 'DELETED') throw new CsrError('Deleted', `csr "${name}" was deleted`, name);
          if (e.type !== 'ADDED' && e.type !== 'MODIFIED') return;
          const cert = outcome(e.object, name, uid, log, seen);
          if (cert) result = { cert };
        } catch (error) {
          result = { error };
        }
        if (result.cert || result.error) local.abort();
      },
      local.signal,
    );
  } finally {
    outer.removeEventListener('abort', onAbort);
  }
  if (result.error) throw result.error;
  return { cert: result.cert, ok: end.ok };
}
