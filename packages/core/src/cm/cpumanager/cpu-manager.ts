/**
 * The CPU manager (kubelet pkg/kubelet/cm/cpumanager/cpu_manager.go v1.28): the policy's allocations at pod
 * admission (a topology manager hint provider), the container's CPUs at creation (PreCreateContainer puts them
 * in the CRI config's cpuset_cpus) and a reconcile loop that moves running containers onto their CPUs with CRI
 * UpdateContainerResources whenever the shared pool changes. Allocations of containers whose pod is no longer
 * active are released (removeStaleState) before every allocation and reconcile. State lives in
 * `<root-dir>/cpu_manager_state` (state-file.ts).
 */
import type { V1Container, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { Clock, TimerHandle } from '../../util/clock.ts';
import type { Logger } from '../../util/logger.ts';
import type { PodAdmitHandler, PodAdmitResult } from '../../lifecycle/types.ts';
import { UnexpectedAdmissionError } from '../../lifecycle/predicate-admit.ts';
import { CPUSet } from '../topology/cpuset.ts';
import { AdmissionError, type HintProvider, type TopologyHints } from '../topologymanager/types.ts';
import type { CpuPolicy } from './policy.ts';
import { CpuState } from './state.ts';
import { openCheckpointState } from './state-file.ts';

/** The CRI call the reconcile loop makes (UpdateContainerResources with linux.cpuset_cpus only). */
export type UpdateContainerCpuset = (containerId: string, cpus: CPUSet) => Promise<void>;

export interface CpuManagerDeps {
  policy: CpuPolicy;
  clock: Clock;
  logger: Logger;
  /** `<root-dir>` (the state file's directory). */
  stateDir: string;
  /** cpuManagerReconcilePeriod (default 10 s). */
  reconcilePeriodMs: number;
  /** The kubelet's active pods (GetActivePods). */
  activePods: () => V1Pod[];
  sourcesReady: () => boolean;
  /** The pod's latest status (container ids and states) as the status manager has it. */
  podStatus: (uid: string) => V1PodStatus | undefined;
  updateContainerCpuset: UpdateContainerCpuset;
  /** Every online CPU (the machine topology), for snapshot(). */
  onlineCPUs?: CPUSet;
  metrics?: CpuManagerMetrics;
}

/** The kubelet's CPU manager metrics (static policy Allocate). */
export interface CpuManagerMetrics {
  cpuManagerPinningRequests: { inc(): void };
  cpuManagerPinningErrors: { inc(): void };
}

export interface ReconciledContainer {
  podName: string;
  containerName: string;
  containerId: string;
}

export class CpuManager implements HintProvider {
  private state = new CpuState();
  /** The CPUs each container was last given through the runtime (lastUpdateState). */
  private readonly lastUpdate = new CpuState();
  /** Container id → pod uid and container name (containerMap). */
  private readonly containerMap = new Map<string, { podUid: string; containerName: string }>();
  private pendingAdmissionPod: V1Pod | undefined;
  private allocatableCPUs = CPUSet.of();
  private timer: TimerHandle | undefined;

  constructor(private readonly deps: CpuManagerDeps) {}

  get policyName(): string {
    return this.deps.policy.name;
  }

  /** Start: restore and validate the state (throws the kubelet's error, naming the file), then reconcile. */
  start(): void {
    const { policy, logger, stateDir } = this.deps;
    logger.info('Starting CPU manager', { policy: policy.name });
    this.state = openCheckpointState(stateDir, policy.name, { onWriteError: (err, file) => logger.error('Failed to save checkpoint', { file, err: String(err) }) });
    policy.start(this.state);
    this.allocatableCPUs = policy.getAllocatableCPUs(this.state);
    if (policy.name === 'none') return;
    logger.info('Reconciling', { reconcilePeriod: `${this.deps.reconcilePeriodMs / 1000}s` });
    this.timer = this.deps.clock.setInterval(() => void this.reconcileState(), this.deps.reconcilePeriodMs);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  // ---- hint provider ------------------------------------------------------------------------------

  allocate(pod: V1Pod, container: V1Container): void {
    this.setPendingAdmission(pod);
    this.removeStaleState();
    const pinning = this.deps.policy.guaranteedCPUs(pod, container) > 0;
    if (pinning) this.deps.metrics?.cpuManagerPinningRequests.inc();
    try {
      this.deps.policy.allocate(this.state, pod, container);
    } catch (err) {
      if (pinning) this.deps.metrics?.cpuManagerPinningErrors.inc();
      throw err;
    }
  }

  getTopologyHints(pod: V1Pod, container: V1Container): TopologyHints {
    this.setPendingAdmission(pod);
    this.removeStaleState();
    return this.deps.policy.getTopologyHints(this.state, pod, container);
  }

  getPodTopologyHints(pod: V1Pod): TopologyHints {
    this.setPendingAdmission(pod);
    this.removeStaleState();
    return this.deps.policy.getPodTopologyHints(this.state, pod);
  }

  /**
   * Admission on its own (no topology manager wired): allocate every init and app container in order; a
   * failure refuses the pod as cm/admission GetPodAdmitResult (UnexpectedAdmissionError unless it has a reason).
   */
  readonly admitHandler: PodAdmitHandler = {
    name: 'cpumanager',
    admit: ({ pod }) => {
      for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
        try {
          this.allocate(pod, c);
        } catch (err) {
          return admitFailure(err);
        }
      }
      return { admit: true };
    },
  };

  // ---- container lifecycle ------------------------------------------------------------------------

  /** PreCreateContainer: the CPUs to put in the container's cpuset_cpus ('' = leave it unset). */
  cpusetForContainer(podUid: string, containerName: string): string {
    return this.getCPUAffinity(podUid, containerName).toString();
  }

  /** PreStartContainer (AddContainer): remember the container id; exclusive CPUs count as applied. */
  addContainer(pod: V1Pod, container: V1Container, containerId: string): void {
    const uid = pod.metadata?.uid ?? '';
    const cset = this.state.getCPUSet(uid, container.name);
    if (cset) this.lastUpdate.setCPUSet(uid, container.name, cset);
    this.containerMap.set(containerId, { podUid: uid, containerName: container.name });
  }

  /** RemoveContainer by id: the policy releases the container's exclusive CPUs. */
  removeContainer(containerId: string): void {
    const ref = this.containerMap.get(containerId);
    if (!ref) return;
    this.removeContainerByRef(ref.podUid, ref.containerName);
  }

  getCPUAffinity(podUid: string, containerName: string): CPUSet {
    return this.state.getCPUSetOrDefault(podUid, containerName);
  }

  /** GetExclusiveCPUs (pod resources API): the container's own CPUs, or none. */
  getExclusiveCPUs(podUid: string, containerName: string): CPUSet {
    return this.state.getCPUSet(podUid, containerName) ?? CPUSet.of();
  }

  /** GetAllocatableCPUs: the CPUs exclusive allocations come from (none under policy none). */
  getAllocatableCPUs(): CPUSet {
    return this.allocatableCPUs;
  }

  /**
   * For status pages: the online CPUs, the shared pool (under none: every CPU), the reserved CPUs and the
   * exclusive assignments (pod uid → container → CPUs).
   */
  snapshot(): { policy: string; online: CPUSet; shared: CPUSet; reserved: CPUSet; assignments: Map<string, Map<string, CPUSet>> } {
    const online = this.deps.onlineCPUs ?? CPUSet.of();
    const none = this.deps.policy.name === 'none';
    return { policy: this.deps.policy.name, online, shared: none ? online : this.state.getDefaultCPUSet(), reserved: this.deps.policy.reservedCPUs(), assignments: this.state.getCPUAssignments() };
  }

  private removeContainerByRef(podUid: string, containerName: string): void {
    this.deps.policy.removeContainer(this.state, podUid, containerName);
    for (const [id, ref] of this.containerMap) if (ref.podUid === podUid && ref.containerName === containerName) this.containerMap.delete(id);
    this.lastUpdate.delete(podUid, containerName);
  }

  /**
   * The pod being admitted counts as active for removeStaleState. Nodelet admits synchronously, so it is
   * forgotten once the admission's turn is over (the kubelet keeps it until the next admission, which holds a
   * deleted last-admitted pod's CPUs until then).
   */
  private setPendingAdmission(pod: V1Pod): void {
    this.pendingAdmissionPod = pod;
    queueMicrotask(() => {
      if (this.pendingAdmissionPod === pod) this.pendingAdmissionPod = undefined;
    });
  }

  /** removeStaleState: once every source is ready, free what containers of pods no longer active hold. */
  private removeStaleState(): void {
    if (!this.deps.sourcesReady()) return;
    const active = new Map<string, Set<string>>();
    for (const pod of [...this.deps.activePods(), ...(this.pendingAdmissionPod ? [this.pendingAdmissionPod] : [])]) {
      active.set(pod.metadata?.uid ?? '', new Set([...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name)));
    }
    const stale = new Map<string, [string, string]>();
    const mark = (pod: string, c: string) => active.get(pod)?.has(c) || stale.set(`${pod}/${c}`, [pod, c]);
    for (const [pod, containers] of this.state.getCPUAssignments()) for (const c of containers.keys()) mark(pod, c);
    for (const { podUid, containerName } of this.containerMap.values()) mark(podUid, containerName);
    for (const [pod, c] of stale.values()) {
      this.deps.logger.info('RemoveStaleState: removing container', { podUID: pod, containerName: c });
      this.removeContainerByRef(pod, c);
    }
  }

  /**
   * reconcileState: every running container of an active pod gets its CPUs (its own, else the shared pool)
   * through the runtime when they differ from what it was last given; waiting and terminated ones are skipped.
   */
  async reconcileState(): Promise<{ success: ReconciledContainer[]; failure: ReconciledContainer[] }> {
    const success: ReconciledContainer[] = [];
    const failure: ReconciledContainer[] = [];
    this.removeStaleState();
    for (const pod of this.deps.activePods()) {
      const uid = pod.metadata?.uid ?? '';
      const podName = pod.metadata?.name ?? '';
      const status = this.deps.podStatus(uid);
      if (!status) {
        failure.push({ podName, containerName: '', containerId: '' });
        continue;
      }
      const statuses = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])];
      for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
        const cs = statuses.find((s) => s.name === c.name);
        const containerId = (cs?.containerID ?? '').replace(/^[^:]*:\/\//, '');
        if (!cs || !containerId || cs.state?.waiting || !(cs.state?.running || cs.state?.terminated)) {
          failure.push({ podName, containerName: c.name, containerId: '' });
          continue;
        }
        // A terminated container keeps its CPUs: it may be restarted.
        if (cs.state?.terminated) continue;
        this.containerMap.set(containerId, { podUid: uid, containerName: c.name });
        const cset = this.state.getCPUSetOrDefault(uid, c.name);
        if (cset.isEmpty()) {
          failure.push({ podName, containerName: c.name, containerId });
          continue;
        }
        if (!cset.equals(this.lastUpdate.getCPUSetOrDefault(uid, c.name))) {
          try {
            await this.deps.updateContainerCpuset(containerId, cset);
          } catch (err) {
            this.deps.logger.error('ReconcileState: failed to update container', { pod: podName, containerName: c.name, containerID: containerId, cpuSet: cset.toString(), err: String(err) });
            failure.push({ podName, containerName: c.name, containerId });
            continue;
          }
          this.lastUpdate.setCPUSet(uid, c.name, cset);
        }
        success.push({ podName, containerName: c.name, containerId });
      }
    }
    return { success, failure };
  }
}

/** GetPodAdmitResult: an AdmissionError keeps its reason, anything else is unexpected. */
export function admitFailure(err: unknown): PodAdmitResult {
  if (err instanceof AdmissionError) return { admit: false, reason: err.reason, message: err.message };
  return { admit: false, reason: UnexpectedAdmissionError, message: `Allocate failed due to ${(err as Error).message ?? String(err)}, which is unexpected` };
}
