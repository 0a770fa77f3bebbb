/** @nodelet/core/events: the typed bus events (what the agent streams to the console). */
export { InMemoryEventBus } from './bus.ts';
export { eventMatches, eventPodRef } from './types.ts';
export type {
  DecisionBusEvent,
  DeviceBusEvent,
  EventBus,
  EventFilter,
  GcBusEvent,
  K8sBusEvent,
  NodeletEvent,
  NodeletEventInput,
  NodeletEventType,
  PlegBusEvent,
  PodConfigBusEvent,
  PodStatusBusEvent,
  PressureBusEvent,
  ProbeBusEvent,
  RuntimeBusEvent,
  ShutdownBusEvent,
} from './types.ts';
export type { ShutdownGroupProgress, ShutdownPhase, ShutdownPodProgress, ShutdownProgress } from '../kubelet/node-shutdown-types.ts';
/** "Why isn't my pod running?": the plain explanation of a pod's status (the tail derives it from podStatus events). */
export { explainPod, type PodWhy, type WhyEvent, type WhyFacts, type WhyProbe } from '../status/pod-why.ts';
