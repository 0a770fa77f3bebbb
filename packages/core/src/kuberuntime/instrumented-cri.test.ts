import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { instrumentCri, operationName } from './instrumented-cri.ts';

test('operation names', () => {
  const cases: Array<[string, string]> = [
    ['listPodSandbox', 'list_podsandbox'],
    ['runPodSandbox', 'run_podsandbox'],
    ['createContainer', 'create_container'],
    ['containerStatus', 'container_status'],
    ['podSandboxStatus', 'podsandbox_status'],
    ['pullImage', 'pull_image'],
    ['version', 'version'],
    ['updateContainerResources', 'update_container'], // instrumented_services.go
  ];
  for (const [m, want] of cases) assert.equal(operationName(m), want);
});

test('instrumentCri times calls and counts errors', async () => {
  const clock = new FakeClock();
  const fake = new FakeRuntime({ clock });
  const seen: string[] = [];
  const cri = instrumentCri(fake, { observeOperation: (op, _s, err) => seen.push(`${op}${err ? ' error' : ''}`) }, clock);
  await cri.version();
  fake.failNext('listContainers');
  await assert.rejects(cri.listContainers({}));
  assert.deepEqual(seen, ['version', 'list_containers error']);
  assert.equal(cri.endpoint, fake.endpoint);
});

test('RunPodSandbox is observed with its runtime handler (kubelet_run_podsandbox_* runtime_handler label)', async () => {
  const clock = new FakeClock();
  const fake = new FakeRuntime({ clock });
  const seen: Array<[string, string | undefined]> = [];
  const cri = instrumentCri(fake, { observeOperation: (op, _s, _e, handler) => seen.push([op, handler]) }, clock);
  const config = { metadata: { name: 'p', namespace: 'default', uid: 'u', attempt: 0 } };
  await cri.runPodSandbox({ config, runtimeHandler: 'userns' });
  await cri.runPodSandbox({ config: { ...config, metadata: { ...config.metadata, uid: 'v' } } });
  await cri.version();
  assert.deepEqual(seen, [['run_podsandbox', 'userns'], ['run_podsandbox', ''], ['version', undefined]]);
});
