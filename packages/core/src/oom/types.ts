/** OOM events from the kernel log (/dev/kmsg) or cgroup v2 memory.events, tied to pods and containers. */

export interface OomEvent {
  /** Epoch ms. */
  time: number;
  /** Victim pid; 0 when unknown (memory.events). */
  pid: number;
  processName: string;
  /** The victim's cgroup (task_memcg): '/kubepods/burstable/pod<uid>/<cid>', '/' when unknown. */
  taskCgroup: string;
  /** The cgroup whose limit was hit (oom_memcg); '/' for a system-wide OOM. */
  oomCgroup: string;
  /** CONSTRAINT_MEMCG, CONSTRAINT_NONE (system), CONSTRAINT_CPUSET, CONSTRAINT_MEMORY_POLICY. */
  constraint: string;
  source: 'kmsg' | 'memory.events';
  /** Filled when taskCgroup lies in the kubepods tree. */
  podUid?: string;
  containerId?: string;
}

/** One /dev/kmsg record: "<prio>,<seq>,<usec>,<flags>[,...];<message>". */
export interface KmsgRecord {
  priority: number;
  facility: number;
  seq: number;
  /** Microseconds since boot (monotonic). */
  timestampUsec: number;
  message: string;
}

/** Delivers raw kmsg records (one per call); start is idempotent; stop releases the device. */
export interface KmsgSource {
  start(onRecord: (raw: string) => void): void;
  stop(): void;
}

/** What the watcher tells the kubelet (the wiring records Events / marks containers). */
export interface OomSink {
  /** An OOM kill inside a pod's container cgroup. */
  containerOom?(e: OomEvent): void;
  /** Anything else: the kubelet records a Warning "SystemOOM" event on the Node. */
  systemOom?(e: OomEvent, message: string): void;
}
