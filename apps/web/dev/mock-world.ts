/**
 * Fake node state for the mock agent: a handful of pods in various states and an event bus that the
 * mock's tick() advances (a crash-looping container restarts, a pod is added and removed...).
 * Dev-only; never imported by the console bundle.
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { eventMatches } from '@nodelet/agent/testing';
import type { EventFilter, K8sBusEvent, NodeletEvent, NodeletEventInput, HealthReport, NodeSummary } from '@nodelet/agent/types';

type Listener = (e: NodeletEvent) => void;

const NODE = 'mock-node-1';

function running(name: string, image: string, startedAt: string, restarts = 0): V1ContainerStatus {
  return {
    name, image, imageID: `${image}@sha256:abc`, containerID: `nodelet://${name}-${restarts}`,
    ready: true, restartCount: restarts, started: true, state: { running: { startedAt: new Date(startedAt) } },
  };
}

function waiting(name: string, image: string, reason: string, message: string, restarts = 0): V1ContainerStatus {
  return { name, image, imageID: '', ready: false, restartCount: restarts, started: false, state: { waiting: { reason, message } } };
}

function pod(namespace: string, name: string, phase: string, containers: V1ContainerStatus[], start: string): V1Pod {
  const ready = containers.every((c) => c.ready);
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { namespace, name, uid: `uid-${namespace}-${name}`, creationTimestamp: new Date(start) },
    spec: { nodeName: NODE, containers: containers.map((c) => ({ name: c.name, image: c.image })) },
    status: {
      phase, hostIP: '10.0.0.5', podIP: '10.88.0.7', startTime: new Date(start), qosClass: 'BestEffort',
      conditions: [
        { type: 'PodScheduled', status: 'True', lastTransitionTime: new Date(start) },
        { type: 'Initialized', status: 'True', lastTransitionTime: new Date(start) },
        { type: 'ContainersReady', status: ready ? 'True' : 'False', lastTransitionTime: new Date(start) },
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: new Date(start) },
      ],
      containerStatuses: containers,
    },
  };
}

export interface MockWorld {
  pods(): V1Pod[];
  node(): NodeSummary & { health: HealthReport };
  recent(filter: EventFilter, limit: number): NodeletEvent[];
  subscribe(l: Listener): () => void;
  publish(input: NodeletEventInput): void;
  tick(): void;
}

export function createMockWorld(now: () => Date = () => new Date(), opts: { pods?: number } = {}): MockWorld {
  const t0 = new Date(now().getTime() - 3600_000).toISOString();
  const host = 'nodelet.local/host:latest';
  const pods = new Map<string, V1Pod>();
  const put = (p: V1Pod) => pods.set(`${p.metadata!.namespace}/${p.metadata!.name}`, p);
  put(pod('default', 'web', 'Running', [running('nginx', host, t0), running('sidecar', host, t0)], t0));
  put(pod('default', 'crasher', 'Running', [waiting('app', host, 'CrashLoopBackOff', 'back-off 40s restarting failed container', 4)], t0));
  put(pod('default', 'badimage', 'Pending', [waiting('main', 'example.invalid/nope:1', 'ErrImagePull', 'pull failed')], t0));
  put(pod('kube-system', 'static-web-mock-node-1', 'Running', [running('web', host, t0)], t0));
  const withInit = pod('default', 'init-demo', 'Running', [running('main', host, t0)], t0);
  withInit.status!.initContainerStatuses = [{
    name: 'setup', image: host, imageID: '', ready: true, restartCount: 0, containerID: 'nodelet://setup',
    state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: new Date(t0), finishedAt: new Date(t0) } },
  }];
  put(withInit);
  fillPods(put, (opts.pods ?? 0) - pods.size, t0, host);

  const history: NodeletEvent[] = [];
  const listeners = new Set<Listener>();
  let seq = 0;
  let ticks = 0;

  function publish(input: NodeletEventInput): void {
    const e = { ...input, seq: ++seq, time: input.time ?? now().toISOString() } as NodeletEvent;
    history.push(e);
    if (history.length > 2000) history.shift();
    for (const l of listeners) l(e);
  }

  function k8s(p: V1Pod, eventType: 'Normal' | 'Warning', reason: string, message: string): void {
    const t = now().toISOString();
    const m = p.metadata!;
    const ev: Omit<K8sBusEvent, 'seq' | 'time'> = {
      type: 'k8sEvent', eventType, reason, message, count: 1, firstTimestamp: t, lastTimestamp: t,
      involvedObject: { kind: 'Pod', namespace: m.namespace!, name: m.name!, uid: m.uid! },
    };
    publish(ev);
  }

  function statusEvent(p: V1Pod): void {
    const s = p.status!;
    const cs = s.containerStatuses ?? [];
    publish({
      type: 'podStatus', pod: ref(p), phase: s.phase ?? 'Unknown', ready: cs.every((c) => c.ready), status: s,
      containers: cs.map((c) => ({
        name: c.name, ready: c.ready, restartCount: c.restartCount,
        state: c.state?.running ? 'running' : c.state?.terminated ? 'terminated' : 'waiting',
        reason: c.state?.waiting?.reason ?? c.state?.terminated?.reason,
      })),
    });
  }

  function crashCycle(): void {
    const p = pods.get('default/crasher')!;
    const c = p.status!.containerStatuses![0]!;
    if (c.state?.waiting) {
      c.restartCount += 1;
      c.lastState = { terminated: { exitCode: 1, reason: 'Error', startedAt: new Date(t0), finishedAt: now() } };
      c.state = { running: { startedAt: now() } };
      c.containerID = `nodelet://app-${c.restartCount}`;
      publish({ type: 'pleg', pod: ref(p), pleg: 'ContainerStarted', containerId: c.containerID, containerName: 'app' });
      k8s(p, 'Normal', 'Started', 'Started container app');
    } else {
      c.state = { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container app' } };
      publish({ type: 'probe', pod: ref(p), container: 'app', probeType: 'liveness', result: 'failure', previous: 'success', output: 'HTTP probe failed with statuscode: 500', latencyMs: 3 });
      publish({ type: 'pleg', pod: ref(p), pleg: 'ContainerDied', containerId: c.containerID ?? '', containerName: 'app' });
      k8s(p, 'Warning', 'BackOff', 'Back-off restarting failed container app');
    }
    statusEvent(p);
  }

  function churn(): void {
    const key = 'default/ephemeral';
    const existing = pods.get(key);
    if (existing) {
      pods.delete(key);
      publish({ type: 'podConfig', pod: ref(existing), op: 'REMOVE', source: 'file' });
      return;
    }
    const p = pod('default', 'ephemeral', 'Running', [running('sh', host, now().toISOString())], now().toISOString());
    put(p);
    publish({ type: 'podConfig', pod: ref(p), op: 'ADD', source: 'file' });
    statusEvent(p);
  }

  for (const p of pods.values()) statusEvent(p);
  publish({ type: 'runtime', ready: true, message: 'runtime nodelet-runtime 0.1.0 ready' });

  return {
    pods: () => [...pods.values()],
    node: () => ({
      name: NODE, runtimeReady: true, startTime: t0, kubeletVersion: 'v1.31.0-nodelet', podCount: pods.size, maxPods: 110,
      runtime: { name: 'nodelet-runtime', version: '0.1.0', apiVersion: 'v1', endpoint: 'unix:///var/lib/nodelet/runtime/nodelet.sock' },
      health: { ok: true, checks: ['ping', 'log', 'syncloop', 'pleg', 'runtime'].map((name) => ({ name, ok: true })) },
    }),
    recent: (f, limit) => history.filter((e) => matches(e, f)).slice(-limit),
    subscribe: (l) => { listeners.add(l); return () => listeners.delete(l); },
    publish,
    tick: () => { ticks += 1; crashCycle(); if (ticks % 3 === 0) churn(); },
  };
}

/**
 * `count` more pods (the mock agent's --pods: a busy node): pod-000… across three namespaces, labelled app (web,
 * api, db, cache, worker by i % 5) and tier (front on odd i, back on even), i % 7 restarts, every tenth not ready.
 */
function fillPods(put: (p: V1Pod) => void, count: number, t0: string, image: string): void {
  const apps = ['web', 'api', 'db', 'cache', 'worker'];
  for (let i = 0; i < count; i++) {
    const name = `pod-${String(i).padStart(3, '0')}`;
    const start = new Date(Date.parse(t0) + i * 60_000).toISOString();
    const c = i % 10 === 9 ? waiting('main', image, 'ContainerCreating', '') : running('main', image, start, i % 7);
    c.restartCount = i % 7;
    const p = pod(['default', 'shop', 'batch'][i % 3]!, name, i % 10 === 9 ? 'Pending' : 'Running', [c], start);
    p.metadata!.labels = { app: apps[i % 5]!, tier: i % 2 ? 'front' : 'back' };
    p.status!.podIP = `10.88.${Math.floor(i / 250)}.${(i % 250) + 2}`;
    put(p);
  }
}

function ref(p: V1Pod) {
  const m = p.metadata!;
  return { namespace: m.namespace!, name: m.name!, uid: m.uid! };
}

export function matches(e: NodeletEvent, f: EventFilter): boolean {
  return eventMatches(e, f);
}
