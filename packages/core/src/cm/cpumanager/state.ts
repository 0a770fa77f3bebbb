/**
 * The CPU manager's state (cpumanager/state v1.28): the default (shared) CPU set and the exclusive CPU sets per
 * pod and container. `onChange` runs after every change (the checkpoint-backed state writes the file then,
 * as stateCheckpoint's setters and Delete do).
 */
import { CPUSet } from '../topology/cpuset.ts';
import type { CpuCheckpoint, CpuEntries } from './checkpoint.ts';

export type CpuAssignments = Map<string, Map<string, CPUSet>>;

export class CpuState {
  private assignments: CpuAssignments = new Map();
  private defaultSet = CPUSet.of();

  constructor(private readonly onChange: (s: CpuState) => void = () => {}) {}

  getCPUSet(podUid: string, containerName: string): CPUSet | undefined {
    return this.assignments.get(podUid)?.get(containerName);
  }

  getDefaultCPUSet(): CPUSet {
    return this.defaultSet;
  }

  getCPUSetOrDefault(podUid: string, containerName: string): CPUSet {
    return this.getCPUSet(podUid, containerName) ?? this.defaultSet;
  }

  /** A copy: pod uid → container → CPUs. */
  getCPUAssignments(): CpuAssignments {
    return new Map([...this.assignments].map(([pod, m]) => [pod, new Map(m)]));
  }

  setCPUSet(podUid: string, containerName: string, cpus: CPUSet): void {
    const m = this.assignments.get(podUid) ?? new Map<string, CPUSet>();
    m.set(containerName, cpus);
    this.assignments.set(podUid, m);
    this.onChange(this);
  }

  setDefaultCPUSet(cpus: CPUSet): void {
    this.defaultSet = cpus;
    this.onChange(this);
  }

  setCPUAssignments(a: CpuAssignments): void {
    this.assignments = new Map([...a].map(([pod, m]) => [pod, new Map(m)]));
    this.onChange(this);
  }

  delete(podUid: string, containerName: string): void {
    const m = this.assignments.get(podUid);
    if (!m) return;
    m.delete(containerName);
    if (m.size === 0) this.assignments.delete(podUid);
    this.onChange(this);
  }

  clearState(): void {
    this.assignments = new Map();
    this.defaultSet = CPUSet.of();
    this.onChange(this);
  }

  toCheckpoint(policyName: string): CpuCheckpoint {
    const entries: CpuEntries = {};
    for (const [pod, m] of this.assignments) entries[pod] = Object.fromEntries([...m].map(([c, s]) => [c, s.toString()]));
    return { policyName, defaultCpuSet: this.defaultSet.toString(), entries };
  }

  /** Loads a restored checkpoint without writing it back. */
  load(defaultSet: CPUSet, assignments: CpuAssignments): void {
    this.defaultSet = defaultSet;
    this.assignments = assignments;
  }
}
