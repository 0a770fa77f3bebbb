/** The topology and memory managers' settings in KubeletConfig (here so config.ts and their wiring share them without a cycle). */
import type { MemoryReservation } from '../cm/memorymanager/reserved.ts';

/** topologyManagerPolicy (none), topologyManagerScope (container), topologyManagerPolicyOptions. */
export interface TopologyManagerSettings {
  policy?: string;
  scope?: string;
  policyOptions?: Record<string, string>;
}

/** memoryManagerPolicy (None), reservedMemory. */
export interface MemoryManagerSettings {
  policy?: string;
  reservedMemory?: MemoryReservation[];
}
