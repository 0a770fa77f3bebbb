import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flagDefaults } from './config/defaults.ts';
import { nullLogger } from '@nodelet/core/util';
import { coreKubeletConfig, imageFsMountpoint } from './kubelet-factory.ts';

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
      stats: { housekeepingIntervalMs: 10_000, maxHousekeepingIntervalMs: 15_000, volumeStatsAggPeriodMs: 60_000, imageFsPath: '/r/runtime' },
      eviction: {
        pressureTransitionPeriodMs: 300_000,
        maxPodGracePeriodSeconds: 0,
        imageGc: { highThresholdPercent: 85, lowThresholdPercent: 80, minAgeMs: 120_000, maxAgeMs: 0 },
        containerGc: { minAgeMs: 0, maxPerPodContainer: 1, maxContainers: -1 },
      },
      crashLoopBackOff: { initialMs: 1000, maxMs: 2000 },
      // containerLogMaxSize 10Mi / containerLogMaxFiles 5, resolvConf /etc/resolv.conf: the kubelet's defaults.
      containerLog: { maxSize: 10 * 1024 * 1024, maxFiles: 5 },
      dns: { clusterDNS: [], clusterDomain: '', resolvConf: '/etc/resolv.conf' },
      shutdownGracePeriodByPodPriority: [],
      cpuManager: { policy: 'none', reconcilePeriodMs: 10_000 },
      topologyManager: { policy: 'none', scope: 'container' },
      memoryManager: { policy: 'None' },
      featureGates: {},
      runtimeEndpoint: 'unix:///r/runtime/nodelet.sock',
      kubeletVersion: c.kubeletVersion,
    });
    assert.match(c.kubeletVersion, /^v\d+\.\d+\.\d+/);
    assert.equal('manifestUrl' in c, false);
  });
});

describe('imageFsMountpoint: imagefs from CRI ImageFsInfo', () => {
  const fsInfo = (mountpoint?: string) => ({ imageFilesystems: mountpoint === undefined ? [] : [{ fsId: { mountpoint } }], containerFilesystems: [] });
  const cases: Array<{ name: string; answer: () => Promise<unknown>; want: string | undefined }> = [
    { name: 'containerd names its snapshotter dir', answer: async () => fsInfo('/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs'), want: '/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs' },
    { name: 'no image filesystem: fall back', answer: async () => fsInfo(), want: undefined },
    { name: 'empty mountpoint: fall back', answer: async () => fsInfo(''), want: undefined },
    { name: 'the call fails: fall back', answer: async () => { throw new Error('UNIMPLEMENTED'); }, want: undefined },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const warned: string[] = [];
      const logger = { ...nullLogger, warn: (msg: string) => void warned.push(msg) };
      const cri = { imageFsInfo: c.answer } as unknown as Parameters<typeof imageFsMountpoint>[0];
      assert.equal(await imageFsMountpoint(cri, logger), c.want);
      assert.equal(warned.length, c.want === undefined ? 1 : 0);
    });
  }
  it('coreKubeletConfig takes it as stats.imageFsPath', () => {
    const c = coreKubeletConfig({ ...flagDefaults(), nodeName: 'n1', rootDir: '/r', crashLoopBackOff: { initialMs: 1, maxMs: 2 }, podLogsDir: '/r/logs' }, 'unix:///c.sock', '/ctd/root/snap');
    assert.equal(c.stats?.imageFsPath, '/ctd/root/snap');
  });
});
