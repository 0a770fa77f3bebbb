/**
 * "Why isn't my pod running?": one plain sentence for a pod that is not Running and Ready, built from its status
 * (the kubelet's reason strings: ErrImagePull, ImagePullBackOff, CrashLoopBackOff, CreatePodSandboxError,
 * Evicted, OutOf<resource>, DeadlineExceeded ...) and the facts the agent holds: the pod's recent Kubernetes events
 * (the last pull error, FailedCreatePodSandBox) and its probe workers (how long a probe has failed, its output).
 * Pure: the caller passes `now`. Works with the status alone (the tail derives it from podStatus events).
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { IMAGE_BACKOFF } from '../util/backoff.ts';

export interface WhyEvent {
  reason: string;
  message: string;
  /** Aggregated count (the recorder's). */
  count?: number;
  /** ISO time of the latest occurrence. */
  lastTimestamp?: string;
}

export interface WhyProbe {
  container: string;
  probeType: 'readiness' | 'liveness' | 'startup';
  /** `<scheme>://<host>:<port><path>` ('' host = the pod IP), `<host>:<port>` or the exec command. */
  target?: string;
  /** The last run's result and how many runs in a row gave it (with the period: how long it has failed). */
  lastResult?: string;
  consecutive?: number;
  periodSeconds?: number;
  /** How long it has failed when known better (the flight recorder's span of failures); else runs × period. */
  failingForMs?: number;
  output?: string;
}

export interface WhyFacts {
  /** Epoch ms (for "next retry in" and "failing for"). */
  now?: number;
  /** The pod's recent Kubernetes events, oldest first. */
  events?: WhyEvent[];
  probes?: WhyProbe[];
}

export interface PodWhy {
  /** The kubelet reason the explanation rests on (ErrImagePull, CrashLoopBackOff, Evicted, NotReady ...). */
  reason: string;
  text: string;
  container?: string;
}

const IMAGE_REASONS = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull', 'ImageInspectError']);
const START_REASONS = new Set(['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError', 'PreStartHookError', 'PostStartHookError', 'StartError']);

/** The explanation, or undefined for a pod that is Running and Ready (or Succeeded). */
export function explainPod(pod: V1Pod, facts: WhyFacts = {}): PodWhy | undefined {
  const st = pod.status ?? {};
  if (st.phase === 'Succeeded') return undefined;
  if (st.phase === 'Failed') return failed(pod);
  if (pod.metadata?.deletionTimestamp) {
    return { reason: 'Terminating', text: `terminating (grace period ${pod.metadata.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30} s)` };
  }
  const sandbox = sandboxFailure(pod, facts);
  if (sandbox) return sandbox;
  const inits = st.initContainerStatuses ?? [];
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  for (const s of inits) {
    if (sidecars.has(s.name) ? s.started : s.state?.terminated?.exitCode === 0) continue;
    return initWhy(s, facts);
  }
  for (const s of st.containerStatuses ?? []) {
    const w = containerWhy(pod, s, facts);
    if (w) return w;
  }
  if (st.phase === 'Running' && isReady(pod)) return undefined;
  const cond = (st.conditions ?? []).find((c) => c.status === 'False' && c.reason);
  if (cond) return { reason: cond.reason!, text: `${cond.type} is False: ${cond.reason}${cond.message ? ` (${cond.message})` : ''}` };
  if (st.phase === 'Running') return undefined;
  return { reason: st.reason ?? 'Pending', text: st.message ? `pending: ${st.message}` : 'pending: the pod worker has not started it yet' };
}

