// Pod helpers for the conformance suite: static pod manifests in, live status out (GET /pods on the read-only
// port), container logs over 10250, and a CRI client straight to the runtime.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1ContainerStatus, V1Pod, V1PodSpec } from '@kubernetes/client-node';
import { connectSpdy } from '@nodelet/runtime/testing';
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

/**
 * `sh -c script` in a container through the kubelet's exec on 10250 as the v1.28 e2e framework's exec reaches it
 * (client-go's SPDY remotecommand, v4.channel.k8s.io, through kube-apiserver with its `output`/`error`
 * parameters): its stdout, stderr and exit code (from the Status on the error stream).
 */
export async function execIn(a: AgentProcess, pod: string, container: string, script: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const cmd = sh(script).map((c) => `command=${encodeURIComponent(c)}`).join('&');
  const url = `${a.kubeletUrl}/exec/${NS}/${fullName(a, pod)}/${container}?${cmd}&output=1&error=1`;
  const c = await connectSpdy(url, ['v4.channel.k8s.io'], a.tls());
  const [error, stdout, stderr] = ['error', 'stdout', 'stderr'].map((streamType) => c.open({ streamType }));
  await Promise.all([error!.ended, stdout!.ended, stderr!.ended]);
  c.socket.destroy();
  const status = JSON.parse(error!.text() || '{}') as { status?: string; details?: { causes?: Array<{ reason?: string; message?: string }> } };
  const exit = status.details?.causes?.find((x) => x.reason === 'ExitCode')?.message;
  return { stdout: stdout!.text(), stderr: stderr!.text(), exitCode: status.status === 'Success' ? 0 : Number(exit ?? -1) };
}

/** The Kubernetes events the agent recorded lately (its event hub, as the console reads them). */
export async function k8sEvents(a: AgentProcess): Promise<Array<{ reason: string; message: string; type?: string }>> {
  const r = await a.get(`/trpc/events.recent?input=${encodeURIComponent(JSON.stringify({ types: ['k8sEvent'], limit: 1000 }))}`);
  return (JSON.parse(r.body) as { result: { data: Array<{ reason: string; message: string; type?: string }> } }).result.data;
}
