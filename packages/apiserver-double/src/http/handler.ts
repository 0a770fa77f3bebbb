/**
 * The request pipeline of the double: record → authenticate (401) → discovery → authorize (403) →
 * dispatch to the registry, watch, reviews, token, binding, log-proxy and stream-proxy (exec / attach /
 * port-forward WebSocket upgrades) handlers. Errors become Status JSON.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '@nodelet/core/util';
import { forbiddenMessage, type Authenticator, type AuthorizePolicy, type AuthzAttributes, type UserInfo } from '../auth/authn.ts';
import type { ServiceAccountTokens } from '../auth/sa-tokens.ts';
import { findResource, type ResourceInfo } from '../resources.ts';
import type { DeleteOptions, Registry } from '../store/registry.ts';
import { ApiError, errors, statusBody } from '../status.ts';
import { parsedBodies, readJson, sendJson, sendStatus } from './body.ts';
import { discoveryDocument } from './discovery.ts';
import { kubeletLogLocation, proxyPodLog, type KubeletClientConfig } from './pod-log.ts';
import { kubeletStreamLocation, proxyPodStream } from './pod-stream.ts';
import { parseRequestInfo, type ResourceRequest } from './request-info.ts';
import { subjectAccessReview, tokenRequest, tokenReview, type RecordedAccessReview } from './reviews.ts';
import { serveWatch, type WatchContext } from './watch.ts';
import { createCsr } from './csr.ts';

export interface RequestRecord {
  method: string;
  path: string;
  query: string;
  user?: string;
  verb: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  contentType?: string;
  /** The parsed JSON body, when the request had one (patches, created objects, DeleteOptions). */
  body?: unknown;
  code?: number;
}

export interface HandlerDeps {
  registry: Registry;
  clock: Clock;
  authn: Authenticator;
  policy: AuthorizePolicy;
  saTokens: ServiceAccountTokens;
  kubelet: KubeletClientConfig;
  watch: WatchContext;
  requests: RequestRecord[];
  accessReviews: RecordedAccessReview[];
  serverAddress: string;
}

const OPEN_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version']);

export function createHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double.invalid');
    const info = parseRequestInfo(req.method ?? 'GET', url);
    const rec: RequestRecord = { method: req.method ?? 'GET', path: url.pathname, query: url.search, verb: info.verb };
    if (info.kind === 'resource') Object.assign(rec, { resource: info.resource, subresource: info.subresource, namespace: info.namespace, name: info.name });
    if (req.headers['content-type']) rec.contentType = req.headers['content-type'];
    deps.requests.push(rec);
    res.on('finish', () => {
      rec.code = res.statusCode;
      if (parsedBodies.has(req)) rec.body = parsedBodies.get(req);
    });
    handle(deps, req, res, url, rec).catch((e: unknown) => {
      if (e instanceof ApiError) sendStatus(res, e.status);
      else sendStatus(res, statusBody(500, 'InternalError', `double: ${(e as Error).stack ?? String(e)}`));
    });
  };
}

async function handle(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse, url: URL, rec: RequestRecord): Promise<void> {
  const info = parseRequestInfo(req.method ?? 'GET', url);
  const user = deps.authn.authenticate(req);
  rec.user = user?.username;
  if (info.kind === 'nonresource') {
    if (['/healthz', '/livez', '/readyz'].includes(url.pathname)) return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    if (!user && !OPEN_PATHS.has(url.pathname)) throw errors.unauthorized();
    const doc = discoveryDocument(url.pathname, deps.serverAddress);
    if (doc === undefined) throw new ApiError(statusBody(404, 'NotFound', 'the server could not find the requested resource'));
    return sendJson(res, 200, doc);
  }
  if (!user) throw errors.unauthorized();
  const r = findResource(info.group, info.version, info.resource);
  if (!r) throw new ApiError(statusBody(404, 'NotFound', 'the server could not find the requested resource'));
  authorize(deps.policy, user, info);
  await dispatch(deps, r, info, req, res, url, user);
}

function authorize(policy: AuthorizePolicy, user: UserInfo, info: ResourceRequest): void {
  const attrs: AuthzAttributes = {
    user: user.username,
    groups: user.groups,
    verb: info.verb,
    resource: info.resource,
    subresource: info.subresource,
    group: info.group,
    namespace: info.namespace,
    name: info.name,
  };
  const d = policy(attrs);
  if (!d.allowed)
    throw errors.forbidden(forbiddenMessage(attrs, d.reason), { name: info.name, group: info.group, kind: info.resource });
}

function deleteOptions(body: any, url: URL): DeleteOptions {
  const opts: DeleteOptions = {};
  const q = url.searchParams.get('gracePeriodSeconds');
  if (body?.gracePeriodSeconds !== undefined && body.gracePeriodSeconds !== null) opts.gracePeriodSeconds = Number(body.gracePeriodSeconds);
  else if (q !== null) opts.gracePeriodSeconds = Number(q);
  if (body?.preconditions) opts.preconditions = body.preconditions;
  return opts;
}

