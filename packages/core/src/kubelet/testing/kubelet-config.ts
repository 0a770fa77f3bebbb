/** The config of a test kubelet on the fake runtime, running static pods from /manifests (a MemoryManifestFs). */
import type { KubeletConfig } from '../config.ts';

export function staticPodKubeletConfig(extra: Partial<KubeletConfig> = {}): KubeletConfig {
  return {
    nodeName: 'node1', podManifestPath: '/manifests', fileCheckFrequencyMs: 2_000, httpCheckFrequencyMs: 20_000,
    podLogsDir: '/var/log/pods', rootDir: '/var/lib/nodelet', maxPods: 110, plegRelistPeriodMs: 1_000,
    plegRelistThresholdMs: 180_000, crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 },
    runtimeEndpoint: 'fake:///runtime', kubeletVersion: 'v1.34.0-nodelet',
    ...extra,
  };
}
