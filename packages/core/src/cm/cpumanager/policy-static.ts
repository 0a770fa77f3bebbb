/**
 * The static CPU manager policy (kubelet cpumanager/policy_static.go v1.28). Containers of Guaranteed pods with
 * an integer CPU request get CPUs of their own, taken out of the shared pool (the state's default set); every
 * other container runs on the shared pool. The reserved CPUs (reservedSystemCPUs, else
 * ceil(kubeReserved.cpu + systemReserved.cpu) taken by topology from the lowest cores) stay in the shared pool
 * and are never handed out. With a topology hint the CPUs of the hint's NUMA nodes are taken first.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { getPodQOS } from '../../api/qos.ts';
import { isRestartableInitContainer } from '../../api/pod-helpers.ts';
import { parseCpuMilli } from '../../util/quantity.ts';
import { CPUSet } from '../topology/cpuset.ts';
import { cpusPerCore, type CPUTopology } from '../topology/cpu-topology.ts';
import { AdmissionError, iterateBitMasks, type BitMask, type Store, type TopologyHint, type TopologyHints } from '../topologymanager/types.ts';
import { takeByTopologyNUMAPacked } from './cpu-assignment.ts';
import { POLICY_STATIC, type CpuPolicy } from './policy.ts';
import type { CpuState } from './state.ts';
import { parseStaticPolicyOptions, type StaticPolicyOptions } from './policy-options.ts';

/** ErrorSMTAlignment: the admission reason of an SMTAlignmentError. */
export const ERROR_SMT_ALIGNMENT = 'SMTAlignmentError';

export class StaticPolicy implements CpuPolicy {
  readonly name = POLICY_STATIC;
  readonly reserved: CPUSet;
  readonly options: StaticPolicyOptions;
  private readonly reservedPhysicalCPUs: CPUSet;
  /** CPUs of a pod's init containers that its later containers may reuse (cpusToReuse). */
  private readonly cpusToReuse = new Map<string, CPUSet>();

  constructor(
    readonly topology: CPUTopology,
    numReservedCPUs: number,
    reservedCPUs: CPUSet,
    private readonly affinity: Store | undefined,
    options: Record<string, string> = {},
  ) {
    this.options = parseStaticPolicyOptions(options);
    let reserved = reservedCPUs;
    if (reserved.size() === 0) {
      // takeByTopology takes the low-numbered cores: 8 CPUs with HT and numReservedCPUs=2 → {0,4}.
      try {
        reserved = this.takeByTopology(topology.cpuDetails.cpus(), numReservedCPUs);
      } catch {
        reserved = CPUSet.of();
      }
    }
    if (reserved.size() !== numReservedCPUs) {
      throw new Error(`[cpumanager] unable to reserve the required amount of CPUs (size of ${reserved.toString()} did not equal ${numReservedCPUs})`);
    }
    this.reserved = reserved;
    // Under full-pcpus-only the siblings of reserved CPUs are not available either.
    this.reservedPhysicalCPUs = CPUSet.of().union(...reserved.list().map((cpu) => topology.cpuDetails.cpusInCores(topology.cpuDetails.get(cpu)?.coreId ?? -1)));
  }

  start(s: CpuState): void {
    this.validateState(s);
  }

  private validateState(s: CpuState): void {
    const assignments = s.getCPUAssignments();
    const defaultSet = s.getDefaultCPUSet();
    const all = this.topology.cpuDetails.cpus();
    if (defaultSet.isEmpty()) {
      if (assignments.size !== 0) throw new Error('default cpuset cannot be empty');
      s.setDefaultCPUSet(all);
      return;
    }
    if (!this.reserved.intersection(defaultSet).equals(this.reserved)) {
      throw new Error(`not all reserved cpus: "${this.reserved.toString()}" are present in defaultCpuSet: "${defaultSet.toString()}"`);
    }
    let known = defaultSet;
    for (const [pod, containers] of assignments) {
      for (const [container, cset] of containers) {
        if (!defaultSet.intersection(cset).isEmpty()) {
          throw new Error(`pod: ${pod}, container: ${container} cpuset: "${cset.toString()}" overlaps with default cpuset "${defaultSet.toString()}"`);
        }
        known = known.union(cset);
      }
    }
    if (!known.equals(all)) throw new Error(`current set of available CPUs "${all.toString()}" doesn't match with CPUs in state "${known.toString()}"`);
  }

