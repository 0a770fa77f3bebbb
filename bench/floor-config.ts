// The raw CRI floor's requests: the agent's own RunPodSandbox and CreateContainer configs of a pod it started, read
// back from the runtime's verbose status (`info.config`, as containerd shows it and as `crictl inspectp` prints it;
// the embedded runtime does the same), then replayed under new names. The floor then asks the runtime for exactly
// the work the agent asks (cgroup parent, namespaces, DNS, mounts, security context), not a lighter minimal pod.
// What the agent prepares before its calls (the pod cgroup, the files it mounts, the log directory) is prepared here
// too, before the clock starts.
import { cpSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CriClient } from '@nodelet/core/cri';
import { cgroupRoots } from '@nodelet/agent/testing';

type Json = Record<string, unknown>;

export interface FloorTemplate {
  sandbox: Json;
  container: Json;
}

/** Map fields whose keys are data (kept as written); every other object key is a proto field name. */
const MAPS = new Set(['labels', 'annotations', 'sysctls', 'unified']);
const camel = (k: string) => k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** Go's encoding/json of a CRI message (snake_case names, base64 bytes) → the proto-loader object the CRI client sends. */
export function fromGoJson(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => fromGoJson(x, key));
  if (v === null || typeof v !== 'object') return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v as Json)) {
    const name = camel(k);
    if (MAPS.has(name)) out[name] = { ...(x as Json) };
    else if (key === 'envs' && name === 'value' && typeof x === 'string') out[name] = Buffer.from(x, 'base64');
    else out[name] = fromGoJson(x, name);
  }
  return out;
}

const configOf = (info: Record<string, string> | undefined): Json | undefined => {
  try {
    return (JSON.parse(info?.info ?? '{}') as { config?: Json }).config;
  } catch {
    return undefined;
  }
};

/**
 * The agent's requests for its running pod `podName`; a string says why they could not be read. The files the
 * agent mounts from its root dir (`agentRoot`: /etc/hosts, the termination log) are copied under `work` now, while
 * the pod still has them.
 */
export async function captureTemplate(cri: CriClient, podName: string, agentRoot: string, work: string): Promise<FloorTemplate | string> {
  const { items } = await cri.listPodSandbox({ filter: { state: { state: 'SANDBOX_READY' }, labelSelector: { 'io.kubernetes.pod.name': podName } } });
  const sb = items[0];
  if (!sb) return `no ready sandbox of ${podName}`;
  const sandbox = configOf((await cri.podSandboxStatus({ podSandboxId: sb.id, verbose: true })).info);
  const { containers } = await cri.listContainers({ filter: { podSandboxId: sb.id } });
  const c = containers[0];
  const container = c ? configOf((await cri.containerStatus({ containerId: c.id, verbose: true })).info) : undefined;
  if (!sandbox || !container) return 'the runtime\'s verbose status has no config';
  const t = { sandbox: fromGoJson(sandbox) as Json, container: fromGoJson(container) as Json };
  const dir = join(work, 'template');
  mkdirSync(dir, { recursive: true });
  t.container.mounts = ((t.container.mounts ?? []) as Json[]).map((m, i) => {
    if (typeof m.hostPath !== 'string' || !m.hostPath.startsWith(`${agentRoot}/`)) return m;
    const copy = join(dir, `mount-${i}`);
    cpSync(m.hostPath, copy, { recursive: statSync(m.hostPath).isDirectory() });
    return { ...m, hostPath: copy };
  });
  return t;
}

/**
 * The template's labels without the kubelet's (`io.kubernetes.*`): a sandbox carrying them would be a pod the agent
 * does not know, which its housekeeping stops (the minimal floor carried none either).
 */
const unlabel = (labels: unknown): Json => Object.fromEntries(Object.entries((labels ?? {}) as Json).filter(([k]) => !k.startsWith('io.kubernetes.')));

/**
 * One pod's requests from the template: new name, uid, hostname and log directory; the cgroup parent under
 * `cgroupRoot` (a cgroupfs path, created here in every hierarchy, as the agent creates the pod cgroup before its
 * call); each file the agent mounted from its root dir copied again under `work` (the agent writes them before
 * CreateContainer).
 */
export function instantiate(t: FloorTemplate, name: string, uid: string, work: string, cgroupRoot: string): { sandbox: Json; container: Json } {
  const sandbox = structuredClone(t.sandbox);
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  sandbox.metadata = { name, namespace: 'bench-raw', uid, attempt: 0 };
  if (sandbox.hostname !== undefined) sandbox.hostname = name;
  sandbox.logDirectory = dir;
  sandbox.labels = unlabel(sandbox.labels);
  const linux = (sandbox.linux ?? {}) as Json;
  if (typeof linux.cgroupParent === 'string' && linux.cgroupParent !== '' && !linux.cgroupParent.endsWith('.slice')) {
    linux.cgroupParent = `${cgroupRoot}/pod${uid}`;
    for (const m of cgroupRoots()) mkdirSync(`${m}${linux.cgroupParent}`, { recursive: true });
  }
  const container = structuredClone(t.container);
  container.labels = unlabel(container.labels);
  container.mounts = ((container.mounts ?? []) as Json[]).map((m, i) => {
    if (typeof m.hostPath !== 'string' || !m.hostPath.startsWith(`${work}/template/`)) return m;
    const copy = join(dir, `mount-${i}`);
    cpSync(m.hostPath, copy, { recursive: statSync(m.hostPath).isDirectory() });
    return { ...m, hostPath: copy };
  });
  return { sandbox, container };
}
