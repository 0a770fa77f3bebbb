// Pod helpers for the conformance suite: static pod manifests in, live status out (GET /pods on the read-only
// port), container logs over 10250, and a CRI client straight to the runtime.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1ContainerStatus, V1Pod, V1PodSpec } from '@kubernetes/client-node';
import { waitUntil } from '../../e2e/harness.ts';
import type { AgentProcess } from './agent-process.ts';

export const NS = 'conf';

export function writePod(a: AgentProcess, name: string, spec: V1PodSpec, meta: { labels?: Record<string, string>; annotations?: Record<string, string> } = {}): void {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { ...meta, name, namespace: NS }, spec };
  writeFileSync(join(a.manifests, `${name}.json`), JSON.stringify(pod));
}

export function removePod(a: AgentProcess, name: string): void {
  rmSync(join(a.manifests, `${name}.json`), { force: true });
}

/** The static pod's full name as the agent serves it. */
export function fullName(a: AgentProcess, name: string): string {
  return `${name}-${a.nodeName}`;
}

export async function listPods(a: AgentProcess): Promise<V1Pod[]> {
  const r = await fetch(`${a.readOnlyUrl}/pods`);
  return ((await r.json()) as { items: V1Pod[] }).items;
}

export async function getPod(a: AgentProcess, name: string): Promise<V1Pod | undefined> {
  return (await listPods(a)).find((p) => p.metadata?.name === fullName(a, name) && p.metadata?.namespace === NS);
}

export function containerStatus(p: V1Pod | undefined, name: string, init = false): V1ContainerStatus | undefined {
  return (init ? p?.status?.initContainerStatuses : p?.status?.containerStatuses)?.find((c) => c.name === name);
}

/** Waits until `pred` holds for the pod; returns it. The error carries the last status seen. */
export async function waitPod(a: AgentProcess, name: string, what: string, pred: (p: V1Pod) => boolean, ms = 60_000): Promise<V1Pod> {
  let last: V1Pod | undefined;
  try {
    await waitUntil(`${name}: ${what}`, async () => {
      last = await getPod(a, name);
      return last !== undefined && pred(last);
    }, ms);
  } catch (e) {
    throw new Error(`${String(e)}\nlast status: ${JSON.stringify(last?.status)}`);
  }
  return last as V1Pod;
}

export function bareId(containerId: string | undefined): string {
  return (containerId ?? '').replace(/^[a-z-]+:\/\//, '');
}

export async function logs(a: AgentProcess, pod: string, container: string, query = ''): Promise<{ status: number; body: string }> {
  const r = await a.get(`/containerLogs/${NS}/${fullName(a, pod)}/${container}${query ? `?${query}` : ''}`);
  return { status: r.status, body: r.body };
}

export const sh = (script: string) => ['sh', '-c', script];

/** A container spec running `script` in `image`. */
export function ctr(name: string, image: string, script: string, extra: Record<string, unknown> = {}) {
  return { name, image, imagePullPolicy: 'IfNotPresent', command: sh(script), ...extra };
}