  reservedCPUs(): CPUSet {
    return this.reserved;
  }

  getAllocatableCPUs(): CPUSet {
    return this.topology.cpuDetails.cpus().difference(this.reserved);
  }

  /** The shared pool without the reserved CPUs. */
  getAvailableCPUs(s: CpuState): CPUSet {
    return s.getDefaultCPUSet().difference(this.reserved);
  }

  allocate(s: CpuState, pod: V1Pod, container: V1Container): void {
    const numCPUs = this.guaranteedCPUs(pod, container);
    if (numCPUs === 0) return; // the shared pool
    const uid = pod.metadata?.uid ?? '';
    if (this.options.fullPhysicalCPUsOnly) {
      const perCore = cpusPerCore(this.topology);
      if (numCPUs % perCore !== 0) throw new AdmissionError(ERROR_SMT_ALIGNMENT, `SMT Alignment Error: requested ${numCPUs} cpus not multiple cpus per core = ${perCore}`);
      const available = s.getDefaultCPUSet().difference(this.reservedPhysicalCPUs).size();
      if (numCPUs > available) {
        throw new AdmissionError(ERROR_SMT_ALIGNMENT, `SMT Alignment Error: not enough free physical CPUs: available physical CPUs = ${available}, requested CPUs = ${numCPUs}, CPUs per core = ${perCore}`);
      }
    }
    const existing = s.getCPUSet(uid, container.name);
    if (existing) {
      this.updateCPUsToReuse(pod, container, existing);
      return;
    }
    const hint = this.affinity?.getAffinity(uid, container.name) ?? { numaNodeAffinity: null, preferred: false };
    const cpus = this.allocateCPUs(s, numCPUs, hint.numaNodeAffinity, this.cpusToReuse.get(uid) ?? CPUSet.of());
    s.setCPUSet(uid, container.name, cpus);
    this.updateCPUsToReuse(pod, container, cpus);
  }

  removeContainer(s: CpuState, podUid: string, containerName: string): void {
    const inUse = CPUSet.of().union(...[...(s.getCPUAssignments().get(podUid) ?? new Map<string, CPUSet>())].filter(([name]) => name !== containerName).map(([, c]) => c));
    const toRelease = s.getCPUSet(podUid, containerName);
    if (!toRelease) return;
    s.delete(podUid, containerName);
    s.setDefaultCPUSet(s.getDefaultCPUSet().union(toRelease.difference(inUse)));
  }

  /** allocateCPUs: the hint's NUMA nodes first, then the rest by topology; the result leaves the shared pool. */
  private allocateCPUs(s: CpuState, numCPUs: number, numaAffinity: BitMask | null, reusable: CPUSet): CPUSet {
    const allocatable = this.getAvailableCPUs(s).union(reusable);
    let result = CPUSet.of();
    if (numaAffinity) {
      const aligned = allocatable.intersection(this.topology.cpuDetails.cpusInNUMANodes(...numaAffinity.getBits()));
      result = result.union(this.takeByTopology(aligned, Math.min(numCPUs, aligned.size())));
    }
    result = result.union(this.takeByTopology(allocatable.difference(result), numCPUs - result.size()));
    s.setDefaultCPUSet(s.getDefaultCPUSet().difference(result));
    return result;
  }

  private takeByTopology(available: CPUSet, numCPUs: number): CPUSet {
    return takeByTopologyNUMAPacked(this.topology, available, numCPUs);
  }

  private updateCPUsToReuse(pod: V1Pod, container: V1Container, cset: CPUSet): void {
    const uid = pod.metadata?.uid ?? '';
    for (const other of [...this.cpusToReuse.keys()]) if (other !== uid) this.cpusToReuse.delete(other);
    const current = this.cpusToReuse.get(uid) ?? CPUSet.of();
    const init = (pod.spec?.initContainers ?? []).find((c) => c.name === container.name);
    // A restartable init container (sidecar) runs beside the app containers: its CPUs are not reused.
    if (init && !isRestartableInitContainer(init)) this.cpusToReuse.set(uid, current.union(cset));
    else this.cpusToReuse.set(uid, current.difference(cset));
  }