async function dispatch(deps: HandlerDeps, r: ResourceInfo, info: ResourceRequest, req: IncomingMessage, res: ServerResponse, url: URL, user: UserInfo): Promise<void> {
  const reg = deps.registry;
  const { namespace: ns, name, subresource: sub, verb } = info;
  if (r.namespaced && ns === undefined && name !== undefined) throw errors.notFound(r.resource, r.group, name);
  if (!r.stored) {
    if (verb !== 'create') throw errors.methodNotAllowed();
    const body = (await readJson(req)) ?? {};
    if (r.resource === 'tokenreviews') return sendJson(res, 201, tokenReview(deps.authn, body));
    return sendJson(res, 201, subjectAccessReview(deps.policy, body, deps.accessReviews));
  }
  if (sub !== undefined && sub !== 'status') return dispatchSubresource(deps, r, info, req, res, url);
  if (sub === 'status' && !r.hasStatus) throw new ApiError(statusBody(404, 'NotFound', 'the server could not find the requested resource'));
  switch (verb) {
    case 'get':
      return sendJson(res, 200, reg.get(r, ns, name!));
    case 'list':
      return sendJson(res, 200, reg.list(r, listQuery(url, ns)));
    case 'watch':
      if (name) url.searchParams.set('fieldSelector', [url.searchParams.get('fieldSelector'), `metadata.name=${name}`].filter(Boolean).join(','));
      return serveWatch(deps.watch, r, r.namespaced ? ns : undefined, url, req, res);
    case 'create':
      if (sub) throw errors.methodNotAllowed();
      if (r.kind === 'CertificateSigningRequest') return sendJson(res, 201, createCsr(reg, r, (await readJson(req)) ?? {}, user));
      return sendJson(res, 201, reg.create(r, ns, (await readJson(req)) ?? {}));
    case 'update':
      return sendJson(res, 200, reg.update(r, ns, name!, (await readJson(req)) ?? {}, sub === 'status' ? 'status' : undefined));
    case 'patch':
      return sendJson(res, 200, reg.patch(r, ns, name!, String(req.headers['content-type'] ?? ''), await readJson(req), sub === 'status' ? 'status' : undefined));
    case 'delete': {
      // 200 with the object while it still exists (graceful / finalizers) or for pods (ReturnDeletedObject),
      // otherwise a Success Status naming what was deleted, as the real generic registry answers.
      const out = reg.delete(r, ns, name!, deleteOptions(await readJson(req), url));
      if (r.kind === 'Pod' || reg.tryGet(r, ns, name!)) return sendJson(res, 200, out);
      return sendJson(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, group: r.group || undefined, kind: r.resource, uid: out.metadata.uid } });
    }
    case 'deletecollection': {
      const opts = deleteOptions(await readJson(req), url);
      const list = reg.list(r, listQuery(url, ns));
      list.items = list.items.map((o) => reg.delete(r, o.metadata.namespace, o.metadata.name, opts));
      return sendJson(res, 200, list);
    }
    default:
      throw errors.methodNotAllowed();
  }
}

function listQuery(url: URL, ns: string | undefined) {
  const q = url.searchParams;
  const limit = Number(q.get('limit') ?? '0');
  return {
    namespace: ns,
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    resourceVersion: q.get('resourceVersion') ?? undefined,
    resourceVersionMatch: q.get('resourceVersionMatch') ?? undefined,
    limit: Number.isFinite(limit) && limit > 0 ? limit : undefined,
    continue: q.get('continue') || undefined,
  };
}

async function dispatchSubresource(deps: HandlerDeps, r: ResourceInfo, info: ResourceRequest, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const reg = deps.registry;
  const { namespace: ns, name, subresource: sub, verb } = info;
  const key = `${r.resource}/${sub}`;
  if (key === 'pods/log' && verb === 'get') return proxyPodLog(deps.kubelet, kubeletLogLocation(reg, deps.kubelet, ns!, name!, url), req, res);
  if (key === 'serviceaccounts/token' && verb === 'create')
    return sendJson(res, 201, tokenRequest(reg, deps.saTokens, ns!, name!, (await readJson(req)) ?? {}, deps.clock.now()));
  if (key === 'pods/binding' && verb === 'create') {
    const binding = (await readJson(req)) ?? {};
    const pods = reg.resource('', 'pods');
    const pod = reg.get(pods, ns, name!);
    if (pod.spec?.nodeName)
      throw errors.conflict('pods', '', name!, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    const raw = reg.raw.get('pods', `${ns}/${name}`)!;
    raw.spec.nodeName = binding.target?.name;
    reg.raw.put('pods', `${ns}/${name}`, raw);
    return sendJson(res, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  }
  if (['pods/exec', 'pods/attach', 'pods/portforward'].includes(key) && (verb === 'get' || verb === 'create'))
    return proxyPodStream(deps.kubelet, kubeletStreamLocation(reg, deps.kubelet, sub!, ns!, name!, url), req);
  if (key === 'pods/ephemeralcontainers') {
    if (verb === 'get') return sendJson(res, 200, reg.get(r, ns, name!));
    if (verb === 'update') return sendJson(res, 200, reg.update(r, ns, name!, (await readJson(req)) ?? {}, 'ephemeralcontainers'));
    if (verb === 'patch') return sendJson(res, 200, reg.patch(r, ns, name!, String(req.headers['content-type'] ?? ''), await readJson(req), 'ephemeralcontainers'));
  }
  if (key === 'certificatesigningrequests/approval') {
    if (verb === 'get') return sendJson(res, 200, reg.get(r, ns, name!));
    if (verb === 'update') return sendJson(res, 200, reg.update(r, ns, name!, (await readJson(req)) ?? {}, 'approval'));
    if (verb === 'patch') return sendJson(res, 200, reg.patch(r, ns, name!, String(req.headers['content-type'] ?? ''), await readJson(req), 'approval'));
  }
  if (['pods/proxy', 'nodes/proxy'].includes(key))
    throw errors.notImplemented(`${key} is not implemented by the apiserver double`);
  if (r.subresources.includes(sub!)) throw errors.methodNotAllowed();
  throw new ApiError(statusBody(404, 'NotFound', 'the server could not find the requested resource'));
}
