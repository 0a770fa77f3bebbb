/**
 * The kubelet's Kubernetes Event reasons (names as in upstream pkg/kubelet/events) and the container state
 * reasons shown in statuses (waiting/terminated), so every manager spells them the same way.
 */

// Container events
export const CreatedContainer = 'Created';
export const StartedContainer = 'Started';
export const FailedToCreateContainer = 'Failed';
export const FailedToStartContainer = 'Failed';
export const KillingContainer = 'Killing';
export const PreemptContainer = 'Preempting';
export const BackOffStartContainer = 'BackOff';
export const ExceededGracePeriod = 'ExceededGracePeriod';

// Pod events
export const FailedToKillPod = 'FailedKillPod';
export const FailedToCreatePodContainer = 'FailedCreatePodContainer';
export const FailedToMakePodDataDirectories = 'Failed';
export const NetworkNotReady = 'NetworkNotReady';

// Image events
export const PullingImage = 'Pulling';
export const PulledImage = 'Pulled';
export const FailedToPullImage = 'Failed';
export const FailedToInspectImage = 'InspectFailed';
export const ErrImageNeverPullPolicy = 'ErrImageNeverPull';
export const BackOffPullImage = 'BackOff';

// Kubelet / node events
export const NodeReady = 'NodeReady';
export const NodeNotReady = 'NodeNotReady';
export const NodeSchedulable = 'NodeSchedulable';
export const NodeNotSchedulable = 'NodeNotSchedulable';
export const StartingKubelet = 'Starting';
export const KubeletSetupFailed = 'KubeletSetupFailed';
export const FailedAttachVolume = 'FailedAttachVolume';
export const FailedMountVolume = 'FailedMount';
export const FailedMapVolume = 'FailedMapVolume';
export const WarnAlreadyMountedVolume = 'AlreadyMountedVolume';
export const SuccessfulAttachVolume = 'SuccessfulAttachVolume';
export const SuccessfulMountVolume = 'SuccessfulMountVolume';
export const NodeRebooted = 'Rebooted';
export const NodeShutdown = 'Shutdown';
export const ContainerGCFailed = 'ContainerGCFailed';
export const ImageGCFailed = 'ImageGCFailed';
export const FailedNodeAllocatableEnforcement = 'FailedNodeAllocatableEnforcement';
export const SuccessfulNodeAllocatableEnforcement = 'NodeAllocatableEnforced';
export const SandboxChanged = 'SandboxChanged';
export const FailedCreatePodSandBox = 'FailedCreatePodSandBox';
export const FailedStatusPodSandBox = 'FailedPodSandBoxStatus';
export const FailedMountOnFilesystemMismatch = 'FailedMountOnFilesystemMismatch';
export const InvalidDiskCapacity = 'InvalidDiskCapacity';
export const FreeDiskSpaceFailed = 'FreeDiskSpaceFailed';

// Probes, pod workers, config, lifecycle hooks, eviction
export const ContainerUnhealthy = 'Unhealthy';
export const ContainerProbeWarning = 'ProbeWarning';
export const FailedSync = 'FailedSync';
export const FailedValidation = 'FailedValidation';
export const FailedPostStartHook = 'FailedPostStartHook';
export const FailedPreStopHook = 'FailedPreStopHook';
export const Evicted = 'Evicted';
// Nodelet only (the kubelet does not supervise its runtime): the agent restarted its embedded runtime.
export const ContainerRuntimeRestarted = 'ContainerRuntimeRestarted';
export const ContainerRuntimeRestartFailed = 'ContainerRuntimeRestartFailed';

// Container waiting / terminated reasons (statuses and sync results)
export const ErrImagePull = 'ErrImagePull';
export const ImagePullBackOff = 'ImagePullBackOff';
export const ErrImageNeverPull = 'ErrImageNeverPull';
export const ErrImageInspect = 'ImageInspectError';
export const InvalidImageName = 'InvalidImageName';
export const CrashLoopBackOff = 'CrashLoopBackOff';
export const CreateContainerConfigError = 'CreateContainerConfigError';
export const CreateContainerError = 'CreateContainerError';
export const PreCreateHookError = 'PreCreateHookError';
export const PreStartHookError = 'PreStartHookError';
export const PostStartHookError = 'PostStartHookError';
export const RunContainerError = 'RunContainerError';
export const KillContainerError = 'KillContainerError';
export const CreatePodSandboxConfigError = 'CreatePodSandboxConfigError';
export const CreatePodSandboxError = 'CreatePodSandboxError';
export const KillPodSandboxError = 'KillPodSandboxError';
export const ContainerCreating = 'ContainerCreating';
export const PodInitializing = 'PodInitializing';
export const Completed = 'Completed';
export const ErrorReason = 'Error';
export const OOMKilled = 'OOMKilled';
export const ContainerCannotRun = 'ContainerCannotRun';
export const ContainerStatusUnknown = 'ContainerStatusUnknown';

export type EventType = 'Normal' | 'Warning';