function isReady(pod: V1Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function failed(pod: V1Pod): PodWhy {
  const st = pod.status ?? {};
  const reason = st.reason ?? 'Failed';
  const msg = st.message ?? '';
  if (reason === 'Evicted') {
    const m = /low on resource: ([\w.-]+)\. Threshold quantity: ([^,]+), available: ([^.\s]+)/.exec(msg);
    const signal = m ? ({ memory: 'memory.available', pids: 'pid.available' } as Record<string, string>)[m[1]!] ?? `${m[1]} available` : '';
    return { reason, text: m ? `evicted: ${signal} ${m[3]} < ${m[2]}` : `evicted: ${msg || 'node pressure'}` };
  }
  if (reason === 'DeadlineExceeded') return { reason, text: `active deadline passed: ${msg}` };
  if (reason.startsWith('OutOf') || reason === 'UnexpectedAdmissionError' || reason === 'NodeAffinity' || reason === 'SysctlForbidden' || reason === 'PodOSNotSupported') {
    return { reason, text: `admission refused: ${reason}${msg ? ` (${msg})` : ''}` };
  }
  const dead = [...(st.initContainerStatuses ?? []), ...(st.containerStatuses ?? [])].find((s) => (s.state?.terminated?.exitCode ?? 0) !== 0);
  if (dead) return { reason, container: dead.name, text: `failed: container \`${dead.name}\` ${exitText(dead.state!.terminated!)}` };
  return { reason, text: `failed: ${reason}${msg ? ` (${msg})` : ''}` };
}

/** CreatePodSandboxError: the containers wait ContainerCreating; the status message or the event names the error. */
function sandboxFailure(pod: V1Pod, facts: WhyFacts): PodWhy | undefined {
  const all = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  if (all.some((s) => s.containerID || !s.state?.waiting)) return undefined;
  const fromStatus = all.map((s) => s.state?.waiting?.message).find((m) => m && /^Failed to .* for pod "/.test(m));
  const err = fromStatus ? fromStatus.replace(/^Failed to .*? for pod "[^"]*": /, '') : lastEvent(facts, 'FailedCreatePodSandBox')?.message.replace(/^Failed to create pod sandbox: /, '');
  if (!err) return undefined;
  return { reason: 'CreatePodSandboxError', text: `sandbox cannot be created: ${err}; retrying` };
}

function initWhy(s: V1ContainerStatus, facts: WhyFacts): PodWhy {
  const w = s.state?.waiting;
  if (w?.reason && IMAGE_REASONS.has(w.reason)) return imageWhy(s, facts);
  const last = s.state?.terminated ?? s.lastState?.terminated;
  const restarts = `${s.restartCount} restart${s.restartCount === 1 ? '' : 's'}`;
  const reason = w?.reason ?? (s.state?.running ? 'Running' : 'PodInitializing');
  if (last) return { reason, container: s.name, text: `waiting for init container \`${s.name}\` (exit ${last.exitCode}, ${restarts})` };
  return { reason, container: s.name, text: `waiting for init container \`${s.name}\` (${s.state?.running ? 'running' : (w?.reason ?? 'not started')})` };
}

function containerWhy(pod: V1Pod, s: V1ContainerStatus, facts: WhyFacts): PodWhy | undefined {
  const w = s.state?.waiting;
  const name = s.name;
  if (w?.reason && IMAGE_REASONS.has(w.reason)) return imageWhy(s, facts);
  if (w?.reason === 'CrashLoopBackOff') {
    const last = s.lastState?.terminated;
    const backoff = /back-off (\d+(?:m\d+)?s?)/.exec(w.message ?? '')?.[1];
    const retry = last?.finishedAt && backoff && facts.now !== undefined ? Date.parse(String(toIso(last.finishedAt))) + goSeconds(backoff) * 1000 - facts.now : undefined;
    const exit = last ? `${exitText(last)}, ` : '';
    return { reason: w.reason, container: name, text: `container \`${name}\` keeps crashing (${exit}${s.restartCount} restarts); ${retryText(retry)}` };
  }
  if (w?.reason && START_REASONS.has(w.reason)) {
    return { reason: w.reason, container: name, text: `container \`${name}\` cannot start (${w.reason}: ${w.message ?? ''})` };
  }
  if (w) return { reason: w.reason ?? 'Waiting', container: name, text: `container \`${name}\` is waiting (${w.reason ?? 'not started'})` };
  if (s.state?.terminated) return { reason: s.state.terminated.reason ?? 'Terminated', container: name, text: `container \`${name}\` ${exitText(s.state.terminated)}` };
  if (s.started === false) {
    const p = probeWhy(facts, name, 'startup');
    if (p) return p;
  }
  if (!s.ready) {
    const p = probeWhy(facts, name, 'readiness');
    if (p) return p;
    if (pod.spec?.containers?.find((c) => c.name === name)?.readinessProbe) return { reason: 'NotReady', container: name, text: `container \`${name}\` is not ready yet (readiness probe)` };
    return { reason: 'NotReady', container: name, text: `container \`${name}\` is not ready` };
  }
  return undefined;
}

function imageWhy(s: V1ContainerStatus, facts: WhyFacts): PodWhy {
  const w = s.state!.waiting!;
  const image = s.image ?? '';
  const pulled = lastEvent(facts, 'Failed', (e) => e.message.startsWith(`Failed to pull image "${image}"`));
  let err = w.reason === 'ErrImagePull' ? (w.message ?? '') : (pulled?.message ?? '');
  err = err.replace(/^Failed to pull image "[^"]*": /, '');
  const text = `image ${image} cannot be pulled (ErrImagePull${err ? `: ${err}` : ''})`;
  if (w.reason === 'InvalidImageName' || w.reason === 'ErrImageNeverPull' || w.reason === 'ImageInspectError') {
    return { reason: w.reason, container: s.name, text: `image ${image} cannot be used (${w.reason}${w.message ? `: ${w.message}` : ''})` };
  }
  return { reason: w.reason!, container: s.name, text: `${text}; ${retryText(imageRetry(pulled, facts.now))}` };
}

/** The image manager's back-off: 10 s after the first failure, doubling per failure up to 300 s. */
function imageRetry(pulled: WhyEvent | undefined, now: number | undefined): number | undefined {
  if (!pulled?.lastTimestamp || now === undefined) return undefined;
  const n = Math.max(1, pulled.count ?? 1);
  const backoffMs = Math.min(IMAGE_BACKOFF.initialMs * 2 ** Math.min(n - 1, 20), IMAGE_BACKOFF.maxMs);
  return Date.parse(pulled.lastTimestamp) + backoffMs - now;
}

function probeWhy(facts: WhyFacts, container: string, type: WhyProbe['probeType']): PodWhy | undefined {
  const p = facts.probes?.find((x) => x.container === container && x.probeType === type);
  if (!p || p.lastResult !== 'failure') return undefined;
  const forMs = p.failingForMs ?? (p.consecutive ? p.consecutive * (p.periodSeconds ?? 10) * 1000 : undefined);
  const out = (p.output ?? '').trim().split('\n')[0]!.slice(0, 120);
  const http = /^HTTP probe failed with statuscode: (\d+)/.exec(out);
  const where = (p.target ?? '').replace(/^https?:\/\//, '');
  const detail = http ? `HTTP ${http[1]}${where ? ` from ${where}` : ''}` : out ? `${out}${where ? ` (${where})` : ''}` : where;
  return { reason: type === 'readiness' ? 'NotReady' : 'NotStarted', container, text: `${type} probe failing${forMs ? ` for ${span(forMs)}` : ''}${detail ? `: ${detail}` : ''}` };
}

function lastEvent(facts: WhyFacts, reason: string, ok: (e: WhyEvent) => boolean = () => true): WhyEvent | undefined {
  return [...(facts.events ?? [])].reverse().find((e) => e.reason === reason && ok(e));
}

function exitText(t: { exitCode: number; reason?: string }): string {
  return `exit ${t.exitCode}${t.reason ? ` ${t.reason}` : ''}`;
}

function retryText(ms: number | undefined): string {
  return ms !== undefined && ms > 0 ? `next retry in ${span(ms)}` : 'retrying';
}

/** 40 s, 3 m, 2 h: whole units, rounded up for seconds. */
export function span(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.floor(s / 60)} m`;
  return `${Math.floor(s / 3600)} h`;
}

/** Go's duration text as the CrashLoopBackOff message has it: 40s, 1m20s, 5m0s. */
function goSeconds(d: string): number {
  const m = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(d);
  return m ? Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0) : 0;
}

function toIso(d: Date | string): string {
  return d instanceof Date ? d.toISOString() : d;
}
