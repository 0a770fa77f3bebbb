/** Types the console shares with the agent and core, all `import type` (erased at build time). */
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './app-router.ts';
import type { NodeletEventType } from '@nodelet/agent/types';

export type { V1Pod, V1PodStatus, V1ContainerStatus, V1ContainerState, V1PodCondition } from '@kubernetes/client-node';
export type {
  NodeletEvent,
  NodeletEventType,
  EventFilter,
  K8sBusEvent,
  PodStatusBusEvent,
  PodConfigBusEvent,
  PlegBusEvent,
  RuntimeBusEvent,
  ProbeBusEvent,
} from '@nodelet/agent/types';
export type { NodeSummary, HealthReport, HealthCheck } from '@nodelet/agent/types';
export type { DeviceBusEvent, NodeResourcesView, CpuResourcesView, MemoryResourcesView, NumaMemoryView, DeviceResourceView, DeviceView, ContainerRef } from '@nodelet/agent/types';

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type NodeInfo = RouterOutputs['node']['get'];
export type PodDetail = RouterOutputs['pods']['get'];

/** Pods as they arrive over JSON (tRPC infers the serialized shape: Date fields are strings). */
export type WirePod = RouterOutputs['pods']['list'][number];
export type WirePodStatus = NonNullable<WirePod['status']>;
export type WireContainerStatus = NonNullable<WirePodStatus['containerStatuses']>[number];
export type WireContainerState = NonNullable<WireContainerStatus['state']>;
export type WirePodCondition = NonNullable<WirePodStatus['conditions']>[number];

export const EVENT_TYPES = ['pleg', 'podStatus', 'podConfig', 'probe', 'k8sEvent', 'runtime', 'pressure', 'gc', 'shutdown', 'device'] as const satisfies readonly NodeletEventType[];

export type { ProbeWorkerInfo } from '@nodelet/agent/types';
export type { ProbeResult, ProbeType } from '@nodelet/agent/types';
export type { MetricsMessage } from '@nodelet/agent/types';
export type { ContainerSample, MachineInfo, CpuSample, MemorySample, InterfaceSample } from '@nodelet/agent/types';
export type { StatsContainer, ProcessInfo, CgroupStatus } from '@nodelet/agent/types';
export type { PodStats, FsStats } from '@nodelet/agent/types';
export type {
  GcResult,
  PressureState,
  PressureSample,
  SignalState,
  EvictionRecord,
  PressureCondition,
  Signal,
  GcPolicies,
} from '@nodelet/agent/types';
export type { PressureBusEvent, GcBusEvent } from '@nodelet/agent/types';
export type { ShutdownBusEvent, ShutdownProgress, ShutdownGroupProgress, ShutdownPodProgress } from '@nodelet/agent/types';
export type { CertificateInfo, CertificatesStatus } from '@nodelet/agent/types';
export type { ImageInventory, ImageInventoryItem } from '@nodelet/agent/types';
