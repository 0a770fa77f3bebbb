/**
 * @nodelet/runtime/testing: helpers for tests that need the embedded runtime: an in-process runtime, a
 * busybox image and a loopback registry, streaming clients, the dynamic-loader canary.
 */
export { startInProcess } from './harness.ts';
export { buildLdCanary, hasGcc } from './ld-canary.ts';
export {
  buildBusyboxOciLayout,
  pushToRegistry,
  startLoopbackRegistry,
  type LoopbackRegistry,
  type RegistryUser,
} from '../images/testing/build-busybox.ts';
export { openChannelSession } from '../streaming/testing/channel-client.ts';
export { connectSpdy } from '../streaming/testing/spdy-client.ts';
