import type { PodSandboxConfig__Output } from '../../../../proto/gen/runtime/v1/PodSandboxConfig.ts';
import type { ContainerConfig__Output } from '../../../../proto/gen/runtime/v1/ContainerConfig.ts';

export type SandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';

/** Which namespaces the sandbox holder created (containers join exactly these). */
export interface SandboxNamespaces {
  user: boolean;
  net: boolean;
  ipc: boolean;
  uts: boolean;
  pid: boolean;
}

/** A pod sandbox as persisted under <root>/sandboxes/<id>.json. */
export interface SandboxRecord {
  id: string;
  config: PodSandboxConfig__Output;
  runtimeHandler: string;
  state: SandboxState;
  createdAt: number;
  namespaces: SandboxNamespaces;
  /** Host pid of the holder (catatonit / sh) and its start time (pid reuse guard). */
  pausePid?: number;
  pauseStart?: number;
  ip: string;
  /** The sandbox's namespace was ADDed to the CNI bridge and not yet DELeted. */
  cni?: boolean;
  /** Cgroup path of the pod (cgroup_parent, or the runtime's default parent). */
  cgroupParent: string;
}

/** A container as persisted under <root>/containers/<id>.json. */
export interface ContainerRecord {
  id: string;
  sandboxId: string;
  config: ContainerConfig__Output;
  /** The image as the user asked for it, and the resolved image id. */
  image: string;
  imageId: string;
  state: ContainerState;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason: string;
  message: string;
  pid?: number;
  pidStart?: number;
  /** Absolute log file path ('' when no log_path). */
  logPath: string;
  cgroupPath: string;
  /** Resolved process spec. */
  argv: string[];
  env: Record<string, string>;
  workingDir: string;
  uid?: number;
  gid?: number;
  /** Supplementary groups set for the process (absent in records of older runtimes: the CRI list then). */
  groups?: number[];
  /** The seccomp BPF program (hex of struct sock_filter[]) loaded before the command; absent = none. */
  seccomp?: string;
  stopSignal: string;
}
