/** /healthz as the kubelet serves it: "ok", or 500 with one line per check and the failures' reasons withheld. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HealthReport } from '@nodelet/core/kubelet';
import type { Logger } from '@nodelet/core/util';
import { notFound, requestUrl, sendText } from '../http-util.ts';

export function handleHealthz(req: IncomingMessage, res: ServerResponse, report: HealthReport, logger: Logger): void {
  const url = requestUrl(req);
  const sub = url.pathname.replace(/^\/healthz\/?/, '');
  if (sub) return handleSingleCheck(res, report, sub, logger);
  const excluded = new Set(url.searchParams.getAll('exclude'));
  const lines: string[] = [];
  const failed: string[] = [];
  for (const check of report.checks) {
    if (excluded.has(check.name)) {
      lines.push(`[+]${check.name} excluded: ok`);
    } else if (check.ok) {
      // A passing check with a message is informational (apiserver): shown, never failing healthz.
      lines.push(check.message ? `[+]${check.name} ok (${check.message})` : `[+]${check.name} ok`);
    } else {
      lines.push(`[-]${check.name} failed: reason withheld`);
      failed.push(check.name);
    }
  }
  if (failed.length > 0) {
    logger.warn('healthz check failed', {
      failed,
      reasons: report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.message ?? 'failed'}`),
    });
    sendText(res, 500, `${lines.join('\n')}\nhealthz check failed\n`);
    return;
  }
  if (!url.searchParams.has('verbose')) return sendText(res, 200, 'ok');
  sendText(res, 200, `${lines.join('\n')}\nhealthz check passed\n`);
}

function handleSingleCheck(res: ServerResponse, report: HealthReport, name: string, logger: Logger): void {
  const check = report.checks.find((c) => c.name === name);
  if (!check) return notFound(res);
  if (check.ok) return sendText(res, 200, 'ok');
  logger.warn('healthz check failed', { check: name, reason: check.message });
  sendText(res, 500, 'internal server error: reason withheld\n');
}
