/**
 * GET /containerLogs/{namespace}/{pod}/{container}: 400 for malformed parameters, 404 for an unknown pod or
 * container, otherwise the log as chunked text/plain. With follow the response stays open until the container's
 * log ends or the client goes away.
 */
import type { ServerResponse } from 'node:http';
import type { KubeletApi, LogsResult } from '@nodelet/core/kubelet';
import type { Logger } from '@nodelet/core/util';
import { badRequest, decodeSegments, redactPaths, sendText } from '../http-util.ts';
import { parseLogOptions } from './log-options.ts';

export async function handleContainerLogs(
  res: ServerResponse,
  url: URL,
  kubelet: KubeletApi,
  logger: Logger,
): Promise<void> {
  const parts = decodeSegments(url.pathname, 1);
  if (!parts) return badRequest(res, 'invalid URL escape in the request path');
  const [namespace, pod, container] = parts;
  if (parts.length !== 3 || !namespace || !pod || !container) {
    return sendText(res, 400, 'path must be /containerLogs/{namespace}/{pod}/{container}\n');
  }
  const opts = parseLogOptions(url.searchParams);
  if (!opts.ok) return sendText(res, 400, `${opts.reason}\n`);
  const p = kubelet.getPod(namespace, pod);
  if (!p) return sendText(res, 404, `pod "${pod}" of namespace "${namespace}" not found\n`);
  const spec = p.spec;
  const names = [...(spec?.containers ?? []), ...(spec?.initContainers ?? []), ...(spec?.ephemeralContainers ?? [])].map((c) => c.name);
  if (!names.includes(container)) return sendText(res, 404, `container "${container}" not found in pod "${pod}"\n`);

  const abort = new AbortController();
  const onClose = () => abort.abort(new Error('client disconnected'));
  res.on('close', onClose);
  const startBody = () => {
    if (!res.headersSent) {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Transfer-Encoding': 'chunked', 'X-Content-Type-Options': 'nosniff' });
    }
  };
  if (opts.value.follow) {
    startBody();
    res.flushHeaders();
  }
  let result: LogsResult;
  try {
    result = await kubelet.containerLogs(namespace, pod, container, opts.value, (chunk) => {
      if (abort.signal.aborted) return;
      startBody();
      res.write(chunk);
    }, abort.signal);
  } catch (err) {
    logger.error('container logs failed', { namespace, pod, container, err: (err as Error).message });
    // The error's text may name host paths: it goes to the agent log only.
    result = { ok: false, reason: 'LogNotAvailable', message: `failed to read the log of container "${container}" (details in the node's agent log)` };
  } finally {
    res.off('close', onClose);
  }
  if (result.ok || abort.signal.aborted) return endBody(res);
  if (res.headersSent) return endBody(res);
  const status = result.reason === 'PodNotFound' || result.reason === 'ContainerNotFound' ? 404 : 400;
  // A log file's host path stays in the agent log; the client sees "<path>".
  const message = redactPaths(result.message);
  if (message !== result.message) logger.warn('container log not available', { namespace, pod, container, reason: result.message });
  sendText(res, status, `${message}\n`);
}

function endBody(res: ServerResponse): void {
  if (!res.headersSent) res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
  if (!res.writableEnded) res.end();
}
