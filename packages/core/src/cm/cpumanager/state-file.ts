/**
 * The checkpoint-backed CPU state (cpumanager/state/state_checkpoint.go v1.28): NewCheckpointState restores
 * `<dir>/cpu_manager_state` (a missing file is written fresh), refusing a file written under another policy
 * or one that does not parse or verify, with the kubelet's message naming the file; every later change is
 * written back whole (a temporary file renamed into place, mode 0600, as the kubelet's file store).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CPUSet } from '../topology/cpuset.ts';
import { decodeCpuCheckpoint, encodeCpuCheckpoint } from './checkpoint.ts';
import { CpuState, type CpuAssignments } from './state.ts';

/** cpuManagerStateFileName. */
export const CPU_MANAGER_STATE_FILE = 'cpu_manager_state';

export interface CheckpointStateOptions {
  /** Logged when a write fails (the kubelet logs "Failed to save checkpoint" and goes on). */
  onWriteError?: (err: unknown, file: string) => void;
}

export function openCheckpointState(stateDir: string, policyName: string, opts: CheckpointStateOptions = {}): CpuState {
  const file = path.join(stateDir, CPU_MANAGER_STATE_FILE);
  const write = (s: CpuState) => {
    try {
      const tmp = `${file}.tmp`;
      writeFileSync(tmp, encodeCpuCheckpoint(s.toCheckpoint(policyName)), { mode: 0o600 });
      renameSync(tmp, file);
    } catch (err) {
      opts.onWriteError?.(err, file);
    }
  };
  const state = new CpuState(write);
  if (!existsSync(file)) {
    write(state);
    return state;
  }
  try {
    restore(state, readFileSync(file, 'utf8'), policyName);
  } catch (err) {
    throw new Error(
      `could not restore state from checkpoint: ${(err as Error).message}, please drain this node and delete the CPU manager checkpoint file ${JSON.stringify(file)} before restarting Kubelet`,
    );
  }
  return state;
}

function restore(state: CpuState, text: string, policyName: string): void {
  const cp = decodeCpuCheckpoint(text);
  if (cp.policyName !== policyName) throw new Error(`configured policy ${JSON.stringify(policyName)} differs from state checkpoint policy ${JSON.stringify(cp.policyName)}`);
  let defaultSet: CPUSet;
  try {
    defaultSet = CPUSet.parse(cp.defaultCpuSet);
  } catch (err) {
    throw new Error(`could not parse default cpu set ${JSON.stringify(cp.defaultCpuSet)}: ${(err as Error).message}`);
  }
  const assignments: CpuAssignments = new Map();
  for (const [pod, containers] of Object.entries(cp.entries)) {
    const m = new Map<string, CPUSet>();
    for (const [container, cpus] of Object.entries(containers)) {
      try {
        m.set(container, CPUSet.parse(cpus));
      } catch (err) {
        throw new Error(`could not parse cpuset ${JSON.stringify(cpus)} for container ${JSON.stringify(container)} in pod ${JSON.stringify(pod)}: ${(err as Error).message}`);
      }
    }
    assignments.set(pod, m);
  }
  state.load(defaultSet, assignments);
}
