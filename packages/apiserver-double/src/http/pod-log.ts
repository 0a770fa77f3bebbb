/**
 * pods/<name>/log: like the real apiserver, resolve the pod's node, pick the node address by the preferred
 * address types, and stream GET https://<addr>:<kubeletEndpoint port>/containerLogs/<ns>/<pod>/<container>
 * from the kubelet, authenticating with the apiserver's own kubelet client certificate.
 */
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyPair } from '../auth/pki.ts';
import type { Registry } from '../store/registry.ts';
import { errors, statusBody } from '../status.ts';

export interface KubeletClientConfig {
  clientCert: KeyPair;
  /** CA to verify kubelet serving certs (--kubelet-certificate-authority); unset → not verified, as upstream. */
  ca?: string;
  /** --kubelet-preferred-address-types. */
  preferredAddressTypes: string[];
}

export const DEFAULT_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
const FORWARDED = ['follow', 'previous', 'timestamps', 'sinceSeconds', 'sinceTime', 'tailLines', 'limitBytes'];

export function pickContainer(pod: any, requested: string | null): string {
  const names: string[] = (pod.spec?.containers ?? []).map((c: any) => c.name);
  const others: string[] = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.ephemeralContainers ?? [])].map((c: any) => c.name);
  const podName = pod.metadata.name;
  if (!requested) {
    if (names.length === 1) return names[0]!;
    throw errors.badRequest(`a container name must be specified for pod ${podName}, choose one of: [${names.join(' ')}]`);
  }
  if (!names.includes(requested) && !others.includes(requested))
    throw errors.badRequest(`container ${requested} is not valid for pod ${podName}`);
  return requested;
}

export function kubeletLogLocation(reg: Registry, cfg: KubeletClientConfig, ns: string, name: string, url: URL): URL {
  const pod = reg.get(reg.resource('', 'pods'), ns, name);
  const container = pickContainer(pod, url.searchParams.get('container'));
  const loc = kubeletNodeUrl(reg, cfg, pod);
  loc.pathname = `/containerLogs/${encodeURIComponent(ns)}/${encodeURIComponent(name)}/${encodeURIComponent(container)}`;
  for (const k of FORWARDED) {
    const v = url.searchParams.get(k);
    if (v !== null && v !== '' && v !== 'false') loc.searchParams.set(k, v);
  }
  return loc;
}

/** https://<preferred address>:<kubeletEndpoint port> of the pod's node. */
export function kubeletNodeUrl(reg: Registry, cfg: KubeletClientConfig, pod: any): URL {
  const name = pod.metadata.name;
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) throw errors.badRequest(`pod ${name} does not have a host assigned`);
  const node = reg.get(reg.resource('', 'nodes'), undefined, nodeName);
  const addresses: { type: string; address: string }[] = node.status?.addresses ?? [];
  let host: string | undefined;
  for (const t of cfg.preferredAddressTypes) {
    host = addresses.find((a) => a.type === t)?.address;
    if (host) break;
  }
  if (!host) throw errors.internal(`no preferred addresses found; known addresses: ${JSON.stringify(addresses)}`);
  const port = Number(node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0) || 10250;
  return new URL(`https://${host.includes(':') ? `[${host}]` : host}:${port}`);
}

/** Stream the kubelet's answer back; a non-2xx kubelet answer becomes a Status with the kubelet's text. */
export function proxyPodLog(cfg: KubeletClientConfig, loc: URL, req: IncomingMessage, res: ServerResponse): void {
  const upstream = https.request(loc, {
    method: 'GET',
    cert: cfg.clientCert.cert,
    key: cfg.clientCert.key,
    ca: cfg.ca,
    rejectUnauthorized: cfg.ca !== undefined,
  });
  upstream.on('response', (up) => {
    const code = up.statusCode ?? 502;
    if (code >= 200 && code < 300) {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
      up.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    up.on('data', (c: Buffer) => chunks.push(c));
    up.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8').trim();
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(statusBody(code, code === 404 ? 'NotFound' : 'InternalError', text || `kubelet answered ${code}`)));
    });
  });
  upstream.on('error', (err) => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(500, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(statusBody(500, 'InternalError', `Get "${loc.href}": ${err.message}`)));
  });
  req.on('close', () => upstream.destroy());
  upstream.end();
}
