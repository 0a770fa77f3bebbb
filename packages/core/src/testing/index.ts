/** @nodelet/core/testing: test doubles for code built on @nodelet/core (injected clock, recording logger, API client). */
export { FakeClock } from '../util/clock.ts';
export { RecordingLogger } from '../util/logger.ts';
export { FakeApiClient, fail, ok } from '../apiclient/testing/fake-client.ts';
export { unexpectedLint } from '../metrics/promtool-exceptions.ts';
export { SAMPLE } from '../metrics/testing/sample-registry.ts';
/** The /metrics/cadvisor renderer, for bench/cadvisor-render.ts (the agent reaches it through the kubelet). */
export { CadvisorRenderer } from '../metrics/cadvisor-renderer.ts';
export type { CadvisorContainerInfo } from '../metrics/types.ts';
export { TestDevicePlugin, testAllocateResponse, type TestDevicePluginOptions } from '../cm/devicemanager/testing/test-device-plugin.ts';
export { podResourcesProtoClient, type PodResourcesProtoClient } from '../podresources/testing/proto-client.ts';
