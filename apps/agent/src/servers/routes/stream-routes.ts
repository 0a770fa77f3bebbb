/**
 * The kubelet's streaming endpoints on 10250: /exec/{ns}/{pod}[/{uid}]/{container}, /attach/... (same shape) and
 * /portForward/{ns}/{pod}[/{uid}]. Each asks the runtime (CRI Exec / Attach / PortForward) for a streaming URL
 * and relays the client's upgrade to it: WebSocket (v4/v5.channel.k8s.io, portforward) or SPDY/3.1, whichever the
 * client asked for; the runtime's streaming server negotiates the stream protocol.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { V1Pod } from '@kubernetes/client-node';
import type { KubeletApi } from '@nodelet/core/kubelet';
import type { Logger } from '@nodelet/core/util';
import type { CriStreams, StreamUrl } from './cri-streams.ts';
import { decodeSegments, redactPaths } from '../http-util.ts';
import { proxyUpgrade, rejectUpgrade } from './proxy-upgrade.ts';
import { streamOptions } from './stream-options.ts';

export type StreamPath =
  | { kind: 'exec' | 'attach'; namespace: string; pod: string; uid?: string; container: string }
  | { kind: 'portForward'; namespace: string; pod: string; uid?: string };

export function isStreamPath(path: string): boolean {
  return /^\/(exec|attach|portForward)\//.test(path);
}

export function parseStreamPath(path: string): StreamPath | undefined {
  const parts = decodeSegments(path);
  if (!parts) return undefined;
  const [kind, namespace, pod, ...rest] = parts;
  if (!namespace || !pod || rest.some((p) => p === '')) return undefined;
  if (kind === 'portForward' && rest.length <= 1) return { kind, namespace, pod, ...(rest[0] ? { uid: rest[0] } : {}) };
  if ((kind === 'exec' || kind === 'attach') && (rest.length === 1 || rest.length === 2)) {
    const container = rest[rest.length - 1]!;
    return { kind, namespace, pod, container, ...(rest.length === 2 ? { uid: rest[0]! } : {}) };
  }
  return undefined;
}

/** Resolve the request to a runtime streaming URL (with the client's query when the URL has none). */
export async function resolveStream(p: StreamPath, query: URLSearchParams, kubelet: KubeletApi, cri: CriStreams): Promise<StreamUrl> {
  // As the kubelet's getExec / getAttach: the stream options are checked before the pod is looked up.
  const wanted = p.kind === 'portForward' ? undefined : streamOptions(query);
  if (wanted && !wanted.ok) return { ok: false, status: 400, reason: wanted.reason };
  const pod = kubelet.getPod(p.namespace, p.pod);
  if (!pod || (p.uid && pod.metadata?.uid !== p.uid)) return { ok: false, status: 404, reason: `pod does not exist` };
  if (p.kind === 'portForward') {
    const sandbox = await cri.sandboxOf(pod.metadata?.uid ?? '');
    if (!sandbox) return { ok: false, status: 404, reason: `pod ${p.namespace}/${p.pod} has no running sandbox` };
    return cri.portForward(sandbox, []);
  }
  const containerId = runningContainerId(pod, p.container);
  if (!containerId) return { ok: false, status: 404, reason: `container ${p.container} is not valid for pod ${p.pod}` };
  const io = { containerId, ...wanted!.opts };
  if (p.kind === 'attach') return cri.attach(io);
  const cmd = query.getAll('command');
  if (cmd.length === 0) return { ok: false, status: 400, reason: 'you must specify at least 1 command' };
  return cri.exec({ ...io, cmd });
}

function runningContainerId(pod: V1Pod, name: string): string | undefined {
  const st = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])]
    .find((c) => c.name === name);
  if (!st?.state?.running || !st.containerID) return undefined;
  return st.containerID.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
}

export interface StreamUpgradeDeps {
  kubelet: KubeletApi;
  cri: CriStreams;
  logger: Logger;
}

/** Serve one (authorized) upgrade on a stream path: resolve, proxy; every failure answers the client with a status. */
export async function handleStreamUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, deps: StreamUpgradeDeps): Promise<void> {
  const p = parseStreamPath(url.pathname);
  if (!p) return rejectUpgrade(socket, 404, '404 page not found');
  const r = await resolveStream(p, url.searchParams, deps.kubelet, deps.cri);
  if (!r.ok && r.status >= 500) {
    deps.logger.warn('stream request failed in the runtime', { kind: p.kind, namespace: p.namespace, pod: p.pod, reason: r.reason });
    return rejectUpgrade(socket, r.status, redactPaths(r.reason));
  }
  if (!r.ok) return rejectUpgrade(socket, r.status, r.reason);
  const target = new URL(r.url);
  if (target.search === '') target.search = url.search;
  deps.logger.debug('stream proxied', { kind: p.kind, namespace: p.namespace, pod: p.pod });
  proxyUpgrade(req, socket, head, target);
}