  /** guaranteedCPUs: the integer CPU request of a container of a Guaranteed pod, else 0. */
  guaranteedCPUs(pod: V1Pod, container: V1Container): number {
    if (getPodQOS(pod) !== 'Guaranteed') return 0;
    const q = container.resources?.requests?.['cpu'] ?? container.resources?.limits?.['cpu'];
    if (q === undefined) return 0;
    const milli = parseCpuMilli(q);
    return milli % 1000 === 0 ? milli / 1000 : 0;
  }

  /** podGuaranteedCPUs: max(init containers' peak, app containers + sidecars), as pod admission counts. */
  podGuaranteedCPUs(pod: V1Pod): number {
    const hasCpu = (c: V1Container) => c.resources?.requests?.['cpu'] !== undefined || c.resources?.limits?.['cpu'] !== undefined;
    let byInit = 0;
    let bySidecars = 0;
    for (const c of (pod.spec?.initContainers ?? []).filter(hasCpu)) {
      const n = this.guaranteedCPUs(pod, c);
      if (isRestartableInitContainer(c)) bySidecars += n;
      else if (bySidecars + n > byInit) byInit = bySidecars + n;
    }
    const byApps = (pod.spec?.containers ?? []).filter(hasCpu).reduce((sum, c) => sum + this.guaranteedCPUs(pod, c), 0);
    return Math.max(byInit, byApps + bySidecars);
  }

  getTopologyHints(s: CpuState, pod: V1Pod, container: V1Container): TopologyHints {
    const requested = this.guaranteedCPUs(pod, container);
    if (requested === 0) return null;
    const allocated = s.getCPUSet(pod.metadata?.uid ?? '', container.name);
    if (allocated) {
      // After a restart: the same hints again, or none that can be satisfied when the request changed.
      return { cpu: allocated.size() !== requested ? [] : this.generateCPUTopologyHints(allocated, CPUSet.of(), requested) };
    }
    return { cpu: this.generateCPUTopologyHints(this.getAvailableCPUs(s), this.cpusToReuse.get(pod.metadata?.uid ?? '') ?? CPUSet.of(), requested) };
  }

  getPodTopologyHints(s: CpuState, pod: V1Pod): TopologyHints {
    const requested = this.podGuaranteedCPUs(pod);
    if (requested === 0) return null;
    const uid = pod.metadata?.uid ?? '';
    let assigned = CPUSet.of();
    for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
      const allocated = s.getCPUSet(uid, c.name);
      if (!allocated) continue;
      if (allocated.size() !== this.guaranteedCPUs(pod, c)) return { cpu: [] };
      assigned = assigned.union(allocated);
    }
    if (assigned.size() === requested) return { cpu: this.generateCPUTopologyHints(assigned, CPUSet.of(), requested) };
    const reusable = (this.cpusToReuse.get(uid) ?? CPUSet.of()).union(assigned);
    return { cpu: this.generateCPUTopologyHints(this.getAvailableCPUs(s), reusable, requested) };
  }

  /**
   * generateCPUTopologyHints: one hint per NUMA node combination with enough available (plus reusable) CPUs;
   * those as narrow as the narrowest combination that could ever hold the request are preferred.
   */
  generateCPUTopologyHints(available: CPUSet, reusable: CPUSet, request: number): TopologyHint[] {
    const details = this.topology.cpuDetails;
    let minAffinitySize = details.numaNodes().size();
    const hints: TopologyHint[] = [];
    iterateBitMasks(details.numaNodes().list(), (mask) => {
      if (details.cpusInNUMANodes(...mask.getBits()).size() >= request && mask.count() < minAffinitySize) minAffinitySize = mask.count();
      let matching = 0;
      for (const c of reusable.list()) {
        if (!mask.isSet(details.get(c)?.numaNodeId ?? -1)) return;
        matching++;
      }
      for (const c of available.list()) if (mask.isSet(details.get(c)?.numaNodeId ?? -1)) matching++;
      if (matching < request) return;
      hints.push({ numaNodeAffinity: mask, preferred: false });
    });
    return hints.map((h) => ({ ...h, preferred: h.numaNodeAffinity!.count() === minAffinitySize }));
  }
}

