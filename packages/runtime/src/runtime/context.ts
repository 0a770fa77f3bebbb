import type { ChildProcess } from 'node:child_process';
import type { ImageStoreApi } from '../images/types.ts';
import type { Cgroups } from '../linux/cgroups.ts';
import type { CriLogWriter } from '../logs/cri-log-writer.ts';
import type { StateStore } from '../state/store.ts';
import type { HostBinaries } from '../util/bins.ts';
import type { Logger } from '../util/logger.ts';
import type { EventHub } from './events.ts';
import type { PodNetwork } from '../network/pod-network.ts';
import type { SandboxFailureLog } from './sandbox-failures.ts';

/** A process this runtime is watching: its own child, or (after a restart) an adopted pid it polls. */
export interface Watched {
  child?: ChildProcess;
  poll?: NodeJS.Timeout;
  log?: CriLogWriter;
  /** Resolves once the exit has been recorded. */
  exited: Promise<void>;
}

/** Everything the sandbox / container operations share. */
export interface RuntimeContext {
  rootDir: string;
  store: StateStore;
  images: ImageStoreApi;
  cgroups: Cgroups | undefined;
  bins: HostBinaries;
  logger: Logger;
  events: EventHub;
  /** Running as root in the initial user namespace (else sandboxes get a user namespace). */
  privileged: boolean;
  /** Live processes by sandbox / container id. */
  sandboxProcs: Map<string, Watched>;
  containerProcs: Map<string, Watched>;
  /**
   * Containers whose StartContainer is in flight (containerd's "starting" state, in memory as there), each
   * with a promise that resolves once that start has settled (running, or failed and exited).
   */
  starting: Map<string, Promise<void>>;
  /** CNI for isolated sandboxes (disabled: loopback only). */
  network: PodNetwork;
  /** Sandbox failures the kubelet retries: logged once per pod and cause, then at debug. */
  sandboxFailures: SandboxFailureLog;
}
