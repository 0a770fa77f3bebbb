/**
 * A container GC under test: the recording FakeRuntime filled from templates as the kubelet's GC tests build
 * theirs (makeGCContainer / makeGCSandbox in pkg/kubelet/kuberuntime/kuberuntime_gc_test.go: a pod's UID is its
 * name, creation times in seconds since the epoch or 'now'), a FakePodState, a FakeClock and an in-memory GcFs.
 */
import { FakeClock } from '../../util/clock.ts';
import { nullLogger } from '../../util/logger.ts';
import { FakeRuntime, HOST_IMAGE } from '../../cri/testing/fake-runtime.ts';
import { FakePodState } from '../../testing/fake-pod-state.ts';
import { ContainerGc, DEFAULT_CONTAINER_GC_POLICY, type ContainerGcPolicy, type GcFs } from '../container-gc.ts';

export const HOUR_MS = 3_600_000;

export interface ContainerTemplate {
  pod: string;
  name: string;
  attempt: number;
  /** Seconds since the epoch, or 'now' (the clock's time). */
  createdAt: number | 'now';
  state: 'EXITED' | 'RUNNING' | 'UNKNOWN';
  sandboxAttempt?: number;
}

export interface SandboxTemplate {
  pod: string;
  attempt: number;
  state: 'READY' | 'NOTREADY';
  createdAt: number;
}

export const gcContainer = (pod: string, name: string, attempt: number, createdAt: number | 'now', state: ContainerTemplate['state']): ContainerTemplate => ({
  pod,
  name,
  attempt,
  createdAt,
  state,
});

export const gcSandbox = (pod: string, attempt: number, state: SandboxTemplate['state'], createdAt: number): SandboxTemplate => ({ pod, attempt, state, createdAt });

/** Files (path → size) and directories under a fake /var/log/pods. */
export class MemoryGcFs implements GcFs {
  readonly files = new Map<string, number>();
  readonly dirs: string[] = [];
  readonly removedDirs: string[] = [];

  async size(p: string): Promise<number> {
    const s = this.files.get(p);
    if (s === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
    return s;
  }

  async remove(p: string): Promise<void> {
    this.files.delete(p);
  }

  async removeAll(p: string): Promise<void> {
    this.removedDirs.push(p);
  }

  /** The pod directories pushed to `dirs`, and the names of the files directly in `p`. */
  async readDir(p: string): Promise<string[]> {
    const inDir = [...this.files.keys()].filter((f) => f.startsWith(`${p}/`) && !f.slice(p.length + 1).includes('/'));
    return [...this.dirs, ...inDir.map((f) => f.slice(p.length + 1))];
  }
}

export interface GcWorldOptions {
  policy?: Partial<ContainerGcPolicy>;
  allSourcesReady?: boolean;
  podLogsDir?: string;
  /** The internal lifecycle's PostStopContainer (called before each RemoveContainer). */
  postStopContainer?: (containerId: string) => void;
}

export async function gcWorld(containers: ContainerTemplate[], sandboxes: SandboxTemplate[] = [], o: GcWorldOptions = {}) {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock });
  const podState = new FakePodState();
  const fs = new MemoryGcFs();
  const podLogsDir = o.podLogsDir ?? '/var/log/pods';
  const sandboxIds = new Map<string, string>();
  const sandboxOf = async (pod: string, attempt: number): Promise<string> => {
    const key = `${pod}#${attempt}`;
    const known = sandboxIds.get(key);
    if (known) return known;
    const metadata = { name: pod, uid: pod, namespace: 'test-ns', attempt };
    const { podSandboxId } = await cri.runPodSandbox({ config: { metadata, logDirectory: `${podLogsDir}/test-ns_${pod}_${pod}` } });
    sandboxIds.set(key, podSandboxId);
    return podSandboxId;
  };
  const sandboxList: string[] = [];
  for (const s of sandboxes) {
    const id = await sandboxOf(s.pod, s.attempt);
    const sb = cri.sandboxes.get(id);
    if (sb) Object.assign(sb, { state: s.state === 'READY' ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY', createdAt: s.createdAt * 1e9 });
    sandboxList.push(id);
  }
  const containerList: string[] = [];
  for (const t of containers) {
    const podSandboxId = await sandboxOf(t.pod, t.sandboxAttempt ?? 0);
    const labels = { 'io.kubernetes.pod.uid': t.pod, 'io.kubernetes.pod.name': t.pod, 'io.kubernetes.pod.namespace': 'test-ns', 'io.kubernetes.container.name': t.name };
    const logPath = `${t.name}/${t.attempt}.log`;
    const { containerId } = await cri.createContainer({ podSandboxId, config: { metadata: { name: t.name, attempt: t.attempt }, image: { image: HOST_IMAGE }, labels, logPath } });
    fs.files.set(`${podLogsDir}/test-ns_${t.pod}_${t.pod}/${logPath}`, 100);
    await cri.startContainer({ containerId });
    const c = cri.containers.get(containerId);
    if (!c) throw new Error('fake runtime lost a container');
    if (t.state === 'EXITED') cri.exitContainer(containerId, { exitCode: 1 });
    if (t.state === 'UNKNOWN') c.state = 'CONTAINER_UNKNOWN';
    c.createdAt = t.createdAt === 'now' ? clock.now() * 1e6 : t.createdAt * 1e9;
    containerList.push(containerId);
  }
  cri.resetCalls();
  const gc = new ContainerGc(
    { cri, clock, logger: nullLogger, fs, podLogsDir, podState: () => podState, allSourcesReady: () => o.allSourcesReady ?? true, ...(o.postStopContainer ? { postStopContainer: o.postStopContainer } : {}) },
    { ...DEFAULT_CONTAINER_GC_POLICY, ...o.policy },
  );
  /** Template indexes of the containers / sandboxes still in the runtime. */
  const remainingContainers = () => containerList.flatMap((id, i) => (cri.containers.has(id) ? [i] : []));
  const remainingSandboxes = () => sandboxList.flatMap((id, i) => (cri.sandboxes.has(id) ? [i] : []));
  return { clock, cri, podState, fs, gc, containerList, remainingContainers, remainingSandboxes };
}
