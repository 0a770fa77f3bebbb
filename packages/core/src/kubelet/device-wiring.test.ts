import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { admitHandlers } from '../lifecycle/admit.ts';
import { buildDeviceManager, withDeviceAdmission } from './device-wiring.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';

const parts = { sourcesReady: () => true, sourcePods: () => [], onChange: () => {} };

// kubelet.go NewMainKubelet: eviction, sysctls, then GetAllocateResourcesPodAdmitHandler, then the predicates.
test('the device manager admits after eviction and sysctls, before the predicates', () => {
  const h = admitHandlers();
  assert.ok(h.ok);
  const dm = buildDeviceManager({ clock: new FakeClock(), logger: nullLogger, hostFs: {} } as unknown as KubeletDeps, { rootDir: '/var/lib/nodelet' } as KubeletConfig, parts);
  assert.ok(dm);
  assert.equal(dm.socket, '/var/lib/nodelet/device-plugins/kubelet.sock');
  assert.deepEqual(withDeviceAdmission(h.handlers, dm).map((x) => x.name), [h.handlers[0]!.name, h.handlers[1]!.name, 'devicemanager', 'predicate']);
  assert.deepEqual(withDeviceAdmission(h.handlers, undefined).map((x) => x.name), h.handlers.map((x) => x.name));
});

test('no device manager without a host file system (fakes, unit kubelets)', () => {
  assert.equal(buildDeviceManager({ clock: new FakeClock(), logger: nullLogger } as unknown as KubeletDeps, { rootDir: '/x' } as KubeletConfig, parts), undefined);
});
