import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from './load-config.ts';
import { coreEvictionConfig } from './eviction-config.ts';

const deps = (files: Record<string, string> = {}) => ({
  readFile: (p: string) => {
    const f = files[p];
    if (f === undefined) throw new Error('ENOENT');
    return f;
  },
  hostname: () => 'node-a',
  cwd: () => '/work',
});

test('eviction and GC flags: defaults and values', () => {
  const d = loadConfig([], deps());
  assert.ok(d.ok && !d.help);
  assert.equal(d.config.evictionHard, undefined, 'kubelet Linux defaults apply in core');
  assert.equal(d.config.evictionPressureTransitionPeriodMs, 300_000);
  assert.deepEqual([d.config.imageGCHighThresholdPercent, d.config.imageGCLowThresholdPercent, d.config.imageMinimumGCAgeMs], [85, 80, 120_000]);
  assert.deepEqual([d.config.minimumContainerTtlMs, d.config.maxPerPodContainerCount, d.config.maxContainerCount], [0, 1, -1]);
  const r = loadConfig(
    [
      '--eviction-hard=memory.available<1Gi,nodefs.available<5%',
      '--eviction-soft', 'memory.available<2Gi',
      '--eviction-soft-grace-period=memory.available=1m30s',
      '--eviction-minimum-reclaim=memory.available=100Mi',
      '--eviction-pressure-transition-period=30s',
      '--image-gc-high-threshold=90', '--image-gc-low-threshold=70', '--minimum-image-gc-age=1m',
      '--maximum-dead-containers-per-container=2', '--maximum-dead-containers=10', '--minimum-container-ttl-duration=5s',
    ],
    deps(),
  );
  assert.ok(r.ok && !r.help, !r.ok ? r.reason : '');
  assert.deepEqual(r.config.evictionHard, { 'memory.available': '1Gi', 'nodefs.available': '5%' });
  assert.deepEqual(r.config.evictionSoftGracePeriod, { 'memory.available': '1m30s' });
  const core = coreEvictionConfig(r.config);
  assert.equal(core.pressureTransitionPeriodMs, 30_000);
  assert.deepEqual(core.imageGc, { highThresholdPercent: 90, lowThresholdPercent: 70, minAgeMs: 60_000, maxAgeMs: 0 });
  assert.deepEqual(core.containerGc, { minAgeMs: 5_000, maxPerPodContainer: 2, maxContainers: 10 });
});

test('eviction config file fields', () => {
  const file = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
evictionHard: { memory.available: 200Mi }
evictionPressureTransitionPeriod: 1m
imageGCHighThresholdPercent: 70
imageGCLowThresholdPercent: 60
imageMaximumGCAge: 1h
authorization: { mode: AlwaysAllow }
`;
  const r = loadConfig(['--config=/c.yaml'], deps({ '/c.yaml': file }));
  assert.ok(r.ok && !r.help, !r.ok ? r.reason : '');
  assert.deepEqual(r.config.evictionHard, { 'memory.available': '200Mi' });
  assert.equal(r.config.evictionPressureTransitionPeriodMs, 60_000);
  assert.equal(r.config.imageMaximumGCAgeMs, 3_600_000);
  assert.deepEqual(r.warnings, []);
});

test('bad eviction input refuses to start, naming the field: table', () => {
  const cases: Array<[string[], string]> = [
    [['--eviction-hard=memory.available<10XYZ'], "invalid configuration: evictionHard: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    [['--eviction-hard=nodefs.available<110%'], 'invalid configuration: evictionHard: eviction percentage threshold nodefs.available must be <= 100%: 110%'],
    [['--eviction-hard=foo.available<1Gi'], 'invalid configuration: evictionHard: unsupported eviction signal foo.available'],
    [['--eviction-soft=memory.available<1Gi'], 'invalid configuration: evictionSoftGracePeriod: grace period must be specified for the soft eviction threshold memory.available'],
    [['--eviction-hard=memory.available'], 'invalid argument "memory.available" for "--eviction-hard" flag: malformed pair, expect string<string'],
    [['--serialize-image-pulls=true', '--max-parallel-image-pulls=3'], 'invalid configuration: maxParallelImagePulls (--max-parallel-image-pulls) 3 must be 1 or unset when serializeImagePulls (--serialize-image-pulls) is true'],
    [['--image-gc-high-threshold=101'], 'invalid configuration: imageGCHighThresholdPercent (--image-gc-high-threshold) 101 must be between 0 and 100, inclusive'],
    [['--image-gc-high-threshold=50', '--image-gc-low-threshold=60'], 'invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) 60 must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) 50'],
  ];
  for (const [argv, reason] of cases) assert.deepEqual(loadConfig(argv, deps()), { ok: false, reason }, argv.join(' '));
});

test('the image GC period stays the kubelet constant whatever the environment holds (no test-only variables in production)', () => {
  const d = loadConfig([], deps());
  assert.ok(d.ok && !d.help);
  const saved = process.env.NODELET_IMAGE_GC_PERIOD_MS;
  process.env.NODELET_IMAGE_GC_PERIOD_MS = '2000';
  try {
    assert.equal(coreEvictionConfig(d.config).imageGcPeriodMs, undefined, 'core applies ImageGCPeriod (5 min)');
  } finally {
    if (saved === undefined) delete process.env.NODELET_IMAGE_GC_PERIOD_MS;
    else process.env.NODELET_IMAGE_GC_PERIOD_MS = saved;
  }
});
