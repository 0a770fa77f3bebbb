import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AttachRequest as _runtime_v1_AttachRequest, AttachRequest__Output as _runtime_v1_AttachRequest__Output } from './runtime/v1/AttachRequest.ts';
import type { AttachResponse as _runtime_v1_AttachResponse, AttachResponse__Output as _runtime_v1_AttachResponse__Output } from './runtime/v1/AttachResponse.ts';
import type { AuthConfig as _runtime_v1_AuthConfig, AuthConfig__Output as _runtime_v1_AuthConfig__Output } from './runtime/v1/AuthConfig.ts';
import type { CDIDevice as _runtime_v1_CDIDevice, CDIDevice__Output as _runtime_v1_CDIDevice__Output } from './runtime/v1/CDIDevice.ts';
import type { Capability as _runtime_v1_Capability, Capability__Output as _runtime_v1_Capability__Output } from './runtime/v1/Capability.ts';
import type { CheckpointContainerRequest as _runtime_v1_CheckpointContainerRequest, CheckpointContainerRequest__Output as _runtime_v1_CheckpointContainerRequest__Output } from './runtime/v1/CheckpointContainerRequest.ts';
import type { CheckpointContainerResponse as _runtime_v1_CheckpointContainerResponse, CheckpointContainerResponse__Output as _runtime_v1_CheckpointContainerResponse__Output } from './runtime/v1/CheckpointContainerResponse.ts';
import type { CheckpointPodRequest as _runtime_v1_CheckpointPodRequest, CheckpointPodRequest__Output as _runtime_v1_CheckpointPodRequest__Output } from './runtime/v1/CheckpointPodRequest.ts';
import type { CheckpointPodResponse as _runtime_v1_CheckpointPodResponse, CheckpointPodResponse__Output as _runtime_v1_CheckpointPodResponse__Output } from './runtime/v1/CheckpointPodResponse.ts';
import type { Container as _runtime_v1_Container, Container__Output as _runtime_v1_Container__Output } from './runtime/v1/Container.ts';
import type { ContainerAttributes as _runtime_v1_ContainerAttributes, ContainerAttributes__Output as _runtime_v1_ContainerAttributes__Output } from './runtime/v1/ContainerAttributes.ts';
import type { ContainerConfig as _runtime_v1_ContainerConfig, ContainerConfig__Output as _runtime_v1_ContainerConfig__Output } from './runtime/v1/ContainerConfig.ts';
import type { ContainerEventResponse as _runtime_v1_ContainerEventResponse, ContainerEventResponse__Output as _runtime_v1_ContainerEventResponse__Output } from './runtime/v1/ContainerEventResponse.ts';
import type { ContainerFilter as _runtime_v1_ContainerFilter, ContainerFilter__Output as _runtime_v1_ContainerFilter__Output } from './runtime/v1/ContainerFilter.ts';
import type { ContainerMetadata as _runtime_v1_ContainerMetadata, ContainerMetadata__Output as _runtime_v1_ContainerMetadata__Output } from './runtime/v1/ContainerMetadata.ts';
import type { ContainerMetrics as _runtime_v1_ContainerMetrics, ContainerMetrics__Output as _runtime_v1_ContainerMetrics__Output } from './runtime/v1/ContainerMetrics.ts';
import type { ContainerResources as _runtime_v1_ContainerResources, ContainerResources__Output as _runtime_v1_ContainerResources__Output } from './runtime/v1/ContainerResources.ts';
import type { ContainerStateValue as _runtime_v1_ContainerStateValue, ContainerStateValue__Output as _runtime_v1_ContainerStateValue__Output } from './runtime/v1/ContainerStateValue.ts';
import type { ContainerStats as _runtime_v1_ContainerStats, ContainerStats__Output as _runtime_v1_ContainerStats__Output } from './runtime/v1/ContainerStats.ts';
import type { ContainerStatsFilter as _runtime_v1_ContainerStatsFilter, ContainerStatsFilter__Output as _runtime_v1_ContainerStatsFilter__Output } from './runtime/v1/ContainerStatsFilter.ts';
import type { ContainerStatsRequest as _runtime_v1_ContainerStatsRequest, ContainerStatsRequest__Output as _runtime_v1_ContainerStatsRequest__Output } from './runtime/v1/ContainerStatsRequest.ts';
import type { ContainerStatsResponse as _runtime_v1_ContainerStatsResponse, ContainerStatsResponse__Output as _runtime_v1_ContainerStatsResponse__Output } from './runtime/v1/ContainerStatsResponse.ts';
import type { ContainerStatus as _runtime_v1_ContainerStatus, ContainerStatus__Output as _runtime_v1_ContainerStatus__Output } from './runtime/v1/ContainerStatus.ts';
import type { ContainerStatusRequest as _runtime_v1_ContainerStatusRequest, ContainerStatusRequest__Output as _runtime_v1_ContainerStatusRequest__Output } from './runtime/v1/ContainerStatusRequest.ts';
import type { ContainerStatusResponse as _runtime_v1_ContainerStatusResponse, ContainerStatusResponse__Output as _runtime_v1_ContainerStatusResponse__Output } from './runtime/v1/ContainerStatusResponse.ts';
import type { ContainerUser as _runtime_v1_ContainerUser, ContainerUser__Output as _runtime_v1_ContainerUser__Output } from './runtime/v1/ContainerUser.ts';
import type { CpuUsage as _runtime_v1_CpuUsage, CpuUsage__Output as _runtime_v1_CpuUsage__Output } from './runtime/v1/CpuUsage.ts';
import type { CreateContainerRequest as _runtime_v1_CreateContainerRequest, CreateContainerRequest__Output as _runtime_v1_CreateContainerRequest__Output } from './runtime/v1/CreateContainerRequest.ts';
import type { CreateContainerResponse as _runtime_v1_CreateContainerResponse, CreateContainerResponse__Output as _runtime_v1_CreateContainerResponse__Output } from './runtime/v1/CreateContainerResponse.ts';
import type { DNSConfig as _runtime_v1_DNSConfig, DNSConfig__Output as _runtime_v1_DNSConfig__Output } from './runtime/v1/DNSConfig.ts';
import type { Device as _runtime_v1_Device, Device__Output as _runtime_v1_Device__Output } from './runtime/v1/Device.ts';
import type { ExecRequest as _runtime_v1_ExecRequest, ExecRequest__Output as _runtime_v1_ExecRequest__Output } from './runtime/v1/ExecRequest.ts';
import type { ExecResponse as _runtime_v1_ExecResponse, ExecResponse__Output as _runtime_v1_ExecResponse__Output } from './runtime/v1/ExecResponse.ts';
import type { ExecSyncRequest as _runtime_v1_ExecSyncRequest, ExecSyncRequest__Output as _runtime_v1_ExecSyncRequest__Output } from './runtime/v1/ExecSyncRequest.ts';
import type { ExecSyncResponse as _runtime_v1_ExecSyncResponse, ExecSyncResponse__Output as _runtime_v1_ExecSyncResponse__Output } from './runtime/v1/ExecSyncResponse.ts';
import type { FilesystemIdentifier as _runtime_v1_FilesystemIdentifier, FilesystemIdentifier__Output as _runtime_v1_FilesystemIdentifier__Output } from './runtime/v1/FilesystemIdentifier.ts';
import type { FilesystemUsage as _runtime_v1_FilesystemUsage, FilesystemUsage__Output as _runtime_v1_FilesystemUsage__Output } from './runtime/v1/FilesystemUsage.ts';
import type { GetEventsRequest as _runtime_v1_GetEventsRequest, GetEventsRequest__Output as _runtime_v1_GetEventsRequest__Output } from './runtime/v1/GetEventsRequest.ts';
import type { HugepageLimit as _runtime_v1_HugepageLimit, HugepageLimit__Output as _runtime_v1_HugepageLimit__Output } from './runtime/v1/HugepageLimit.ts';
import type { IDMapping as _runtime_v1_IDMapping, IDMapping__Output as _runtime_v1_IDMapping__Output } from './runtime/v1/IDMapping.ts';
import type { Image as _runtime_v1_Image, Image__Output as _runtime_v1_Image__Output } from './runtime/v1/Image.ts';
import type { ImageFilter as _runtime_v1_ImageFilter, ImageFilter__Output as _runtime_v1_ImageFilter__Output } from './runtime/v1/ImageFilter.ts';
import type { ImageFsInfoRequest as _runtime_v1_ImageFsInfoRequest, ImageFsInfoRequest__Output as _runtime_v1_ImageFsInfoRequest__Output } from './runtime/v1/ImageFsInfoRequest.ts';
import type { ImageFsInfoResponse as _runtime_v1_ImageFsInfoResponse, ImageFsInfoResponse__Output as _runtime_v1_ImageFsInfoResponse__Output } from './runtime/v1/ImageFsInfoResponse.ts';
import type { ImageServiceClient as _runtime_v1_ImageServiceClient, ImageServiceDefinition as _runtime_v1_ImageServiceDefinition } from './runtime/v1/ImageService.ts';
import type { ImageSpec as _runtime_v1_ImageSpec, ImageSpec__Output as _runtime_v1_ImageSpec__Output } from './runtime/v1/ImageSpec.ts';
import type { ImageStatusRequest as _runtime_v1_ImageStatusRequest, ImageStatusRequest__Output as _runtime_v1_ImageStatusRequest__Output } from './runtime/v1/ImageStatusRequest.ts';
import type { ImageStatusResponse as _runtime_v1_ImageStatusResponse, ImageStatusResponse__Output as _runtime_v1_ImageStatusResponse__Output } from './runtime/v1/ImageStatusResponse.ts';
import type { Int64Value as _runtime_v1_Int64Value, Int64Value__Output as _runtime_v1_Int64Value__Output } from './runtime/v1/Int64Value.ts';
import type { IoUsage as _runtime_v1_IoUsage, IoUsage__Output as _runtime_v1_IoUsage__Output } from './runtime/v1/IoUsage.ts';
import type { KeyValue as _runtime_v1_KeyValue, KeyValue__Output as _runtime_v1_KeyValue__Output } from './runtime/v1/KeyValue.ts';
import type { LinuxContainerConfig as _runtime_v1_LinuxContainerConfig, LinuxContainerConfig__Output as _runtime_v1_LinuxContainerConfig__Output } from './runtime/v1/LinuxContainerConfig.ts';
import type { LinuxContainerResources as _runtime_v1_LinuxContainerResources, LinuxContainerResources__Output as _runtime_v1_LinuxContainerResources__Output } from './runtime/v1/LinuxContainerResources.ts';
import type { LinuxContainerSecurityContext as _runtime_v1_LinuxContainerSecurityContext, LinuxContainerSecurityContext__Output as _runtime_v1_LinuxContainerSecurityContext__Output } from './runtime/v1/LinuxContainerSecurityContext.ts';
import type { LinuxContainerUser as _runtime_v1_LinuxContainerUser, LinuxContainerUser__Output as _runtime_v1_LinuxContainerUser__Output } from './runtime/v1/LinuxContainerUser.ts';
import type { LinuxPodSandboxConfig as _runtime_v1_LinuxPodSandboxConfig, LinuxPodSandboxConfig__Output as _runtime_v1_LinuxPodSandboxConfig__Output } from './runtime/v1/LinuxPodSandboxConfig.ts';
import type { LinuxPodSandboxStats as _runtime_v1_LinuxPodSandboxStats, LinuxPodSandboxStats__Output as _runtime_v1_LinuxPodSandboxStats__Output } from './runtime/v1/LinuxPodSandboxStats.ts';
import type { LinuxPodSandboxStatus as _runtime_v1_LinuxPodSandboxStatus, LinuxPodSandboxStatus__Output as _runtime_v1_LinuxPodSandboxStatus__Output } from './runtime/v1/LinuxPodSandboxStatus.ts';
import type { LinuxRuntimeConfiguration as _runtime_v1_LinuxRuntimeConfiguration, LinuxRuntimeConfiguration__Output as _runtime_v1_LinuxRuntimeConfiguration__Output } from './runtime/v1/LinuxRuntimeConfiguration.ts';
import type { LinuxSandboxSecurityContext as _runtime_v1_LinuxSandboxSecurityContext, LinuxSandboxSecurityContext__Output as _runtime_v1_LinuxSandboxSecurityContext__Output } from './runtime/v1/LinuxSandboxSecurityContext.ts';
import type { ListContainerStatsRequest as _runtime_v1_ListContainerStatsRequest, ListContainerStatsRequest__Output as _runtime_v1_ListContainerStatsRequest__Output } from './runtime/v1/ListContainerStatsRequest.ts';
import type { ListContainerStatsResponse as _runtime_v1_ListContainerStatsResponse, ListContainerStatsResponse__Output as _runtime_v1_ListContainerStatsResponse__Output } from './runtime/v1/ListContainerStatsResponse.ts';
import type { ListContainersRequest as _runtime_v1_ListContainersRequest, ListContainersRequest__Output as _runtime_v1_ListContainersRequest__Output } from './runtime/v1/ListContainersRequest.ts';
import type { ListContainersResponse as _runtime_v1_ListContainersResponse, ListContainersResponse__Output as _runtime_v1_ListContainersResponse__Output } from './runtime/v1/ListContainersResponse.ts';
import type { ListImagesRequest as _runtime_v1_ListImagesRequest, ListImagesRequest__Output as _runtime_v1_ListImagesRequest__Output } from './runtime/v1/ListImagesRequest.ts';
import type { ListImagesResponse as _runtime_v1_ListImagesResponse, ListImagesResponse__Output as _runtime_v1_ListImagesResponse__Output } from './runtime/v1/ListImagesResponse.ts';
import type { ListMetricDescriptorsRequest as _runtime_v1_ListMetricDescriptorsRequest, ListMetricDescriptorsRequest__Output as _runtime_v1_ListMetricDescriptorsRequest__Output } from './runtime/v1/ListMetricDescriptorsRequest.ts';
import type { ListMetricDescriptorsResponse as _runtime_v1_ListMetricDescriptorsResponse, ListMetricDescriptorsResponse__Output as _runtime_v1_ListMetricDescriptorsResponse__Output } from './runtime/v1/ListMetricDescriptorsResponse.ts';
import type { ListPodSandboxMetricsRequest as _runtime_v1_ListPodSandboxMetricsRequest, ListPodSandboxMetricsRequest__Output as _runtime_v1_ListPodSandboxMetricsRequest__Output } from './runtime/v1/ListPodSandboxMetricsRequest.ts';
import type { ListPodSandboxMetricsResponse as _runtime_v1_ListPodSandboxMetricsResponse, ListPodSandboxMetricsResponse__Output as _runtime_v1_ListPodSandboxMetricsResponse__Output } from './runtime/v1/ListPodSandboxMetricsResponse.ts';
import type { ListPodSandboxRequest as _runtime_v1_ListPodSandboxRequest, ListPodSandboxRequest__Output as _runtime_v1_ListPodSandboxRequest__Output } from './runtime/v1/ListPodSandboxRequest.ts';
import type { ListPodSandboxResponse as _runtime_v1_ListPodSandboxResponse, ListPodSandboxResponse__Output as _runtime_v1_ListPodSandboxResponse__Output } from './runtime/v1/ListPodSandboxResponse.ts';
import type { ListPodSandboxStatsRequest as _runtime_v1_ListPodSandboxStatsRequest, ListPodSandboxStatsRequest__Output as _runtime_v1_ListPodSandboxStatsRequest__Output } from './runtime/v1/ListPodSandboxStatsRequest.ts';
import type { ListPodSandboxStatsResponse as _runtime_v1_ListPodSandboxStatsResponse, ListPodSandboxStatsResponse__Output as _runtime_v1_ListPodSandboxStatsResponse__Output } from './runtime/v1/ListPodSandboxStatsResponse.ts';
import type { MemoryUsage as _runtime_v1_MemoryUsage, MemoryUsage__Output as _runtime_v1_MemoryUsage__Output } from './runtime/v1/MemoryUsage.ts';
import type { Metric as _runtime_v1_Metric, Metric__Output as _runtime_v1_Metric__Output } from './runtime/v1/Metric.ts';
import type { MetricDescriptor as _runtime_v1_MetricDescriptor, MetricDescriptor__Output as _runtime_v1_MetricDescriptor__Output } from './runtime/v1/MetricDescriptor.ts';
import type { Mount as _runtime_v1_Mount, Mount__Output as _runtime_v1_Mount__Output } from './runtime/v1/Mount.ts';
import type { Namespace as _runtime_v1_Namespace, Namespace__Output as _runtime_v1_Namespace__Output } from './runtime/v1/Namespace.ts';
import type { NamespaceOption as _runtime_v1_NamespaceOption, NamespaceOption__Output as _runtime_v1_NamespaceOption__Output } from './runtime/v1/NamespaceOption.ts';
import type { NetworkConfig as _runtime_v1_NetworkConfig, NetworkConfig__Output as _runtime_v1_NetworkConfig__Output } from './runtime/v1/NetworkConfig.ts';
import type { NetworkInterfaceUsage as _runtime_v1_NetworkInterfaceUsage, NetworkInterfaceUsage__Output as _runtime_v1_NetworkInterfaceUsage__Output } from './runtime/v1/NetworkInterfaceUsage.ts';
import type { NetworkUsage as _runtime_v1_NetworkUsage, NetworkUsage__Output as _runtime_v1_NetworkUsage__Output } from './runtime/v1/NetworkUsage.ts';
import type { PodIP as _runtime_v1_PodIP, PodIP__Output as _runtime_v1_PodIP__Output } from './runtime/v1/PodIP.ts';
import type { PodSandbox as _runtime_v1_PodSandbox, PodSandbox__Output as _runtime_v1_PodSandbox__Output } from './runtime/v1/PodSandbox.ts';
import type { PodSandboxAttributes as _runtime_v1_PodSandboxAttributes, PodSandboxAttributes__Output as _runtime_v1_PodSandboxAttributes__Output } from './runtime/v1/PodSandboxAttributes.ts';
import type { PodSandboxConfig as _runtime_v1_PodSandboxConfig, PodSandboxConfig__Output as _runtime_v1_PodSandboxConfig__Output } from './runtime/v1/PodSandboxConfig.ts';
import type { PodSandboxFilter as _runtime_v1_PodSandboxFilter, PodSandboxFilter__Output as _runtime_v1_PodSandboxFilter__Output } from './runtime/v1/PodSandboxFilter.ts';
import type { PodSandboxMetadata as _runtime_v1_PodSandboxMetadata, PodSandboxMetadata__Output as _runtime_v1_PodSandboxMetadata__Output } from './runtime/v1/PodSandboxMetadata.ts';
import type { PodSandboxMetrics as _runtime_v1_PodSandboxMetrics, PodSandboxMetrics__Output as _runtime_v1_PodSandboxMetrics__Output } from './runtime/v1/PodSandboxMetrics.ts';
import type { PodSandboxNetworkStatus as _runtime_v1_PodSandboxNetworkStatus, PodSandboxNetworkStatus__Output as _runtime_v1_PodSandboxNetworkStatus__Output } from './runtime/v1/PodSandboxNetworkStatus.ts';
import type { PodSandboxStateValue as _runtime_v1_PodSandboxStateValue, PodSandboxStateValue__Output as _runtime_v1_PodSandboxStateValue__Output } from './runtime/v1/PodSandboxStateValue.ts';
import type { PodSandboxStats as _runtime_v1_PodSandboxStats, PodSandboxStats__Output as _runtime_v1_PodSandboxStats__Output } from './runtime/v1/PodSandboxStats.ts';
import type { PodSandboxStatsFilter as _runtime_v1_PodSandboxStatsFilter, PodSandboxStatsFilter__Output as _runtime_v1_PodSandboxStatsFilter__Output } from './runtime/v1/PodSandboxStatsFilter.ts';
import type { PodSandboxStatsRequest as _runtime_v1_PodSandboxStatsRequest, PodSandboxStatsRequest__Output as _runtime_v1_PodSandboxStatsRequest__Output } from './runtime/v1/PodSandboxStatsRequest.ts';
import type { PodSandboxStatsResponse as _runtime_v1_PodSandboxStatsResponse, PodSandboxStatsResponse__Output as _runtime_v1_PodSandboxStatsResponse__Output } from './runtime/v1/PodSandboxStatsResponse.ts';
import type { PodSandboxStatus as _runtime_v1_PodSandboxStatus, PodSandboxStatus__Output as _runtime_v1_PodSandboxStatus__Output } from './runtime/v1/PodSandboxStatus.ts';
import type { PodSandboxStatusRequest as _runtime_v1_PodSandboxStatusRequest, PodSandboxStatusRequest__Output as _runtime_v1_PodSandboxStatusRequest__Output } from './runtime/v1/PodSandboxStatusRequest.ts';
import type { PodSandboxStatusResponse as _runtime_v1_PodSandboxStatusResponse, PodSandboxStatusResponse__Output as _runtime_v1_PodSandboxStatusResponse__Output } from './runtime/v1/PodSandboxStatusResponse.ts';
import type { PortForwardRequest as _runtime_v1_PortForwardRequest, PortForwardRequest__Output as _runtime_v1_PortForwardRequest__Output } from './runtime/v1/PortForwardRequest.ts';
import type { PortForwardResponse as _runtime_v1_PortForwardResponse, PortForwardResponse__Output as _runtime_v1_PortForwardResponse__Output } from './runtime/v1/PortForwardResponse.ts';
import type { PortMapping as _runtime_v1_PortMapping, PortMapping__Output as _runtime_v1_PortMapping__Output } from './runtime/v1/PortMapping.ts';
import type { ProcessUsage as _runtime_v1_ProcessUsage, ProcessUsage__Output as _runtime_v1_ProcessUsage__Output } from './runtime/v1/ProcessUsage.ts';
import type { PsiData as _runtime_v1_PsiData, PsiData__Output as _runtime_v1_PsiData__Output } from './runtime/v1/PsiData.ts';
import type { PsiStats as _runtime_v1_PsiStats, PsiStats__Output as _runtime_v1_PsiStats__Output } from './runtime/v1/PsiStats.ts';
import type { PullImageRequest as _runtime_v1_PullImageRequest, PullImageRequest__Output as _runtime_v1_PullImageRequest__Output } from './runtime/v1/PullImageRequest.ts';
import type { PullImageResponse as _runtime_v1_PullImageResponse, PullImageResponse__Output as _runtime_v1_PullImageResponse__Output } from './runtime/v1/PullImageResponse.ts';
import type { RemoveContainerRequest as _runtime_v1_RemoveContainerRequest, RemoveContainerRequest__Output as _runtime_v1_RemoveContainerRequest__Output } from './runtime/v1/RemoveContainerRequest.ts';
import type { RemoveContainerResponse as _runtime_v1_RemoveContainerResponse, RemoveContainerResponse__Output as _runtime_v1_RemoveContainerResponse__Output } from './runtime/v1/RemoveContainerResponse.ts';
import type { RemoveImageRequest as _runtime_v1_RemoveImageRequest, RemoveImageRequest__Output as _runtime_v1_RemoveImageRequest__Output } from './runtime/v1/RemoveImageRequest.ts';
import type { RemoveImageResponse as _runtime_v1_RemoveImageResponse, RemoveImageResponse__Output as _runtime_v1_RemoveImageResponse__Output } from './runtime/v1/RemoveImageResponse.ts';
import type { RemovePodSandboxRequest as _runtime_v1_RemovePodSandboxRequest, RemovePodSandboxRequest__Output as _runtime_v1_RemovePodSandboxRequest__Output } from './runtime/v1/RemovePodSandboxRequest.ts';
import type { RemovePodSandboxResponse as _runtime_v1_RemovePodSandboxResponse, RemovePodSandboxResponse__Output as _runtime_v1_RemovePodSandboxResponse__Output } from './runtime/v1/RemovePodSandboxResponse.ts';
import type { ReopenContainerLogRequest as _runtime_v1_ReopenContainerLogRequest, ReopenContainerLogRequest__Output as _runtime_v1_ReopenContainerLogRequest__Output } from './runtime/v1/ReopenContainerLogRequest.ts';
import type { ReopenContainerLogResponse as _runtime_v1_ReopenContainerLogResponse, ReopenContainerLogResponse__Output as _runtime_v1_ReopenContainerLogResponse__Output } from './runtime/v1/ReopenContainerLogResponse.ts';
import type { RestorePodRequest as _runtime_v1_RestorePodRequest, RestorePodRequest__Output as _runtime_v1_RestorePodRequest__Output } from './runtime/v1/RestorePodRequest.ts';
import type { RestorePodResponse as _runtime_v1_RestorePodResponse, RestorePodResponse__Output as _runtime_v1_RestorePodResponse__Output } from './runtime/v1/RestorePodResponse.ts';
import type { RestoredContainer as _runtime_v1_RestoredContainer, RestoredContainer__Output as _runtime_v1_RestoredContainer__Output } from './runtime/v1/RestoredContainer.ts';
import type { RunPodSandboxRequest as _runtime_v1_RunPodSandboxRequest, RunPodSandboxRequest__Output as _runtime_v1_RunPodSandboxRequest__Output } from './runtime/v1/RunPodSandboxRequest.ts';
import type { RunPodSandboxResponse as _runtime_v1_RunPodSandboxResponse, RunPodSandboxResponse__Output as _runtime_v1_RunPodSandboxResponse__Output } from './runtime/v1/RunPodSandboxResponse.ts';
import type { RuntimeCondition as _runtime_v1_RuntimeCondition, RuntimeCondition__Output as _runtime_v1_RuntimeCondition__Output } from './runtime/v1/RuntimeCondition.ts';
import type { RuntimeConfig as _runtime_v1_RuntimeConfig, RuntimeConfig__Output as _runtime_v1_RuntimeConfig__Output } from './runtime/v1/RuntimeConfig.ts';
import type { RuntimeConfigRequest as _runtime_v1_RuntimeConfigRequest, RuntimeConfigRequest__Output as _runtime_v1_RuntimeConfigRequest__Output } from './runtime/v1/RuntimeConfigRequest.ts';
import type { RuntimeConfigResponse as _runtime_v1_RuntimeConfigResponse, RuntimeConfigResponse__Output as _runtime_v1_RuntimeConfigResponse__Output } from './runtime/v1/RuntimeConfigResponse.ts';
import type { RuntimeFeatures as _runtime_v1_RuntimeFeatures, RuntimeFeatures__Output as _runtime_v1_RuntimeFeatures__Output } from './runtime/v1/RuntimeFeatures.ts';
import type { RuntimeHandler as _runtime_v1_RuntimeHandler, RuntimeHandler__Output as _runtime_v1_RuntimeHandler__Output } from './runtime/v1/RuntimeHandler.ts';
import type { RuntimeHandlerFeatures as _runtime_v1_RuntimeHandlerFeatures, RuntimeHandlerFeatures__Output as _runtime_v1_RuntimeHandlerFeatures__Output } from './runtime/v1/RuntimeHandlerFeatures.ts';
import type { RuntimeServiceClient as _runtime_v1_RuntimeServiceClient, RuntimeServiceDefinition as _runtime_v1_RuntimeServiceDefinition } from './runtime/v1/RuntimeService.ts';
import type { RuntimeStatus as _runtime_v1_RuntimeStatus, RuntimeStatus__Output as _runtime_v1_RuntimeStatus__Output } from './runtime/v1/RuntimeStatus.ts';
import type { SELinuxOption as _runtime_v1_SELinuxOption, SELinuxOption__Output as _runtime_v1_SELinuxOption__Output } from './runtime/v1/SELinuxOption.ts';
import type { SecurityProfile as _runtime_v1_SecurityProfile, SecurityProfile__Output as _runtime_v1_SecurityProfile__Output } from './runtime/v1/SecurityProfile.ts';
import type { StartContainerRequest as _runtime_v1_StartContainerRequest, StartContainerRequest__Output as _runtime_v1_StartContainerRequest__Output } from './runtime/v1/StartContainerRequest.ts';
import type { StartContainerResponse as _runtime_v1_StartContainerResponse, StartContainerResponse__Output as _runtime_v1_StartContainerResponse__Output } from './runtime/v1/StartContainerResponse.ts';
import type { StatusRequest as _runtime_v1_StatusRequest, StatusRequest__Output as _runtime_v1_StatusRequest__Output } from './runtime/v1/StatusRequest.ts';
import type { StatusResponse as _runtime_v1_StatusResponse, StatusResponse__Output as _runtime_v1_StatusResponse__Output } from './runtime/v1/StatusResponse.ts';
import type { StopContainerRequest as _runtime_v1_StopContainerRequest, StopContainerRequest__Output as _runtime_v1_StopContainerRequest__Output } from './runtime/v1/StopContainerRequest.ts';
import type { StopContainerResponse as _runtime_v1_StopContainerResponse, StopContainerResponse__Output as _runtime_v1_StopContainerResponse__Output } from './runtime/v1/StopContainerResponse.ts';
import type { StopPodSandboxRequest as _runtime_v1_StopPodSandboxRequest, StopPodSandboxRequest__Output as _runtime_v1_StopPodSandboxRequest__Output } from './runtime/v1/StopPodSandboxRequest.ts';
import type { StopPodSandboxResponse as _runtime_v1_StopPodSandboxResponse, StopPodSandboxResponse__Output as _runtime_v1_StopPodSandboxResponse__Output } from './runtime/v1/StopPodSandboxResponse.ts';
import type { StreamContainerStatsRequest as _runtime_v1_StreamContainerStatsRequest, StreamContainerStatsRequest__Output as _runtime_v1_StreamContainerStatsRequest__Output } from './runtime/v1/StreamContainerStatsRequest.ts';
import type { StreamContainerStatsResponse as _runtime_v1_StreamContainerStatsResponse, StreamContainerStatsResponse__Output as _runtime_v1_StreamContainerStatsResponse__Output } from './runtime/v1/StreamContainerStatsResponse.ts';
import type { StreamContainersRequest as _runtime_v1_StreamContainersRequest, StreamContainersRequest__Output as _runtime_v1_StreamContainersRequest__Output } from './runtime/v1/StreamContainersRequest.ts';
import type { StreamContainersResponse as _runtime_v1_StreamContainersResponse, StreamContainersResponse__Output as _runtime_v1_StreamContainersResponse__Output } from './runtime/v1/StreamContainersResponse.ts';
import type { StreamImagesRequest as _runtime_v1_StreamImagesRequest, StreamImagesRequest__Output as _runtime_v1_StreamImagesRequest__Output } from './runtime/v1/StreamImagesRequest.ts';
import type { StreamImagesResponse as _runtime_v1_StreamImagesResponse, StreamImagesResponse__Output as _runtime_v1_StreamImagesResponse__Output } from './runtime/v1/StreamImagesResponse.ts';
import type { StreamPodSandboxMetricsRequest as _runtime_v1_StreamPodSandboxMetricsRequest, StreamPodSandboxMetricsRequest__Output as _runtime_v1_StreamPodSandboxMetricsRequest__Output } from './runtime/v1/StreamPodSandboxMetricsRequest.ts';
import type { StreamPodSandboxMetricsResponse as _runtime_v1_StreamPodSandboxMetricsResponse, StreamPodSandboxMetricsResponse__Output as _runtime_v1_StreamPodSandboxMetricsResponse__Output } from './runtime/v1/StreamPodSandboxMetricsResponse.ts';
import type { StreamPodSandboxStatsRequest as _runtime_v1_StreamPodSandboxStatsRequest, StreamPodSandboxStatsRequest__Output as _runtime_v1_StreamPodSandboxStatsRequest__Output } from './runtime/v1/StreamPodSandboxStatsRequest.ts';
import type { StreamPodSandboxStatsResponse as _runtime_v1_StreamPodSandboxStatsResponse, StreamPodSandboxStatsResponse__Output as _runtime_v1_StreamPodSandboxStatsResponse__Output } from './runtime/v1/StreamPodSandboxStatsResponse.ts';
import type { StreamPodSandboxesRequest as _runtime_v1_StreamPodSandboxesRequest, StreamPodSandboxesRequest__Output as _runtime_v1_StreamPodSandboxesRequest__Output } from './runtime/v1/StreamPodSandboxesRequest.ts';
import type { StreamPodSandboxesResponse as _runtime_v1_StreamPodSandboxesResponse, StreamPodSandboxesResponse__Output as _runtime_v1_StreamPodSandboxesResponse__Output } from './runtime/v1/StreamPodSandboxesResponse.ts';
import type { SwapUsage as _runtime_v1_SwapUsage, SwapUsage__Output as _runtime_v1_SwapUsage__Output } from './runtime/v1/SwapUsage.ts';
import type { UInt64Value as _runtime_v1_UInt64Value, UInt64Value__Output as _runtime_v1_UInt64Value__Output } from './runtime/v1/UInt64Value.ts';
import type { UpdateContainerResourcesRequest as _runtime_v1_UpdateContainerResourcesRequest, UpdateContainerResourcesRequest__Output as _runtime_v1_UpdateContainerResourcesRequest__Output } from './runtime/v1/UpdateContainerResourcesRequest.ts';
import type { UpdateContainerResourcesResponse as _runtime_v1_UpdateContainerResourcesResponse, UpdateContainerResourcesResponse__Output as _runtime_v1_UpdateContainerResourcesResponse__Output } from './runtime/v1/UpdateContainerResourcesResponse.ts';
import type { UpdatePodSandboxResourcesRequest as _runtime_v1_UpdatePodSandboxResourcesRequest, UpdatePodSandboxResourcesRequest__Output as _runtime_v1_UpdatePodSandboxResourcesRequest__Output } from './runtime/v1/UpdatePodSandboxResourcesRequest.ts';
import type { UpdatePodSandboxResourcesResponse as _runtime_v1_UpdatePodSandboxResourcesResponse, UpdatePodSandboxResourcesResponse__Output as _runtime_v1_UpdatePodSandboxResourcesResponse__Output } from './runtime/v1/UpdatePodSandboxResourcesResponse.ts';
import type { UpdateRuntimeConfigRequest as _runtime_v1_UpdateRuntimeConfigRequest, UpdateRuntimeConfigRequest__Output as _runtime_v1_UpdateRuntimeConfigRequest__Output } from './runtime/v1/UpdateRuntimeConfigRequest.ts';
import type { UpdateRuntimeConfigResponse as _runtime_v1_UpdateRuntimeConfigResponse, UpdateRuntimeConfigResponse__Output as _runtime_v1_UpdateRuntimeConfigResponse__Output } from './runtime/v1/UpdateRuntimeConfigResponse.ts';
import type { UserNamespace as _runtime_v1_UserNamespace, UserNamespace__Output as _runtime_v1_UserNamespace__Output } from './runtime/v1/UserNamespace.ts';
import type { VersionRequest as _runtime_v1_VersionRequest, VersionRequest__Output as _runtime_v1_VersionRequest__Output } from './runtime/v1/VersionRequest.ts';
import type { VersionResponse as _runtime_v1_VersionResponse, VersionResponse__Output as _runtime_v1_VersionResponse__Output } from './runtime/v1/VersionResponse.ts';
import type { WindowsContainerConfig as _runtime_v1_WindowsContainerConfig, WindowsContainerConfig__Output as _runtime_v1_WindowsContainerConfig__Output } from './runtime/v1/WindowsContainerConfig.ts';
import type { WindowsContainerResources as _runtime_v1_WindowsContainerResources, WindowsContainerResources__Output as _runtime_v1_WindowsContainerResources__Output } from './runtime/v1/WindowsContainerResources.ts';
import type { WindowsContainerSecurityContext as _runtime_v1_WindowsContainerSecurityContext, WindowsContainerSecurityContext__Output as _runtime_v1_WindowsContainerSecurityContext__Output } from './runtime/v1/WindowsContainerSecurityContext.ts';
import type { WindowsContainerStats as _runtime_v1_WindowsContainerStats, WindowsContainerStats__Output as _runtime_v1_WindowsContainerStats__Output } from './runtime/v1/WindowsContainerStats.ts';
import type { WindowsCpuGroupAffinity as _runtime_v1_WindowsCpuGroupAffinity, WindowsCpuGroupAffinity__Output as _runtime_v1_WindowsCpuGroupAffinity__Output } from './runtime/v1/WindowsCpuGroupAffinity.ts';
import type { WindowsCpuUsage as _runtime_v1_WindowsCpuUsage, WindowsCpuUsage__Output as _runtime_v1_WindowsCpuUsage__Output } from './runtime/v1/WindowsCpuUsage.ts';
import type { WindowsFilesystemUsage as _runtime_v1_WindowsFilesystemUsage, WindowsFilesystemUsage__Output as _runtime_v1_WindowsFilesystemUsage__Output } from './runtime/v1/WindowsFilesystemUsage.ts';
import type { WindowsMemoryUsage as _runtime_v1_WindowsMemoryUsage, WindowsMemoryUsage__Output as _runtime_v1_WindowsMemoryUsage__Output } from './runtime/v1/WindowsMemoryUsage.ts';
import type { WindowsNamespaceOption as _runtime_v1_WindowsNamespaceOption, WindowsNamespaceOption__Output as _runtime_v1_WindowsNamespaceOption__Output } from './runtime/v1/WindowsNamespaceOption.ts';
import type { WindowsNetworkInterfaceUsage as _runtime_v1_WindowsNetworkInterfaceUsage, WindowsNetworkInterfaceUsage__Output as _runtime_v1_WindowsNetworkInterfaceUsage__Output } from './runtime/v1/WindowsNetworkInterfaceUsage.ts';
import type { WindowsNetworkUsage as _runtime_v1_WindowsNetworkUsage, WindowsNetworkUsage__Output as _runtime_v1_WindowsNetworkUsage__Output } from './runtime/v1/WindowsNetworkUsage.ts';
import type { WindowsPodSandboxConfig as _runtime_v1_WindowsPodSandboxConfig, WindowsPodSandboxConfig__Output as _runtime_v1_WindowsPodSandboxConfig__Output } from './runtime/v1/WindowsPodSandboxConfig.ts';
import type { WindowsPodSandboxStats as _runtime_v1_WindowsPodSandboxStats, WindowsPodSandboxStats__Output as _runtime_v1_WindowsPodSandboxStats__Output } from './runtime/v1/WindowsPodSandboxStats.ts';
import type { WindowsProcessUsage as _runtime_v1_WindowsProcessUsage, WindowsProcessUsage__Output as _runtime_v1_WindowsProcessUsage__Output } from './runtime/v1/WindowsProcessUsage.ts';
import type { WindowsSandboxSecurityContext as _runtime_v1_WindowsSandboxSecurityContext, WindowsSandboxSecurityContext__Output as _runtime_v1_WindowsSandboxSecurityContext__Output } from './runtime/v1/WindowsSandboxSecurityContext.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  runtime: {
    v1: {
      AttachRequest: MessageTypeDefinition<_runtime_v1_AttachRequest, _runtime_v1_AttachRequest__Output>
      AttachResponse: MessageTypeDefinition<_runtime_v1_AttachResponse, _runtime_v1_AttachResponse__Output>
      AuthConfig: MessageTypeDefinition<_runtime_v1_AuthConfig, _runtime_v1_AuthConfig__Output>
      CDIDevice: MessageTypeDefinition<_runtime_v1_CDIDevice, _runtime_v1_CDIDevice__Output>
      Capability: MessageTypeDefinition<_runtime_v1_Capability, _runtime_v1_Capability__Output>
      CgroupDriver: EnumTypeDefinition
      CheckpointContainerRequest: MessageTypeDefinition<_runtime_v1_CheckpointContainerRequest, _runtime_v1_CheckpointContainerRequest__Output>
      CheckpointContainerResponse: MessageTypeDefinition<_runtime_v1_CheckpointContainerResponse, _runtime_v1_CheckpointContainerResponse__Output>
      CheckpointPodRequest: MessageTypeDefinition<_runtime_v1_CheckpointPodRequest, _runtime_v1_CheckpointPodRequest__Output>
      CheckpointPodResponse: MessageTypeDefinition<_runtime_v1_CheckpointPodResponse, _runtime_v1_CheckpointPodResponse__Output>
      Container: MessageTypeDefinition<_runtime_v1_Container, _runtime_v1_Container__Output>
      ContainerAttributes: MessageTypeDefinition<_runtime_v1_ContainerAttributes, _runtime_v1_ContainerAttributes__Output>
      ContainerConfig: MessageTypeDefinition<_runtime_v1_ContainerConfig, _runtime_v1_ContainerConfig__Output>
      ContainerEventResponse: MessageTypeDefinition<_runtime_v1_ContainerEventResponse, _runtime_v1_ContainerEventResponse__Output>
      ContainerEventType: EnumTypeDefinition
      ContainerFilter: MessageTypeDefinition<_runtime_v1_ContainerFilter, _runtime_v1_ContainerFilter__Output>
      ContainerMetadata: MessageTypeDefinition<_runtime_v1_ContainerMetadata, _runtime_v1_ContainerMetadata__Output>
      ContainerMetrics: MessageTypeDefinition<_runtime_v1_ContainerMetrics, _runtime_v1_ContainerMetrics__Output>
      ContainerResources: MessageTypeDefinition<_runtime_v1_ContainerResources, _runtime_v1_ContainerResources__Output>
      ContainerState: EnumTypeDefinition
      ContainerStateValue: MessageTypeDefinition<_runtime_v1_ContainerStateValue, _runtime_v1_ContainerStateValue__Output>
      ContainerStats: MessageTypeDefinition<_runtime_v1_ContainerStats, _runtime_v1_ContainerStats__Output>
      ContainerStatsFilter: MessageTypeDefinition<_runtime_v1_ContainerStatsFilter, _runtime_v1_ContainerStatsFilter__Output>
      ContainerStatsRequest: MessageTypeDefinition<_runtime_v1_ContainerStatsRequest, _runtime_v1_ContainerStatsRequest__Output>
      ContainerStatsResponse: MessageTypeDefinition<_runtime_v1_ContainerStatsResponse, _runtime_v1_ContainerStatsResponse__Output>
      ContainerStatus: MessageTypeDefinition<_runtime_v1_ContainerStatus, _runtime_v1_ContainerStatus__Output>
      ContainerStatusRequest: MessageTypeDefinition<_runtime_v1_ContainerStatusRequest, _runtime_v1_ContainerStatusRequest__Output>
      ContainerStatusResponse: MessageTypeDefinition<_runtime_v1_ContainerStatusResponse, _runtime_v1_ContainerStatusResponse__Output>
      ContainerUser: MessageTypeDefinition<_runtime_v1_ContainerUser, _runtime_v1_ContainerUser__Output>
      CpuUsage: MessageTypeDefinition<_runtime_v1_CpuUsage, _runtime_v1_CpuUsage__Output>
      CreateContainerRequest: MessageTypeDefinition<_runtime_v1_CreateContainerRequest, _runtime_v1_CreateContainerRequest__Output>
      CreateContainerResponse: MessageTypeDefinition<_runtime_v1_CreateContainerResponse, _runtime_v1_CreateContainerResponse__Output>
      DNSConfig: MessageTypeDefinition<_runtime_v1_DNSConfig, _runtime_v1_DNSConfig__Output>
      Device: MessageTypeDefinition<_runtime_v1_Device, _runtime_v1_Device__Output>
      ExecRequest: MessageTypeDefinition<_runtime_v1_ExecRequest, _runtime_v1_ExecRequest__Output>
      ExecResponse: MessageTypeDefinition<_runtime_v1_ExecResponse, _runtime_v1_ExecResponse__Output>
      ExecSyncRequest: MessageTypeDefinition<_runtime_v1_ExecSyncRequest, _runtime_v1_ExecSyncRequest__Output>
      ExecSyncResponse: MessageTypeDefinition<_runtime_v1_ExecSyncResponse, _runtime_v1_ExecSyncResponse__Output>
      FilesystemIdentifier: MessageTypeDefinition<_runtime_v1_FilesystemIdentifier, _runtime_v1_FilesystemIdentifier__Output>
      FilesystemUsage: MessageTypeDefinition<_runtime_v1_FilesystemUsage, _runtime_v1_FilesystemUsage__Output>
      GetEventsRequest: MessageTypeDefinition<_runtime_v1_GetEventsRequest, _runtime_v1_GetEventsRequest__Output>
      HugepageLimit: MessageTypeDefinition<_runtime_v1_HugepageLimit, _runtime_v1_HugepageLimit__Output>
      IDMapping: MessageTypeDefinition<_runtime_v1_IDMapping, _runtime_v1_IDMapping__Output>
      Image: MessageTypeDefinition<_runtime_v1_Image, _runtime_v1_Image__Output>
      ImageFilter: MessageTypeDefinition<_runtime_v1_ImageFilter, _runtime_v1_ImageFilter__Output>
      ImageFsInfoRequest: MessageTypeDefinition<_runtime_v1_ImageFsInfoRequest, _runtime_v1_ImageFsInfoRequest__Output>
      ImageFsInfoResponse: MessageTypeDefinition<_runtime_v1_ImageFsInfoResponse, _runtime_v1_ImageFsInfoResponse__Output>
      ImageService: SubtypeConstructor<typeof grpc.Client, _runtime_v1_ImageServiceClient> & { service: _runtime_v1_ImageServiceDefinition }
      ImageSpec: MessageTypeDefinition<_runtime_v1_ImageSpec, _runtime_v1_ImageSpec__Output>
      ImageStatusRequest: MessageTypeDefinition<_runtime_v1_ImageStatusRequest, _runtime_v1_ImageStatusRequest__Output>
      ImageStatusResponse: MessageTypeDefinition<_runtime_v1_ImageStatusResponse, _runtime_v1_ImageStatusResponse__Output>
      Int64Value: MessageTypeDefinition<_runtime_v1_Int64Value, _runtime_v1_Int64Value__Output>
      IoUsage: MessageTypeDefinition<_runtime_v1_IoUsage, _runtime_v1_IoUsage__Output>
      KeyValue: MessageTypeDefinition<_runtime_v1_KeyValue, _runtime_v1_KeyValue__Output>
      LinuxContainerConfig: MessageTypeDefinition<_runtime_v1_LinuxContainerConfig, _runtime_v1_LinuxContainerConfig__Output>
      LinuxContainerResources: MessageTypeDefinition<_runtime_v1_LinuxContainerResources, _runtime_v1_LinuxContainerResources__Output>
      LinuxContainerSecurityContext: MessageTypeDefinition<_runtime_v1_LinuxContainerSecurityContext, _runtime_v1_LinuxContainerSecurityContext__Output>
      LinuxContainerUser: MessageTypeDefinition<_runtime_v1_LinuxContainerUser, _runtime_v1_LinuxContainerUser__Output>
      LinuxPodSandboxConfig: MessageTypeDefinition<_runtime_v1_LinuxPodSandboxConfig, _runtime_v1_LinuxPodSandboxConfig__Output>
      LinuxPodSandboxStats: MessageTypeDefinition<_runtime_v1_LinuxPodSandboxStats, _runtime_v1_LinuxPodSandboxStats__Output>
      LinuxPodSandboxStatus: MessageTypeDefinition<_runtime_v1_LinuxPodSandboxStatus, _runtime_v1_LinuxPodSandboxStatus__Output>
      LinuxRuntimeConfiguration: MessageTypeDefinition<_runtime_v1_LinuxRuntimeConfiguration, _runtime_v1_LinuxRuntimeConfiguration__Output>
      LinuxSandboxSecurityContext: MessageTypeDefinition<_runtime_v1_LinuxSandboxSecurityContext, _runtime_v1_LinuxSandboxSecurityContext__Output>
      ListContainerStatsRequest: MessageTypeDefinition<_runtime_v1_ListContainerStatsRequest, _runtime_v1_ListContainerStatsRequest__Output>
      ListContainerStatsResponse: MessageTypeDefinition<_runtime_v1_ListContainerStatsResponse, _runtime_v1_ListContainerStatsResponse__Output>
      ListContainersRequest: MessageTypeDefinition<_runtime_v1_ListContainersRequest, _runtime_v1_ListContainersRequest__Output>
      ListContainersResponse: MessageTypeDefinition<_runtime_v1_ListContainersResponse, _runtime_v1_ListContainersResponse__Output>
      ListImagesRequest: MessageTypeDefinition<_runtime_v1_ListImagesRequest, _runtime_v1_ListImagesRequest__Output>
      ListImagesResponse: MessageTypeDefinition<_runtime_v1_ListImagesResponse, _runtime_v1_ListImagesResponse__Output>
      ListMetricDescriptorsRequest: MessageTypeDefinition<_runtime_v1_ListMetricDescriptorsRequest, _runtime_v1_ListMetricDescriptorsRequest__Output>
      ListMetricDescriptorsResponse: MessageTypeDefinition<_runtime_v1_ListMetricDescriptorsResponse, _runtime_v1_ListMetricDescriptorsResponse__Output>
      ListPodSandboxMetricsRequest: MessageTypeDefinition<_runtime_v1_ListPodSandboxMetricsRequest, _runtime_v1_ListPodSandboxMetricsRequest__Output>
      ListPodSandboxMetricsResponse: MessageTypeDefinition<_runtime_v1_ListPodSandboxMetricsResponse, _runtime_v1_ListPodSandboxMetricsResponse__Output>
      ListPodSandboxRequest: MessageTypeDefinition<_runtime_v1_ListPodSandboxRequest, _runtime_v1_ListPodSandboxRequest__Output>
      ListPodSandboxResponse: MessageTypeDefinition<_runtime_v1_ListPodSandboxResponse, _runtime_v1_ListPodSandboxResponse__Output>
      ListPodSandboxStatsRequest: MessageTypeDefinition<_runtime_v1_ListPodSandboxStatsRequest, _runtime_v1_ListPodSandboxStatsRequest__Output>
      ListPodSandboxStatsResponse: MessageTypeDefinition<_runtime_v1_ListPodSandboxStatsResponse, _runtime_v1_ListPodSandboxStatsResponse__Output>
      MemoryUsage: MessageTypeDefinition<_runtime_v1_MemoryUsage, _runtime_v1_MemoryUsage__Output>
      Metric: MessageTypeDefinition<_runtime_v1_Metric, _runtime_v1_Metric__Output>
      MetricDescriptor: MessageTypeDefinition<_runtime_v1_MetricDescriptor, _runtime_v1_MetricDescriptor__Output>
      MetricType: EnumTypeDefinition
      Mount: MessageTypeDefinition<_runtime_v1_Mount, _runtime_v1_Mount__Output>
      MountPropagation: EnumTypeDefinition
      Namespace: MessageTypeDefinition<_runtime_v1_Namespace, _runtime_v1_Namespace__Output>
      NamespaceMode: EnumTypeDefinition
      NamespaceOption: MessageTypeDefinition<_runtime_v1_NamespaceOption, _runtime_v1_NamespaceOption__Output>
      NetworkConfig: MessageTypeDefinition<_runtime_v1_NetworkConfig, _runtime_v1_NetworkConfig__Output>
      NetworkInterfaceUsage: MessageTypeDefinition<_runtime_v1_NetworkInterfaceUsage, _runtime_v1_NetworkInterfaceUsage__Output>
      NetworkUsage: MessageTypeDefinition<_runtime_v1_NetworkUsage, _runtime_v1_NetworkUsage__Output>
      PodIP: MessageTypeDefinition<_runtime_v1_PodIP, _runtime_v1_PodIP__Output>
      PodSandbox: MessageTypeDefinition<_runtime_v1_PodSandbox, _runtime_v1_PodSandbox__Output>
      PodSandboxAttributes: MessageTypeDefinition<_runtime_v1_PodSandboxAttributes, _runtime_v1_PodSandboxAttributes__Output>
      PodSandboxConfig: MessageTypeDefinition<_runtime_v1_PodSandboxConfig, _runtime_v1_PodSandboxConfig__Output>
      PodSandboxFilter: MessageTypeDefinition<_runtime_v1_PodSandboxFilter, _runtime_v1_PodSandboxFilter__Output>
      PodSandboxMetadata: MessageTypeDefinition<_runtime_v1_PodSandboxMetadata, _runtime_v1_PodSandboxMetadata__Output>
      PodSandboxMetrics: MessageTypeDefinition<_runtime_v1_PodSandboxMetrics, _runtime_v1_PodSandboxMetrics__Output>
      PodSandboxNetworkStatus: MessageTypeDefinition<_runtime_v1_PodSandboxNetworkStatus, _runtime_v1_PodSandboxNetworkStatus__Output>
      PodSandboxState: EnumTypeDefinition
      PodSandboxStateValue: MessageTypeDefinition<_runtime_v1_PodSandboxStateValue, _runtime_v1_PodSandboxStateValue__Output>
      PodSandboxStats: MessageTypeDefinition<_runtime_v1_PodSandboxStats, _runtime_v1_PodSandboxStats__Output>
      PodSandboxStatsFilter: MessageTypeDefinition<_runtime_v1_PodSandboxStatsFilter, _runtime_v1_PodSandboxStatsFilter__Output>
      PodSandboxStatsRequest: MessageTypeDefinition<_runtime_v1_PodSandboxStatsRequest, _runtime_v1_PodSandboxStatsRequest__Output>
      PodSandboxStatsResponse: MessageTypeDefinition<_runtime_v1_PodSandboxStatsResponse, _runtime_v1_PodSandboxStatsResponse__Output>
      PodSandboxStatus: MessageTypeDefinition<_runtime_v1_PodSandboxStatus, _runtime_v1_PodSandboxStatus__Output>
      PodSandboxStatusRequest: MessageTypeDefinition<_runtime_v1_PodSandboxStatusRequest, _runtime_v1_PodSandboxStatusRequest__Output>
      PodSandboxStatusResponse: MessageTypeDefinition<_runtime_v1_PodSandboxStatusResponse, _runtime_v1_PodSandboxStatusResponse__Output>
      PortForwardRequest: MessageTypeDefinition<_runtime_v1_PortForwardRequest, _runtime_v1_PortForwardRequest__Output>
      PortForwardResponse: MessageTypeDefinition<_runtime_v1_PortForwardResponse, _runtime_v1_PortForwardResponse__Output>
      PortMapping: MessageTypeDefinition<_runtime_v1_PortMapping, _runtime_v1_PortMapping__Output>
      ProcessUsage: MessageTypeDefinition<_runtime_v1_ProcessUsage, _runtime_v1_ProcessUsage__Output>
      Protocol: EnumTypeDefinition
      PsiData: MessageTypeDefinition<_runtime_v1_PsiData, _runtime_v1_PsiData__Output>
      PsiStats: MessageTypeDefinition<_runtime_v1_PsiStats, _runtime_v1_PsiStats__Output>
      PullImageRequest: MessageTypeDefinition<_runtime_v1_PullImageRequest, _runtime_v1_PullImageRequest__Output>
      PullImageResponse: MessageTypeDefinition<_runtime_v1_PullImageResponse, _runtime_v1_PullImageResponse__Output>
      RemoveContainerRequest: MessageTypeDefinition<_runtime_v1_RemoveContainerRequest, _runtime_v1_RemoveContainerRequest__Output>
      RemoveContainerResponse: MessageTypeDefinition<_runtime_v1_RemoveContainerResponse, _runtime_v1_RemoveContainerResponse__Output>
      RemoveImageRequest: MessageTypeDefinition<_runtime_v1_RemoveImageRequest, _runtime_v1_RemoveImageRequest__Output>
      RemoveImageResponse: MessageTypeDefinition<_runtime_v1_RemoveImageResponse, _runtime_v1_RemoveImageResponse__Output>
      RemovePodSandboxRequest: MessageTypeDefinition<_runtime_v1_RemovePodSandboxRequest, _runtime_v1_RemovePodSandboxRequest__Output>
      RemovePodSandboxResponse: MessageTypeDefinition<_runtime_v1_RemovePodSandboxResponse, _runtime_v1_RemovePodSandboxResponse__Output>
      ReopenContainerLogRequest: MessageTypeDefinition<_runtime_v1_ReopenContainerLogRequest, _runtime_v1_ReopenContainerLogRequest__Output>
      ReopenContainerLogResponse: MessageTypeDefinition<_runtime_v1_ReopenContainerLogResponse, _runtime_v1_ReopenContainerLogResponse__Output>
      RestorePodRequest: MessageTypeDefinition<_runtime_v1_RestorePodRequest, _runtime_v1_RestorePodRequest__Output>
      RestorePodResponse: MessageTypeDefinition<_runtime_v1_RestorePodResponse, _runtime_v1_RestorePodResponse__Output>
      RestoredContainer: MessageTypeDefinition<_runtime_v1_RestoredContainer, _runtime_v1_RestoredContainer__Output>
      RunPodSandboxRequest: MessageTypeDefinition<_runtime_v1_RunPodSandboxRequest, _runtime_v1_RunPodSandboxRequest__Output>
      RunPodSandboxResponse: MessageTypeDefinition<_runtime_v1_RunPodSandboxResponse, _runtime_v1_RunPodSandboxResponse__Output>
      RuntimeCondition: MessageTypeDefinition<_runtime_v1_RuntimeCondition, _runtime_v1_RuntimeCondition__Output>
      RuntimeConfig: MessageTypeDefinition<_runtime_v1_RuntimeConfig, _runtime_v1_RuntimeConfig__Output>
      RuntimeConfigRequest: MessageTypeDefinition<_runtime_v1_RuntimeConfigRequest, _runtime_v1_RuntimeConfigRequest__Output>
      RuntimeConfigResponse: MessageTypeDefinition<_runtime_v1_RuntimeConfigResponse, _runtime_v1_RuntimeConfigResponse__Output>
      RuntimeFeatures: MessageTypeDefinition<_runtime_v1_RuntimeFeatures, _runtime_v1_RuntimeFeatures__Output>
      RuntimeHandler: MessageTypeDefinition<_runtime_v1_RuntimeHandler, _runtime_v1_RuntimeHandler__Output>
      RuntimeHandlerFeatures: MessageTypeDefinition<_runtime_v1_RuntimeHandlerFeatures, _runtime_v1_RuntimeHandlerFeatures__Output>
      RuntimeService: SubtypeConstructor<typeof grpc.Client, _runtime_v1_RuntimeServiceClient> & { service: _runtime_v1_RuntimeServiceDefinition }
      RuntimeStatus: MessageTypeDefinition<_runtime_v1_RuntimeStatus, _runtime_v1_RuntimeStatus__Output>
      SELinuxOption: MessageTypeDefinition<_runtime_v1_SELinuxOption, _runtime_v1_SELinuxOption__Output>
      SecurityProfile: MessageTypeDefinition<_runtime_v1_SecurityProfile, _runtime_v1_SecurityProfile__Output>
      Signal: EnumTypeDefinition
      StartContainerRequest: MessageTypeDefinition<_runtime_v1_StartContainerRequest, _runtime_v1_StartContainerRequest__Output>
      StartContainerResponse: MessageTypeDefinition<_runtime_v1_StartContainerResponse, _runtime_v1_StartContainerResponse__Output>
      StatusRequest: MessageTypeDefinition<_runtime_v1_StatusRequest, _runtime_v1_StatusRequest__Output>
      StatusResponse: MessageTypeDefinition<_runtime_v1_StatusResponse, _runtime_v1_StatusResponse__Output>
      StopContainerRequest: MessageTypeDefinition<_runtime_v1_StopContainerRequest, _runtime_v1_StopContainerRequest__Output>
      StopContainerResponse: MessageTypeDefinition<_runtime_v1_StopContainerResponse, _runtime_v1_StopContainerResponse__Output>
      StopPodSandboxRequest: MessageTypeDefinition<_runtime_v1_StopPodSandboxRequest, _runtime_v1_StopPodSandboxRequest__Output>
      StopPodSandboxResponse: MessageTypeDefinition<_runtime_v1_StopPodSandboxResponse, _runtime_v1_StopPodSandboxResponse__Output>
      StreamContainerStatsRequest: MessageTypeDefinition<_runtime_v1_StreamContainerStatsRequest, _runtime_v1_StreamContainerStatsRequest__Output>
      StreamContainerStatsResponse: MessageTypeDefinition<_runtime_v1_StreamContainerStatsResponse, _runtime_v1_StreamContainerStatsResponse__Output>
      StreamContainersRequest: MessageTypeDefinition<_runtime_v1_StreamContainersRequest, _runtime_v1_StreamContainersRequest__Output>
      StreamContainersResponse: MessageTypeDefinition<_runtime_v1_StreamContainersResponse, _runtime_v1_StreamContainersResponse__Output>
      StreamImagesRequest: MessageTypeDefinition<_runtime_v1_StreamImagesRequest, _runtime_v1_StreamImagesRequest__Output>
      StreamImagesResponse: MessageTypeDefinition<_runtime_v1_StreamImagesResponse, _runtime_v1_StreamImagesResponse__Output>
      StreamPodSandboxMetricsRequest: MessageTypeDefinition<_runtime_v1_StreamPodSandboxMetricsRequest, _runtime_v1_StreamPodSandboxMetricsRequest__Output>
      StreamPodSandboxMetricsResponse: MessageTypeDefinition<_runtime_v1_StreamPodSandboxMetricsResponse, _runtime_v1_StreamPodSandboxMetricsResponse__Output>
      StreamPodSandboxStatsRequest: MessageTypeDefinition<_runtime_v1_StreamPodSandboxStatsRequest, _runtime_v1_StreamPodSandboxStatsRequest__Output>
      StreamPodSandboxStatsResponse: MessageTypeDefinition<_runtime_v1_StreamPodSandboxStatsResponse, _runtime_v1_StreamPodSandboxStatsResponse__Output>
      StreamPodSandboxesRequest: MessageTypeDefinition<_runtime_v1_StreamPodSandboxesRequest, _runtime_v1_StreamPodSandboxesRequest__Output>
      StreamPodSandboxesResponse: MessageTypeDefinition<_runtime_v1_StreamPodSandboxesResponse, _runtime_v1_StreamPodSandboxesResponse__Output>
      SupplementalGroupsPolicy: EnumTypeDefinition
      SwapUsage: MessageTypeDefinition<_runtime_v1_SwapUsage, _runtime_v1_SwapUsage__Output>
      UInt64Value: MessageTypeDefinition<_runtime_v1_UInt64Value, _runtime_v1_UInt64Value__Output>
      UpdateContainerResourcesRequest: MessageTypeDefinition<_runtime_v1_UpdateContainerResourcesRequest, _runtime_v1_UpdateContainerResourcesRequest__Output>
      UpdateContainerResourcesResponse: MessageTypeDefinition<_runtime_v1_UpdateContainerResourcesResponse, _runtime_v1_UpdateContainerResourcesResponse__Output>
      UpdatePodSandboxResourcesRequest: MessageTypeDefinition<_runtime_v1_UpdatePodSandboxResourcesRequest, _runtime_v1_UpdatePodSandboxResourcesRequest__Output>
      UpdatePodSandboxResourcesResponse: MessageTypeDefinition<_runtime_v1_UpdatePodSandboxResourcesResponse, _runtime_v1_UpdatePodSandboxResourcesResponse__Output>
      UpdateRuntimeConfigRequest: MessageTypeDefinition<_runtime_v1_UpdateRuntimeConfigRequest, _runtime_v1_UpdateRuntimeConfigRequest__Output>
      UpdateRuntimeConfigResponse: MessageTypeDefinition<_runtime_v1_UpdateRuntimeConfigResponse, _runtime_v1_UpdateRuntimeConfigResponse__Output>
      UserNamespace: MessageTypeDefinition<_runtime_v1_UserNamespace, _runtime_v1_UserNamespace__Output>
      VersionRequest: MessageTypeDefinition<_runtime_v1_VersionRequest, _runtime_v1_VersionRequest__Output>
      VersionResponse: MessageTypeDefinition<_runtime_v1_VersionResponse, _runtime_v1_VersionResponse__Output>
      WindowsContainerConfig: MessageTypeDefinition<_runtime_v1_WindowsContainerConfig, _runtime_v1_WindowsContainerConfig__Output>
      WindowsContainerResources: MessageTypeDefinition<_runtime_v1_WindowsContainerResources, _runtime_v1_WindowsContainerResources__Output>
      WindowsContainerSecurityContext: MessageTypeDefinition<_runtime_v1_WindowsContainerSecurityContext, _runtime_v1_WindowsContainerSecurityContext__Output>
      WindowsContainerStats: MessageTypeDefinition<_runtime_v1_WindowsContainerStats, _runtime_v1_WindowsContainerStats__Output>
      WindowsCpuGroupAffinity: MessageTypeDefinition<_runtime_v1_WindowsCpuGroupAffinity, _runtime_v1_WindowsCpuGroupAffinity__Output>
      WindowsCpuUsage: MessageTypeDefinition<_runtime_v1_WindowsCpuUsage, _runtime_v1_WindowsCpuUsage__Output>
      WindowsFilesystemUsage: MessageTypeDefinition<_runtime_v1_WindowsFilesystemUsage, _runtime_v1_WindowsFilesystemUsage__Output>
      WindowsMemoryUsage: MessageTypeDefinition<_runtime_v1_WindowsMemoryUsage, _runtime_v1_WindowsMemoryUsage__Output>
      WindowsNamespaceOption: MessageTypeDefinition<_runtime_v1_WindowsNamespaceOption, _runtime_v1_WindowsNamespaceOption__Output>
      WindowsNetworkInterfaceUsage: MessageTypeDefinition<_runtime_v1_WindowsNetworkInterfaceUsage, _runtime_v1_WindowsNetworkInterfaceUsage__Output>
      WindowsNetworkUsage: MessageTypeDefinition<_runtime_v1_WindowsNetworkUsage, _runtime_v1_WindowsNetworkUsage__Output>
      WindowsPodSandboxConfig: MessageTypeDefinition<_runtime_v1_WindowsPodSandboxConfig, _runtime_v1_WindowsPodSandboxConfig__Output>
      WindowsPodSandboxStats: MessageTypeDefinition<_runtime_v1_WindowsPodSandboxStats, _runtime_v1_WindowsPodSandboxStats__Output>
      WindowsProcessUsage: MessageTypeDefinition<_runtime_v1_WindowsProcessUsage, _runtime_v1_WindowsProcessUsage__Output>
      WindowsSandboxSecurityContext: MessageTypeDefinition<_runtime_v1_WindowsSandboxSecurityContext, _runtime_v1_WindowsSandboxSecurityContext__Output>
    }
  }
}

