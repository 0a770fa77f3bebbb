import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../util/clock.ts';
import { CriError, isNotFound } from '../types.ts';
import type { ContainerEventResponse__Output } from '../proto-types.ts';
import { FakeRuntime, HOST_IMAGE } from './fake-runtime.ts';

const sandboxConfig = { metadata: { name: 'web', uid: 'u1', namespace: 'default', attempt: 0 }, logDirectory: '/var/log/pods/x', labels: { app: 'web' } };

async function podWithContainer(rt: FakeRuntime, image = HOST_IMAGE) {
  const { podSandboxId } = await rt.runPodSandbox({ config: sandboxConfig });
  const { containerId } = await rt.createContainer({
    podSandboxId,
    config: { metadata: { name: 'app', attempt: 0 }, image: { image }, logPath: 'app/0.log' },
    sandboxConfig,
  });
  return { podSandboxId, containerId };
}

describe('FakeRuntime', () => {
  it('runs the container lifecycle with clock timestamps and records calls', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const rt = new FakeRuntime({ clock });
    const { podSandboxId, containerId } = await podWithContainer(rt);
    await clock.step(1000);
    await rt.startContainer({ containerId });
    await clock.step(2000);
    rt.exitContainer(containerId, { exitCode: 3 });
    const st = (await rt.containerStatus({ containerId })).status;
    assert.ok(st);
    assert.equal(st.state, 'CONTAINER_EXITED');
    assert.equal(st.exitCode, 3);
    assert.equal(st.reason, 'Error');
    assert.equal(st.startedAt, Date.UTC(2026, 0, 1, 0, 0, 1) * 1e6);
    assert.equal(st.finishedAt, Date.UTC(2026, 0, 1, 0, 0, 3) * 1e6);
    assert.equal(st.logPath, '/var/log/pods/x/app/0.log');
    assert.deepEqual(rt.methods(), ['runPodSandbox', 'createContainer', 'startContainer', 'containerStatus']);
    assert.deepEqual(rt.callsOf('startContainer'), [{ containerId }]);
    const list = await rt.listContainers({ filter: { podSandboxId, state: { state: 'CONTAINER_EXITED' } } });
    assert.deepEqual(list.containers.map((c) => c.id), [containerId]);
  });

  const errorCases: { name: string; run: (rt: FakeRuntime) => Promise<unknown>; code: string }[] = [
    { name: 'status of unknown container', run: (rt) => rt.containerStatus({ containerId: 'x' }), code: 'NOT_FOUND' },
    { name: 'stop of unknown sandbox', run: (rt) => rt.stopPodSandbox({ podSandboxId: 'x' }), code: 'NOT_FOUND' },
    { name: 'create with absent image', run: (rt) => podWithContainer(rt, 'nope:1'), code: 'NOT_FOUND' },
    { name: 'pull of a missing image', run: (rt) => (rt.missingImages.add('gone:latest'), rt.pullImage({ image: { image: 'gone' } })), code: 'NOT_FOUND' },
    { name: 'duplicate container name', run: async (rt) => {
      const { podSandboxId } = await podWithContainer(rt);
      return rt.createContainer({ podSandboxId, config: { metadata: { name: 'app', attempt: 0 }, image: { image: HOST_IMAGE } } });
    }, code: 'UNKNOWN' },
    { name: 'injected failure', run: (rt) => (rt.failNext('listImages', new CriError('UNAVAILABLE', 'down')), rt.listImages()), code: 'UNAVAILABLE' },
  ];
  for (const tc of errorCases) {
    it(`fails like a runtime: ${tc.name}`, async () => {
      const rt = new FakeRuntime();
      await assert.rejects(tc.run(rt), (e: unknown) => e instanceof CriError && e.code === tc.code);
    });
  }

  it('failNext applies once; removes are idempotent; absent image status is null', async () => {
    const rt = new FakeRuntime();
    rt.failNext('version');
    await assert.rejects(rt.version());
    assert.equal((await rt.version()).runtimeName, 'fake');
    await rt.removeContainer({ containerId: 'gone' });
    await rt.removePodSandbox({ podSandboxId: 'gone' });
    assert.equal((await rt.imageStatus({ image: { image: 'absent:1' } })).image, null);
    await assert.rejects(rt.podSandboxStatus({ podSandboxId: 'gone' }), isNotFound);
  });

  it('has the host image, pulls others, keeps the host image on remove', async () => {
    const rt = new FakeRuntime();
    assert.ok((await rt.imageStatus({ image: { image: 'nodelet.local/host' } })).image);
    const { imageRef } = await rt.pullImage({ image: { image: 'busybox' } });
    assert.ok((await rt.listImages()).images.some((i) => i.id === imageRef && i.repoTags.includes('busybox:latest')));
    await rt.removeImage({ image: { image: 'busybox:latest' } });
    await rt.removeImage({ image: { image: HOST_IMAGE } });
    assert.deepEqual((await rt.listImages()).images.map((i) => i.repoTags[0]), [HOST_IMAGE]);
  });

  it('streams lifecycle events until aborted', async () => {
    const rt = new FakeRuntime();
    const ac = new AbortController();
    const seen: ContainerEventResponse__Output[] = [];
    const done = (async () => {
      for await (const ev of rt.getContainerEvents({ signal: ac.signal })) seen.push(ev);
    })();
    const { containerId } = await podWithContainer(rt);
    await rt.startContainer({ containerId });
    rt.exitContainer(containerId, { exitCode: 0 });
    await rt.removeContainer({ containerId });
    ac.abort();
    await done;
    assert.equal(rt.eventSubscribers, 0);
    assert.deepEqual(
      seen.filter((e) => e.containerId === containerId).map((e) => e.containerEventType),
      ['CONTAINER_CREATED_EVENT', 'CONTAINER_STARTED_EVENT', 'CONTAINER_STOPPED_EVENT', 'CONTAINER_DELETED_EVENT'],
    );
    const stopped = seen.find((e) => e.containerEventType === 'CONTAINER_STOPPED_EVENT' && e.containerId === containerId);
    assert.equal(stopped?.containersStatuses[0]?.reason, 'Completed');
    assert.equal(stopped?.podSandboxStatus?.metadata?.name, 'web');
  });

  it('breaks event streams with an error on demand', async () => {
    const rt = new FakeRuntime();
    const it = rt.getContainerEvents()[Symbol.asyncIterator]();
    const next = it.next();
    rt.breakEventStreams();
    await assert.rejects(next, (e: unknown) => e instanceof CriError && e.code === 'UNAVAILABLE');
  });

  it('holdNext blocks a call until released', async () => {
    const rt = new FakeRuntime();
    const release = rt.holdNext('status');
    let done = false;
    const p = rt.status().then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(done, false);
    release();
    await p;
    assert.equal(done, true);
  });
});
