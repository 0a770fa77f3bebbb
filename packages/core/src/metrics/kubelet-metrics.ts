/**
 * The kubelet_* metrics of /metrics (names, types, labels and buckets as pkg/kubelet/metrics), as typed
 * prom-client handles on one injected Registry. Managers receive the handles they need; nothing here
 * observes anything by itself.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { DEF_BUCKETS, exponentialBuckets, getOrCreate } from './registry.ts';

export const POD_STARTUP_BUCKETS = [0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600];
export const IMAGE_PULL_BUCKETS = [1, 5, 10, 20, 30, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600];
export const POD_STATUS_SYNC_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 20, 30, 45, 60];
export const RUNTIME_OPERATION_BUCKETS = exponentialBuckets(0.005, 2.5, 14);

function hist<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[], buckets = DEF_BUCKETS): Histogram<L> {
  return getOrCreate(registry, name, () => new Histogram<L>({ name, help, labelNames, buckets, registers: [registry] }));
}
function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return getOrCreate(registry, name, () => new Counter<L>({ name, help, labelNames, registers: [registry] }));
}
function gauge<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
  return getOrCreate(registry, name, () => new Gauge<L>({ name, help, labelNames, registers: [registry] }));
}

export function createKubeletMetrics(r: Registry) {
  const volumeLabels = ['namespace', 'persistentvolumeclaim'] as const;
  return {
    nodeName: gauge(r, 'kubelet_node_name', "The node's name; the value is always 1.", ['node']),
    // pod start
    podStartDuration: hist(r, 'kubelet_pod_start_duration_seconds', 'Seconds from the kubelet first seeing a pod to the pod running.', [], POD_STARTUP_BUCKETS),
    podStartSliDuration: hist(r, 'kubelet_pod_start_sli_duration_seconds', 'Seconds to start a pod without image pulls and init containers, from creation to all containers started and observed.', [], POD_STARTUP_BUCKETS),
    podStartTotalDuration: hist(r, 'kubelet_pod_start_total_duration_seconds', 'Seconds to start a pod from creation, image pulls and init containers included.', [], POD_STARTUP_BUCKETS),
    firstNetworkPodStartSliDuration: gauge(r, 'kubelet_first_network_pod_start_sli_duration_seconds', 'Seconds to start the first pod with pod network, image pulls excluded.'),
    // pod workers and status
    podWorkerDuration: hist(r, 'kubelet_pod_worker_duration_seconds', 'Seconds to sync one pod, by operation (create, update, sync).', ['operation_type']),
    podWorkerStartDuration: hist(r, 'kubelet_pod_worker_start_duration_seconds', 'Seconds from seeing a pod to starting its worker.', []),
    podStatusSyncDuration: hist(r, 'kubelet_pod_status_sync_duration_seconds', 'Seconds from a pod status change to the status being written.', [], POD_STATUS_SYNC_BUCKETS),
    containersPerPodCount: hist(r, 'kubelet_containers_per_pod_count', 'Containers per pod.', [], exponentialBuckets(1, 2, 5)),
    cgroupManagerDuration: hist(r, 'kubelet_cgroup_manager_duration_seconds', 'Seconds of cgroup manager operations, by method.', ['operation_type']),
    // topology manager
    topologyManagerAdmissionRequests: counter(r, 'kubelet_topology_manager_admission_requests_total', 'The number of admission requests where resources have to be aligned.'),
    topologyManagerAdmissionErrors: counter(r, 'kubelet_topology_manager_admission_errors_total', 'The number of admission request failures where resources could not be aligned.'),
    topologyManagerAdmissionDuration: hist(r, 'kubelet_topology_manager_admission_duration_ms', 'Duration in milliseconds to serve a pod admission request.', [], exponentialBuckets(0.05, 2, 15)),
    // PLEG
    plegRelistDuration: hist(r, 'kubelet_pleg_relist_duration_seconds', 'Seconds to relist pods in PLEG.', []),
    plegRelistInterval: hist(r, 'kubelet_pleg_relist_interval_seconds', 'Seconds between PLEG relists.', []),
    plegDiscardEvents: counter(r, 'kubelet_pleg_discard_events', 'PLEG events discarded because the channel was full.'),
    plegLastSeen: gauge(r, 'kubelet_pleg_last_seen_seconds', 'Unix time in seconds when PLEG was last seen active.'),
    eventedPlegConnectionErrors: counter(r, 'kubelet_evented_pleg_connection_error_count', 'Errors establishing the CRI event stream.'),
    eventedPlegConnections: counter(r, 'kubelet_evented_pleg_connection_success_count', 'Times a CRI event stream was obtained.'),
    eventedPlegConnectionLatency: hist(r, 'kubelet_evented_pleg_connection_latency_seconds', 'Latency of the CRI event stream, seconds.', []),
    // runtime
    runtimeOperations: counter(r, 'kubelet_runtime_operations_total', 'Runtime operations by type.', ['operation_type']),
    runtimeOperationsDuration: hist(r, 'kubelet_runtime_operations_duration_seconds', 'Seconds of runtime operations by type.', ['operation_type'], RUNTIME_OPERATION_BUCKETS),
    runtimeOperationsErrors: counter(r, 'kubelet_runtime_operations_errors_total', 'Runtime operation errors by type.', ['operation_type']),
    runPodSandboxDuration: hist(r, 'kubelet_run_podsandbox_duration_seconds', 'Seconds of RunPodSandbox by runtime handler.', ['runtime_handler']),
    runPodSandboxErrors: counter(r, 'kubelet_run_podsandbox_errors_total', 'RunPodSandbox errors by runtime handler.', ['runtime_handler']),
    imagePullDuration: hist(r, 'kubelet_image_pull_duration_seconds', 'Seconds to pull an image, by image size bucket.', ['image_size_in_bytes'], IMAGE_PULL_BUCKETS),
    imageGarbageCollected: counter(r, 'kubelet_image_garbage_collected_total', 'Images removed by image GC, by reason (age, space).', ['reason']),
    // eviction
    evictions: counter(r, 'kubelet_evictions', 'Pod evictions by eviction signal.', ['eviction_signal']),
    evictionStatsAge: hist(r, 'kubelet_eviction_stats_age_seconds', 'Seconds between stats collection and an eviction based on them, by signal.', ['eviction_signal']),
    preemptions: counter(r, 'kubelet_preemptions', 'Pod preemptions by resource.', ['preemption_signal']),
    // pods and containers
    runningPods: gauge(r, 'kubelet_running_pods', 'Pods with a running sandbox.'),
    runningContainers: gauge(r, 'kubelet_running_containers', 'Containers by state.', ['container_state']),
    desiredPods: gauge(r, 'kubelet_desired_pods', 'Pods the kubelet is asked to run, by static.', ['static']),
    activePods: gauge(r, 'kubelet_active_pods', 'Pods the kubelet considers active, by static.', ['static']),
    mirrorPods: gauge(r, 'kubelet_mirror_pods', 'Mirror pods the kubelet maintains.'),
    workingPods: gauge(r, 'kubelet_working_pods', 'Pods with a worker, by lifecycle phase, config and static.', ['lifecycle', 'config', 'static']),
    orphanedRuntimePods: counter(r, 'kubelet_orphaned_runtime_pods_total', 'Pods found in the runtime that the kubelet does not know.'),
    restartedPods: counter(r, 'kubelet_restarted_pods_total', 'Pods restarted with the same UID, by static.', ['static']),
    startedPods: counter(r, 'kubelet_started_pods_total', 'Pods started.'),
    startedPodsErrors: counter(r, 'kubelet_started_pods_errors_total', 'Errors starting pods.'),
    startedContainers: counter(r, 'kubelet_started_containers_total', 'Containers started, by type.', ['container_type']),
    startedContainersErrors: counter(r, 'kubelet_started_containers_errors_total', 'Errors starting containers, by type and code.', ['container_type', 'code']),
    managedEphemeralContainers: gauge(r, 'kubelet_managed_ephemeral_containers', 'Ephemeral containers in pods on this node.'),
    // graceful node shutdown (the last one's times, from <root-dir>/graceful_node_shutdown_state)
    gracefulShutdownStartTime: gauge(r, 'kubelet_graceful_shutdown_start_time_seconds', 'Last graceful shutdown start time since unix epoch in seconds'),
    gracefulShutdownEndTime: gauge(r, 'kubelet_graceful_shutdown_end_time_seconds', 'Last graceful shutdown end time since unix epoch in seconds'),
    // device plugins
    devicePluginRegistrations: counter(r, 'kubelet_device_plugin_registration_total', 'Cumulative number of device plugin registrations. Broken down by resource name.', ['resource_name']),
    devicePluginAllocDuration: hist(r, 'kubelet_device_plugin_alloc_duration_seconds', 'Duration in seconds to serve a device plugin Allocation request. Broken down by resource name.', ['resource_name']),
    // CPU manager (static policy): allocations that needed exclusive CPUs, and those that failed
    cpuManagerPinningRequests: counter(r, 'kubelet_cpu_manager_pinning_requests_total', 'The number of cpu core allocations which required pinning.'),
    cpuManagerPinningErrors: counter(r, 'kubelet_cpu_manager_pinning_errors_total', 'The number of cpu core allocations which required pinning failed.'),
    // plugin manager (upstream's name has no kubelet_ prefix): 1 per socket path and state
    pluginManagerTotalPlugins: gauge(r, 'plugin_manager_total_plugins', 'Number of plugins in Plugin Manager', ['socket_path', 'state']),
    // pod resources API (upstream names: only the first ends in _total)
    podResourcesEndpointRequestsTotal: counter(r, 'kubelet_pod_resources_endpoint_requests_total', 'Cumulative number of requests to the PodResource endpoint. Broken down by server api version.', ['server_api_version']),
    podResourcesEndpointRequestsList: counter(r, 'kubelet_pod_resources_endpoint_requests_list', 'Number of requests to the PodResource List endpoint. Broken down by server api version.', ['server_api_version']),
    podResourcesEndpointRequestsGetAllocatable: counter(r, 'kubelet_pod_resources_endpoint_requests_get_allocatable', 'Number of requests to the PodResource GetAllocatableResources endpoint. Broken down by server api version.', ['server_api_version']),
    podResourcesEndpointRequestsGet: counter(r, 'kubelet_pod_resources_endpoint_requests_get', 'Number of requests to the PodResource Get endpoint. Broken down by server api version.', ['server_api_version']),
    podResourcesEndpointErrorsList: counter(r, 'kubelet_pod_resources_endpoint_errors_list', 'Number of requests to the PodResource List endpoint which returned error. Broken down by server api version.', ['server_api_version']),
    podResourcesEndpointErrorsGetAllocatable: counter(r, 'kubelet_pod_resources_endpoint_errors_get_allocatable', 'Number of requests to the PodResource GetAllocatableResources endpoint which returned error. Broken down by server api version.', ['server_api_version']),
    podResourcesEndpointErrorsGet: counter(r, 'kubelet_pod_resources_endpoint_errors_get', 'Number of requests to the PodResource Get endpoint which returned error. Broken down by server api version.', ['server_api_version']),
    // node startup
    nodeStartupDuration: gauge(r, 'kubelet_node_startup_duration_seconds', 'Seconds the node took to start up.'),
    // volumes
    volumeStatsCapacityBytes: gauge(r, 'kubelet_volume_stats_capacity_bytes', 'Volume capacity in bytes.', volumeLabels),
    volumeStatsAvailableBytes: gauge(r, 'kubelet_volume_stats_available_bytes', 'Volume bytes available.', volumeLabels),
    volumeStatsUsedBytes: gauge(r, 'kubelet_volume_stats_used_bytes', 'Volume bytes used.', volumeLabels),
    volumeStatsInodes: gauge(r, 'kubelet_volume_stats_inodes', 'Volume inodes.', volumeLabels),
    volumeStatsInodesFree: gauge(r, 'kubelet_volume_stats_inodes_free', 'Volume inodes free.', volumeLabels),
    volumeStatsInodesUsed: gauge(r, 'kubelet_volume_stats_inodes_used', 'Volume inodes used.', volumeLabels),
  };
}

export type KubeletMetrics = ReturnType<typeof createKubeletMetrics>;

/** The image_size_in_bytes label of kubelet_image_pull_duration_seconds. */
export function imageSizeBucket(bytes: number): string {
  const MB = 1024 * 1024;
  const GB = 1024 * MB;
  const edges: [number, string][] = [
    [100 * GB, 'GT100GB'], [60 * GB, '60GB-100GB'], [40 * GB, '40GB-60GB'], [30 * GB, '30GB-40GB'], [20 * GB, '20GB-30GB'],
    [10 * GB, '10GB-20GB'], [5 * GB, '5GB-10GB'], [GB, '1GB-5GB'], [500 * MB, '500MB-1GB'], [100 * MB, '100MB-500MB'], [10 * MB, '10MB-100MB'],
  ];
  for (const [min, label] of edges) if (bytes >= min) return label;
  return '0-10MB';
}
