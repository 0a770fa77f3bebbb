/**
 * Memory-pressure eviction ORDER of admitted API-server pods (API server test double, embedded runtime):
 * 1. the agent starts without thresholds; a BestEffort pod (holding ~24 MiB in a shell variable, so it uses
 *    the most above its request), a Burstable pod (memory request 1 byte) and a Guaranteed pod are admitted
 *    and Running, beside a static pod;
 * 2. the agent is killed (SIGKILL) and restarted with memory.available soft threshold 1000Ti (grace 0s): the
 *    pods survive the restart and the restarted agent evicts BestEffort, then Burstable, then Guaranteed,
 *    one pod per pass (10 s), each Failed / Evicted with the kubelet's message; the static pod stays;
 *    kubelet_evictions{eviction_signal="memory.available"} is 3.
 * Prints the pressure timeline. Set NODELET_TEST_RUNTIME_ENDPOINT (e.g. unix:///run/containerd.sock) to run it
 * on another CRI runtime (NODELET_TEST_IMAGE names a busybox image there; default the host image).
 */
import { evictionOrderSuite } from './testing/eviction-order-suite.ts';

evictionOrderSuite({
  endpoint: () => process.env.NODELET_TEST_RUNTIME_ENDPOINT,
  image: process.env.NODELET_TEST_IMAGE ?? 'nodelet.local/host:latest',
});
