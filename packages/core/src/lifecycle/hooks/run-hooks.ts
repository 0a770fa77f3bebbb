/**
 * postStart / preStop handlers (exec, httpGet, sleep) as the kubelet's handler runner, with its messages:
 *   Exec lifecycle hook ([cmd]) for Container "c" in Pod "name_ns(uid)" failed - error: <err>, message: "<out>"
 *   HTTP lifecycle hook (/path) for Container "c" in Pod "name_ns(uid)" failed - error: <err>
 *   Sleep lifecycle hook (5) for Container "c" in Pod "name_ns(uid)" failed - error: <err>
 * and Warning events FailedPostStartHook "PostStartHook failed" / FailedPreStopHook "PreStopHook failed".
 * preStop is bounded by the grace period: the caller gets back how long it ran and what StopContainer gets.
 */
import type { V1Container, V1LifecycleHandler, V1Pod } from '@kubernetes/client-node';
import { httpRequestFor } from '../../prober/prober.ts';
import type { HookConfig, HookDeps, HookName, HookResult } from './types.ts';
import { splitGrace, stopTimeoutAfterPreStop } from './termination-grace.ts';

const DEFAULT_POST_START_HTTP_TIMEOUT_S = 120;

/** The kubelet's format.Pod: name_namespace(uid). */
export function formatPod(pod: V1Pod): string {
  const m = pod.metadata;
  return `${m?.name ?? ''}_${m?.namespace ?? ''}(${m?.uid ?? ''})`;
}

/** Runs one handler; '' when it succeeded, else the kubelet's failure message. */
async function runHandler(
  deps: HookDeps,
  pod: V1Pod,
  container: V1Container,
  containerId: string,
  h: V1LifecycleHandler,
  httpTimeoutS: number,
  signal?: AbortSignal,
): Promise<string> {
  const where = `for Container ${JSON.stringify(container.name)} in Pod ${JSON.stringify(formatPod(pod))}`;
  if (h.exec) {
    const cmd = h.exec.command ?? [];
    const r = await deps.exec(containerId, cmd, 0);
    if (r.status === 'success') return '';
    const err = r.error ?? (r.exitCode !== undefined ? `command '${cmd.join(' ')}' exited with ${r.exitCode}: ` : r.output);
    const out = r.error !== undefined || r.exitCode !== undefined ? r.output : '';
    return `Exec lifecycle hook ([${cmd.join(' ')}]) ${where} failed - error: ${err}, message: ${JSON.stringify(out)}`;
  }
  if (h.httpGet) {
    const fail = (e: string) => `HTTP lifecycle hook (${h.httpGet?.path ?? ''}) ${where} failed - error: ${e}`;
    const ip = h.httpGet.host ? h.httpGet.host : await deps.podIP(pod);
    if (!ip) return fail('failed to find networking container: no pod IP');
    const r = httpRequestFor(h.httpGet, container, ip, httpTimeoutS, 'lifecycle');
    if (!r.ok) return fail(r.reason);
    const res = await deps.http(r.req);
    // Any HTTP response counts: the kubelet discards the body and does not look at the status code.
    return res.httpStatus !== undefined ? '' : fail(res.error ?? res.output);
  }
  if (h.sleep) {
    const seconds = h.sleep.seconds;
    try {
      await deps.clock.sleep(seconds * 1000, signal);
      return '';
    } catch {
      return `Sleep lifecycle hook (${seconds}) ${where} failed - error: container terminated before sleep hook finished`;
    }
  }
  return `Cannot run handler: invalid handler: ${JSON.stringify(h)}`;
}

function failed(deps: HookDeps, pod: V1Pod, container: V1Container, hook: HookName, message: string): HookResult {
  const reason = hook === 'PostStart' ? 'FailedPostStartHook' : 'FailedPreStopHook';
  const eventMessage = `${hook}Hook failed`;
  deps.logger?.warn(`${hook} hook failed`, { pod: formatPod(pod), container: container.name, message });
  const init = (pod.spec?.initContainers ?? []).some((c) => c.name === container.name);
  deps.recorder?.event(
    {
      kind: 'Pod',
      namespace: pod.metadata?.namespace ?? 'default',
      name: pod.metadata?.name ?? '',
      uid: pod.metadata?.uid,
      fieldPath: `spec.${init ? 'initContainers' : 'containers'}{${container.name}}`,
    },
    'Warning',
    reason,
    eventMessage,
  );
  return { ok: false, reason, message, eventMessage };
}

/**
 * Runs the container's postStart hook (if any) right after StartContainer. On failure the kubelet kills the
 * container (reason FailedPostStartHook) and reports PostStartHookError with `message`.
 */
export async function runPostStart(
  deps: HookDeps,
  pod: V1Pod,
  container: V1Container,
  containerId: string,
  config: HookConfig = {},
): Promise<HookResult> {
  const h = container.lifecycle?.postStart;
  if (!h) return { ok: true };
  const msg = await runHandler(deps, pod, container, containerId, h, config.postStartHttpTimeoutS ?? DEFAULT_POST_START_HTTP_TIMEOUT_S);
  return msg === '' ? { ok: true } : failed(deps, pod, container, 'PostStart', msg);
}

export interface PreStopOutcome {
  result: HookResult;
  /** Whole seconds the hook ran (at most the grace period). */
  elapsedS: number;
  /** The timeout to give StopContainer (SIGTERM → SIGKILL): grace − elapsed, at least 2 s. */
  stopTimeoutS: number;
  /** The hook was still running when the grace period ran out (it is abandoned). */
  timedOut: boolean;
}

/** Runs the container's preStop hook bounded by `gracePeriodS`, then says what StopContainer gets. */
export async function runPreStop(
  deps: HookDeps,
  pod: V1Pod,
  container: V1Container,
  containerId: string,
  gracePeriodS: number,
): Promise<PreStopOutcome> {
  const { preStopBudgetS } = splitGrace(gracePeriodS, container);
  const h = container.lifecycle?.preStop;
  if (!h || preStopBudgetS <= 0) return { result: { ok: true }, elapsedS: 0, stopTimeoutS: stopTimeoutAfterPreStop(gracePeriodS, 0), timedOut: false };
  const t0 = deps.clock.monotonic();
  const ac = new AbortController();
  let timer: { cancel(): void } | undefined;
  const budget = new Promise<'timeout'>((resolve) => {
    timer = deps.clock.setTimeout(() => resolve('timeout'), preStopBudgetS * 1000);
  });
  const run = runHandler(deps, pod, container, containerId, h, preStopBudgetS, ac.signal);
  const first = await Promise.race([run, budget]);
  timer?.cancel();
  const elapsedS = Math.min(gracePeriodS, Math.trunc((deps.clock.monotonic() - t0) / 1000));
  const stopTimeoutS = stopTimeoutAfterPreStop(gracePeriodS, elapsedS);
  if (first === 'timeout') {
    ac.abort();
    deps.logger?.info('PreStop hook not completed in grace period', { pod: formatPod(pod), container: container.name, gracePeriodS });
    return { result: { ok: true }, elapsedS, stopTimeoutS, timedOut: true };
  }
  const result = first === '' ? ({ ok: true } as const) : failed(deps, pod, container, 'PreStop', first);
  return { result, elapsedS, stopTimeoutS, timedOut: false };
}
