import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LinuxContainerSecurityContext__Output } from '../../../../proto/gen/runtime/v1/LinuxContainerSecurityContext.ts';
import { DEFAULT_CAPS, boundingSet } from './capabilities.ts';

const sc = (p: { privileged?: boolean; add?: string[]; drop?: string[] }) =>
  ({ privileged: p.privileged ?? false, capabilities: { addCapabilities: p.add ?? [], dropCapabilities: p.drop ?? [], addAmbientCapabilities: [] } }) as unknown as LinuxContainerSecurityContext__Output;
const set = (caps: readonly string[]) => ['-all', ...[...caps].sort().map((c) => `+${c}`)].join(',');

test('boundingSet', () => {
  const cases: Array<[string, LinuxContainerSecurityContext__Output | null, string | undefined]> = [
    ['no security context: defaults', null, set(DEFAULT_CAPS)],
    ['privileged: everything', sc({ privileged: true }), undefined],
    ['add ALL: everything', sc({ add: ['ALL'] }), undefined],
    ['add one, CAP_ prefix', sc({ add: ['CAP_NET_ADMIN'] }), set([...DEFAULT_CAPS, 'net_admin'])],
    ['drop one', sc({ drop: ['KILL'] }), set(DEFAULT_CAPS.filter((c) => c !== 'kill'))],
    ['drop ALL, add one', sc({ drop: ['ALL'], add: ['NET_BIND_SERVICE'] }), set(['net_bind_service'])],
    ['drop ALL', sc({ drop: ['ALL'] }), '-all'],
  ];
  for (const [name, input, want] of cases) assert.equal(boundingSet(input), want, name);
});
