import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flagDefaults } from './config/defaults.ts';
import { coreKubeletConfig } from './kubelet-factory.ts';

describe('coreKubeletConfig', () => {
  it('maps the agent configuration onto createKubelet config', () => {
    const c = coreKubeletConfig(
      { ...flagDefaults(), nodeName: 'n1', rootDir: '/r', podManifestPath: '/m', crashLoopBackOff: { initialMs: 1000, maxMs: 2000 }, podLogsDir: '/r/logs/pods' },
      'unix:///r/runtime/nodelet.sock',
    );
    assert.deepEqual(c, {
      nodeName: 'n1',
      podManifestPath: '/m',
      fileCheckFrequencyMs: 20_000,
      httpCheckFrequencyMs: 20_000,
      syncFrequencyMs: 60_000,
      podLogsDir: '/r/logs/pods',
      rootDir: '/r',
      maxPods: 110,
      plegRelistPeriodMs: 1000,
      plegRelistThresholdMs: 180_000,
      eventedPleg: true,
      cgroupRoot: '/',
      cgroupsPerQOS: true,
      stats: { housekeepingIntervalMs: 10_000, maxHousekeepingIntervalMs: 15_000, imageFsPath: '/r/runtime' },
      eviction: {
        pressureTransitionPeriodMs: 300_000,
        maxPodGracePeriodSeconds: 0,
        imageGc: { highThresholdPercent: 85, lowThresholdPercent: 80, minAgeMs: 120_000, maxAgeMs: 0 },
        containerGc: { minAgeMs: 0, maxPerPodContainer: 1, maxContainers: -1 },
      },
      crashLoopBackOff: { initialMs: 1000, maxMs: 2000 },
      runtimeEndpoint: 'unix:///r/runtime/nodelet.sock',
      kubeletVersion: c.kubeletVersion,
    });
    assert.match(c.kubeletVersion, /^v\d+\.\d+\.\d+/);
    assert.equal('manifestUrl' in c, false);
  });
});
