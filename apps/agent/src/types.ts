/**
 * @nodelet/agent/types: what a client of the agent (the console, apps/web) may import: types only (the tRPC
 * router's type, the socket.io event maps, and the kubelet data they carry). Nothing here runs.
 */
export type { AppRouter } from './trpc/router.ts';
export type { CertificateInfo, CertificatesStatus } from './certificate/managers.ts';
export type { ClientToServerEvents, HelloPayload, MetricsMessage, ServerToClientEvents } from './streams/types.ts';
export type * from '@nodelet/core/events';
export type * from '@nodelet/core/eviction';
export type * from '@nodelet/core/prober';
export type * from '@nodelet/core/stats';
export type { CgroupStatus, HealthCheck, HealthReport, NodeSummary, ProbeWorkerInfo, ProcessInfo, StatsContainer } from '@nodelet/core/kubelet';
export type { ContainerRef, CpuResourcesView, DeviceResourceView, DeviceView, MemoryResourcesView, NodeResourcesView, NumaMemoryView } from '@nodelet/core/cm';
