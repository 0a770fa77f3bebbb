/**
 * The cAdvisor REST API on the kubelet port: GET /api/v1.3/machine, /api/v1.3/containers[/<name>],
 * /api/v2.0/spec[/<name>], /api/v2.0/stats[/<name>] (?count=N, ?recursive=true), /api/v2.0/ps[/<name>].
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeletApi, StatsApi, StatsContainer } from '@nodelet/core/kubelet';
import { methodNotAllowed, notFound, sendJson, sendText } from '../http-util.ts';
import { machineJson, psJson, specJson, statsJson } from './cadvisor-shapes.ts';
import { parseCadvisorRequest } from './cadvisor-request.ts';

export const CADVISOR_API_PREFIX = '/api/';

const under = (key: string, name: string) => name === '/' || key === name || key.startsWith(`${name}/`);

function samples(stats: StatsApi, key: string, count: number) {
  const all = stats.history(key);
  const from = Math.max(0, all.length - count);
  return all.slice(from).map((s, i) => statsJson(s, all[from + i - 1], true));
}

function v1Container(stats: StatsApi, c: StatsContainer, list: StatsContainer[]) {
  const all = stats.history(c.key);
  return {
    name: c.key,
    aliases: c.kind === 'container' && c.labels.name ? [c.labels.name] : [],
    namespace: '',
    subcontainers: list.filter((x) => x.parent === c.key && x.key !== c.key).map((x) => ({ name: x.key })),
    spec: specJson(c, stats.machineInfo(), false),
    stats: all.map((s) => statsJson(s, undefined, false)),
  };
}

export async function handleCadvisorApi(req: IncomingMessage, res: ServerResponse, url: URL, kubelet: KubeletApi, now: number): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res);
  const stats = kubelet.stats;
  if (!stats) return notFound(res);
  const parsed = parseCadvisorRequest(url.pathname, url.searchParams);
  if (!parsed.ok) return sendText(res, parsed.status, `${parsed.reason}\n`);
  const { resource, name, recursive, count } = parsed.req;
  const list = stats.containers();
  const unknown = () => sendText(res, 404, `unknown container "${name}"\n`);
  if (name !== '/' && !list.some((c) => c.key === name)) return unknown();
  const pick = () => (recursive ? list.filter((c) => under(c.key, name)) : list.filter((c) => c.key === name));
  switch (resource) {
    case 'machine': {
      const m = stats.machineInfo();
      return m ? sendJson(res, 200, machineJson(m, now)) : sendText(res, 503, 'machine info not available yet\n');
    }
    case 'containers': {
      const c = list.find((x) => x.key === name);
      return c ? sendJson(res, 200, v1Container(stats, c, list)) : unknown();
    }
    case 'spec': {
      const m = stats.machineInfo();
      return sendJson(res, 200, Object.fromEntries(pick().map((c) => [c.key, specJson(c, m, true)])));
    }
    case 'stats':
      return sendJson(res, 200, Object.fromEntries(pick().map((c) => [c.key, samples(stats, c.key, count)])));
    case 'ps':
      return sendJson(res, 200, (await stats.processes(name)).map(psJson));
  }
}
