import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import type { ContainerEventResponse__Output } from './proto-types.ts';
import { detectEventSource, type RuntimeEventSource } from './runtime-events.ts';
import { CriError, type CriClient, type CriErrorCode } from './types.ts';

const EP = 'unix:///run/test.sock';

/** A CRI client whose GetContainerEvents behaves as told and whose Version names `runtimeName`. */
function stubCri(events: 'open' | 'event' | 'ended' | CriErrorCode, runtimeName: string | Error) {
  const state = { eventsAborted: false, versionCalls: 0 };
  const cri = {
    endpoint: EP,
    async *getContainerEvents(o: { signal?: AbortSignal } = {}): AsyncGenerator<ContainerEventResponse__Output> {
      if (events === 'ended') return;
      if (events === 'event') {
        yield { containerId: 'c', containerEventType: 'CONTAINER_STARTED_EVENT', createdAt: 0, podSandboxStatus: null, containersStatuses: [] };
      }
      if (events !== 'open' && events !== 'event') throw new CriError(events, `injected ${events}`);
      await new Promise<void>((resolve) => o.signal?.addEventListener('abort', () => resolve(), { once: true }));
      state.eventsAborted = true;
    },
    async version() {
      state.versionCalls++;
      if (runtimeName instanceof Error) throw runtimeName;
      return { version: '0.1.0', runtimeName, runtimeVersion: '1', runtimeApiVersion: 'v1' };
    },
  };
  return { cri: cri as unknown as CriClient, state };
}

const fakeContainerd = (made: string[]) => (endpoint: string): RuntimeEventSource => {
  made.push(endpoint);
  return { name: 'containerd', subscribe: async function* () {} };
};

describe('detectEventSource', () => {
  const cases: {
    name: string;
    events: Parameters<typeof stubCri>[0];
    runtime: string | Error;
    want: { ok: true; source: string } | { ok: false; reason: string };
    needsQuiet?: boolean;
  }[] = [
    { name: 'a silent open stream means CRI events work', events: 'open', runtime: 'containerd', want: { ok: true, source: 'cri' }, needsQuiet: true },
    { name: 'a first event means CRI events work', events: 'event', runtime: 'containerd', want: { ok: true, source: 'cri' } },
    { name: 'UNIMPLEMENTED on containerd uses containerd events', events: 'UNIMPLEMENTED', runtime: 'containerd', want: { ok: true, source: 'containerd' } },
    { name: 'UNIMPLEMENTED elsewhere has no source', events: 'UNIMPLEMENTED', runtime: 'cri-o', want: { ok: false, reason: 'EventsUnsupported' } },
    { name: 'a stream ended at once on containerd uses containerd events', events: 'ended', runtime: 'containerd', want: { ok: true, source: 'containerd' } },
    { name: 'an unreachable runtime', events: 'UNAVAILABLE', runtime: 'containerd', want: { ok: false, reason: 'RuntimeUnavailable' } },
    { name: 'Version failing after UNIMPLEMENTED', events: 'UNIMPLEMENTED', runtime: new CriError('UNAVAILABLE', 'gone'), want: { ok: false, reason: 'RuntimeUnavailable' } },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const clock = new FakeClock();
      const { cri, state } = stubCri(tc.events, tc.runtime);
      const made: string[] = [];
      const pending = detectEventSource(cri, EP, { clock, probeTimeoutMs: 500, createContainerdSource: fakeContainerd(made) });
      if (tc.needsQuiet) await clock.step(500);
      const got = await pending;
      const summary = got.ok ? { ok: true, source: got.source.name } : { ok: false, reason: got.reason };
      assert.deepEqual(summary, tc.want, got.message);
      assert.deepEqual(made, tc.want.ok && tc.want.source === 'containerd' ? [EP] : []);
      if (tc.events === 'open') assert.equal(state.eventsAborted, true, 'the probe stream is closed');
      assert.equal(state.versionCalls > 0, tc.events !== 'open' && tc.events !== 'event' && tc.events !== 'UNAVAILABLE');
    });
  }

  it('does not decide before the quiet period has passed', async () => {
    const clock = new FakeClock();
    const { cri } = stubCri('open', 'containerd');
    let settled = false;
    const pending = detectEventSource(cri, EP, { clock, probeTimeoutMs: 500 }).then((r) => ((settled = true), r));
    await clock.step(499);
    assert.equal(settled, false);
    await clock.step(1);
    assert.equal((await pending).ok, true);
  });
});
