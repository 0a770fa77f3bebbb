/**
 * The READY, STATUS and RESTARTS columns of `kubectl get pods`, computed as kubectl's printPod does
 * (kubernetes pkg/printers/internalversion/printers.go), and the console's colour for a STATUS.
 */
import type { V1Pod, WirePod } from '../../lib/api-types.ts';
import { toMillis } from '../../lib/format.ts';

export type Tone = 'ok' | 'warn' | 'bad' | 'done' | 'info';

export interface KubectlPodColumns {
  /** STATUS: the phase, the pod's reason, Init:…, a container's waiting/terminated reason, Terminating… */
  status: string;
  readyCount: number;
  total: number;
  restarts: number;
  /** When the most recent restart counted in `restarts` ended (RESTARTS shows "4 (2m ago)"). */
  lastRestartMs?: number;
}

type AnyPod = V1Pod | WirePod;
type Status = NonNullable<NonNullable<AnyPod['status']>['containerStatuses']>[number];

function restartableInit(pod: AnyPod, name: string): boolean {
  return pod.spec?.initContainers?.find((c) => c.name === name)?.restartPolicy === 'Always';
}

function conditionTrue(pod: AnyPod, type: string): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

function lastTerminated(c: Status): number | undefined {
  return c.lastState?.terminated ? toMillis(c.lastState.terminated.finishedAt) : undefined;
}

const later = (a: number | undefined, b: number | undefined) => (b !== undefined && (a === undefined || b > a) ? b : a);

export function kubectlPodColumns(pod: AnyPod): KubectlPodColumns {
  const st = pod.status ?? {};
  const phase = st.phase ?? '';
  let reason = st.reason || phase;
  if ((st.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';
  let total = pod.spec?.containers?.length ?? 0;
  for (const c of pod.spec?.initContainers ?? []) if (c.restartPolicy === 'Always') total++;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart: number | undefined;
  let lastSidecarRestart: number | undefined;

  const inits = st.initContainerStatuses ?? [];
  const initCount = pod.spec?.initContainers?.length ?? 0;
  let initializing = false;
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i]!;
    restarts += c.restartCount ?? 0;
    lastRestart = later(lastRestart, lastTerminated(c));
    const sidecar = restartableInit(pod, c.name);
    if (sidecar) {
      sidecarRestarts += c.restartCount ?? 0;
      lastSidecarRestart = later(lastSidecarRestart, lastTerminated(c));
    }
    const t = c.state?.terminated;
    const w = c.state?.waiting;
    if (t && t.exitCode === 0) continue;
    if (sidecar && c.started) {
      if (c.ready) ready++;
      continue;
    }
    if (t) reason = t.reason ? `Init:${t.reason}` : t.signal ? `Init:Signal:${t.signal}` : `Init:ExitCode:${t.exitCode}`;
    else if (w?.reason && w.reason !== 'PodInitializing') reason = `Init:${w.reason}`;
    else reason = `Init:${i}/${initCount}`;
    initializing = true;
    break;
  }

  if (!initializing || conditionTrue(pod, 'Initialized')) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const app = st.containerStatuses ?? [];
    for (let i = app.length - 1; i >= 0; i--) {
      const c = app[i]!;
      restarts += c.restartCount ?? 0;
      lastRestart = later(lastRestart, lastTerminated(c));
      const w = c.state?.waiting;
      const t = c.state?.terminated;
      if (w?.reason) reason = w.reason;
      else if (t?.reason) reason = t.reason;
      else if (t) reason = t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = conditionTrue(pod, 'Ready') ? 'Running' : 'NotReady';
  }

  if (pod.metadata?.deletionTimestamp && st.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  return { status: reason, readyCount: ready, total, restarts, lastRestartMs: restarts > 0 ? lastRestart : undefined };
}

/** Statuses on the way to running (amber), whatever container or init step they name. */
const PROGRESS = new Set(['Pending', 'ContainerCreating', 'PodInitializing', 'Terminating', 'NotReady', 'SchedulingGated']);

/**
 * The colour of a STATUS: green Running with every container ready, amber on the way (Pending,
 * ContainerCreating, Init:1/2, not ready, Terminating), grey-blue done (Completed, Succeeded), neutral Unknown,
 * red every failure (CrashLoopBackOff, Error, ImagePullBackOff, ErrImagePull, OOMKilled, Failed, Evicted, ExitCode:1…).
 */
export function statusTone(cols: Pick<KubectlPodColumns, 'status' | 'readyCount' | 'total'>): Tone {
  const s = cols.status.startsWith('Init:') ? cols.status.slice(5) : cols.status;
  if (cols.status === 'Running') return cols.readyCount === cols.total ? 'ok' : 'warn';
  if (cols.status.startsWith('Init:') && /^\d+\/\d+$/.test(s)) return 'warn';
  if (PROGRESS.has(s)) return 'warn';
  if (s === 'Completed' || s === 'Succeeded') return 'done';
  if (s === 'Unknown') return 'info';
  return 'bad';
}
