/** @nodelet/core: the kubelet's managers. The agent builds everything through createKubelet. */
export { createKubelet, Kubelet } from './kubelet/kubelet.ts';
export type { KubeletConfig, KubeletDeps } from './kubelet/config.ts';
export type {
  ContainerLogOptions,
  HealthCheck,
  HealthReport,
  KubeletApi,
  LogsResult,
  NodeSummary,
} from './kubelet/types.ts';
export type * from './events/types.ts';
export { eventMatches, eventPodRef } from './events/types.ts';
export { InMemoryEventBus } from './events/bus.ts';
export type { Clock, TimerHandle } from './util/clock.ts';
export { realClock, FakeClock } from './util/clock.ts';
export type { Logger, LogLevel, LogRecord } from './util/logger.ts';
export { createLogger, nullLogger, RecordingLogger } from './util/logger.ts';
export type { CriClient } from './cri/types.ts';
export { CriError } from './cri/types.ts';
export { createCriClient } from './cri/client.ts';
export type { RuntimeMetrics } from './kuberuntime/types.ts';
export { CONTAINER_BACKOFF, IMAGE_BACKOFF, type BackoffConfig } from './util/backoff.ts';
export { nodeRuntimeFs } from './kubelet/node-fs.ts';
export { nodeTerminationMessageFs } from './kubelet/termination-message-fs.ts';
