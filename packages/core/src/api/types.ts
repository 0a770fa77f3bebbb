/** Kubernetes object helpers' types. Object shapes themselves come from @kubernetes/client-node. */
export type { V1Pod, V1PodSpec, V1PodStatus, V1Container, V1ContainerStatus, V1PodCondition } from '@kubernetes/client-node';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';
export type ConfigSource = 'file' | 'http' | 'api';
