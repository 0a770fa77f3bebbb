/** The kubelet's pod sources (buildPodSources) feeding its MergedPodConfig: source errors become Warning events and log lines. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../util/clock.ts';
import { nullLogger, RecordingLogger, type Logger } from '../util/logger.ts';
import { InMemoryEventBus } from '../events/bus.ts';
import { KubeletEventRecorder } from '../events/recorder.ts';
import { MergedPodConfig } from '../config/pod-config.ts';
import type { PodUpdate } from '../config/types.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';
import { buildPodSources } from './pod-sources.ts';

/** The kubelet's pod config and sources for node n1 (as kubelet.ts builds them). */
function podConfigSetup(o: { clock: FakeClock; bus?: InMemoryEventBus; logger?: Logger; podManifestPath?: string }) {
  const { clock } = o;
  const bus = o.bus ?? new InMemoryEventBus({ clock });
  const logger = o.logger ?? nullLogger;
  const podConfig = new MergedPodConfig({ clock, logger, bus });
  const deps = { clock, logger } as unknown as KubeletDeps;
  const config = { nodeName: 'n1', fileCheckFrequencyMs: 20_000, httpCheckFrequencyMs: 20_000, ...(o.podManifestPath ? { podManifestPath: o.podManifestPath } : {}) } as KubeletConfig;
  const sources = buildPodSources(deps, config, { podConfig, recorder: new KubeletEventRecorder({ bus, clock }) });
  return {
    podConfig,
    sources,
    start: () => Promise.all(sources.map((s) => s.start())),
    stop: () => Promise.all(sources.map((s) => s.stop())),
  };
}

test('file source wired to the pod config; broken manifest → Warning event + log line naming the file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-manifests-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'good.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: { name: good }\nspec: { containers: [{ name: c, image: x }] }\n');
  await writeFile(join(dir, 'bad.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: { name: bad }\nspec: { restartPolicy: Sometimes, containers: [{ name: c, image: x }] }\n');
  const clock = new FakeClock();
  const bus = new InMemoryEventBus({ clock });
  const log = new RecordingLogger();
  const setup = podConfigSetup({ clock, bus, logger: log.logger, podManifestPath: dir });
  const updates: PodUpdate[] = [];
  setup.podConfig.subscribe((u) => updates.push(u));
  await setup.start();
  t.after(() => setup.stop());
  assert.equal(setup.podConfig.sourcesReady(), true);
  assert.deepEqual(updates.map((u) => [u.op, u.pods.map((p) => p.metadata?.name)]), [['ADD', ['good-n1']]]);
  const warn = bus.recent({ types: ['k8sEvent'] });
  assert.equal(warn.length, 1);
  const e = warn[0];
  assert.ok(e?.type === 'k8sEvent');
  assert.equal(e.eventType, 'Warning');
  assert.equal(e.reason, 'FailedValidation');
  assert.equal(e.involvedObject.kind, 'Node');
  assert.ok(e.message.includes(join(dir, 'bad.yaml')), e.message);
  assert.ok(e.message.includes('spec.restartPolicy: Unsupported value: "Sometimes"'), e.message);
  const line = log.records.find((r) => r.msg === 'could not process manifest file');
  assert.equal(line?.path, join(dir, 'bad.yaml'));
  assert.equal(bus.recent({ types: ['podConfig'] }).length, 1);
});

test('a wrong-typed manifest: Warning event on the node naming the file and the field; the good pod is added; long messages cut at 1 kB', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-manifests-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'good.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: { name: good }\nspec: { containers: [{ name: c, image: x }] }\n');
  await writeFile(join(dir, 'wrong.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: { name: wrong }\nspec: { containers: "notalist" }\n');
  const many = Array.from({ length: 300 }, (_, i) => ({ name: `c${i}`, image: i }));
  await writeFile(join(dir, 'many.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'many' }, spec: { containers: many } }));
  const clock = new FakeClock();
  const bus = new InMemoryEventBus({ clock });
  const setup = podConfigSetup({ clock, bus, podManifestPath: dir });
  const updates: PodUpdate[] = [];
  setup.podConfig.subscribe((u) => updates.push(u));
  await setup.start();
  t.after(() => setup.stop());
  assert.deepEqual(updates.map((u) => [u.op, u.pods.map((p) => p.metadata?.name)]), [['ADD', ['good-n1']]]);
  const events = bus.recent({ types: ['k8sEvent'] }).flatMap((e) => (e.type === 'k8sEvent' ? [e] : []));
  const wrong = events.find((e) => e.message.includes(join(dir, 'wrong.yaml')));
  assert.equal(
    wrong?.message,
    `Error validating pod from file source ${join(dir, 'wrong.yaml')}: invalid pod: [spec.containers: Invalid value: "string": spec.containers in body must be of type array: "string"]`,
  );
  assert.deepEqual([wrong?.eventType, wrong?.reason, wrong?.involvedObject.kind, wrong?.involvedObject.name], ['Warning', 'FailedValidation', 'Node', 'n1']);
  const long = events.find((e) => e.message.includes(join(dir, 'many.json')));
  assert.equal(long?.message.length, 1024);
  assert.ok(long?.message.endsWith('...'));
});

test('no sources configured: nothing to start, sourcesReady trivially true', async () => {
  const setup = podConfigSetup({ clock: new FakeClock() });
  await setup.start();
  assert.equal(setup.sources.length, 0);
  assert.equal(setup.podConfig.sourcesReady(), true);
  await setup.stop();
});

test("issue #15's examples: a mount naming no volume is refused (event + log line with the API server's message), a probe on an undeclared port name is admitted", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'nodelet-manifests-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const c = (extra: string) => `apiVersion: v1\nkind: Pod\nmetadata: { name: NAME }\nspec: { containers: [{ name: c, image: x, ${extra} }] }\n`;
  await writeFile(join(dir, 'probe.yaml'), c('readinessProbe: { httpGet: { port: admin } }').replace('NAME', 'probe'));
  await writeFile(join(dir, 'mount.yaml'), c('volumeMounts: [{ name: x, mountPath: /x }]').replace('NAME', 'mount'));
  const clock = new FakeClock();
  const bus = new InMemoryEventBus({ clock });
  const log = new RecordingLogger();
  const setup = podConfigSetup({ clock, bus, logger: log.logger, podManifestPath: dir });
  const updates: PodUpdate[] = [];
  setup.podConfig.subscribe((u) => updates.push(u));
  await setup.start();
  t.after(() => setup.stop());
  assert.deepEqual(updates.map((u) => [u.op, u.pods.map((p) => p.metadata?.name)]), [['ADD', ['probe-n1']]]);
  const events = bus.recent({ types: ['k8sEvent'] }).flatMap((e) => (e.type === 'k8sEvent' ? [e] : []));
  // ValidateVolumeMounts (v1.28 pkg/apis/core/validation): field.NotFound on the mount's name.
  const want = `Error validating pod from file source ${join(dir, 'mount.yaml')}: invalid pod: [spec.containers[0].volumeMounts[0].name: Not found: "x"]`;
  assert.deepEqual(events.map((e) => [e.eventType, e.reason, e.message]), [['Warning', 'FailedValidation', want]]);
  assert.equal(log.records.find((r) => r.msg === 'could not process manifest file')?.path, join(dir, 'mount.yaml'));
});
