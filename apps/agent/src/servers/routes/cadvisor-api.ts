/**
 * The cAdvisor REST API on the kubelet port: GET /api/v1.3/machine, /api/v1.3/containers[/<name>],
 * /api/v2.0/spec[/<name>], /api/v2.0/stats[/<name>] (?count=N, ?recursive=true), /api/v2.0/ps[/<name>].
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeletApi } from '@nodelet/core/kubelet/types.ts';
import type { StatsApi, StatsContainer } from '@nodelet/core/kubelet/stats-api.ts';
import { methodNotAllowed, notFound, sendJson, sendText } from '../http-util.ts';
import { machineJson, psJson, specJson, statsJson } from './cadvisor-shapes.ts';

export const CADVISOR_API_PREFIX = '/api/';

function containerName(path: string, prefix: string): string {
  const rest = path.slice(prefix.length).replace(/\/+$/, '');
  return rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}`;
}

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
  const path = url.pathname;
  const q = url.searchParams;
  const list = stats.containers();
  const pick = (name: string) => (q.get('recursive') === 'true' ? list.filter((c) => under(c.key, name)) : list.filter((c) => c.key === name));
  if (path === '/api/v1.3/machine' || path === '/api/v2.0/machine') {
    const m = stats.machineInfo();
    return m ? sendJson(res, 200, machineJson(m, now)) : sendText(res, 503, 'machine info not available yet\n');
  }
  if (path.startsWith('/api/v1.3/containers')) {
    const c = list.find((x) => x.key === containerName(path, '/api/v1.3/containers'));
    return c ? sendJson(res, 200, v1Container(stats, c, list)) : sendText(res, 500, `unknown container "${containerName(path, '/api/v1.3/containers')}"\n`);
  }
  if (path.startsWith('/api/v2.0/spec')) {
    const m = stats.machineInfo();
    return sendJson(res, 200, Object.fromEntries(pick(containerName(path, '/api/v2.0/spec')).map((c) => [c.key, specJson(c, m, true)])));
  }
  if (path.startsWith('/api/v2.0/stats')) {
    const count = Math.max(1, Math.min(1000, Number(q.get('count') ?? 64) || 64));
    return sendJson(res, 200, Object.fromEntries(pick(containerName(path, '/api/v2.0/stats')).map((c) => [c.key, samples(stats, c.key, count)])));
  }
  if (path.startsWith('/api/v2.0/ps')) {
    return sendJson(res, 200, (await stats.processes(containerName(path, '/api/v2.0/ps'))).map(psJson));
  }
  notFound(res);
}
