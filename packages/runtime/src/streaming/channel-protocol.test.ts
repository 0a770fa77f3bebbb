import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exitStatus, frame, parsePorts, pickProtocol, portPrefix, PORT_FORWARD_PROTOCOLS, REMOTE_COMMAND_PROTOCOLS, unframe } from './channel-protocol.ts';

test('pickProtocol prefers ours in our order, false when none match', () => {
  const cases: Array<[string[], readonly string[], string | false]> = [
    [['v4.channel.k8s.io', 'v5.channel.k8s.io'], REMOTE_COMMAND_PROTOCOLS, 'v5.channel.k8s.io'],
    [['v4.channel.k8s.io', 'v3.channel.k8s.io'], REMOTE_COMMAND_PROTOCOLS, 'v4.channel.k8s.io'],
    [['SPDY/3.1'], REMOTE_COMMAND_PROTOCOLS, false],
    [['v4.channel.k8s.io', 'portforward.k8s.io'], PORT_FORWARD_PROTOCOLS, 'portforward.k8s.io'],
  ];
  for (const [offered, ours, want] of cases) assert.equal(pickProtocol(offered, ours), want, offered.join(','));
});

test('frame / unframe round-trip; empty message is undefined', () => {
  const f = frame(2, 'err');
  assert.deepEqual([...f], [2, 101, 114, 114]);
  assert.deepEqual(unframe(f), { channel: 2, data: Buffer.from('err') });
  assert.equal(unframe(Buffer.alloc(0)), undefined);
});

test('exitStatus: Success for 0, NonZeroExitCode with the ExitCode cause otherwise', () => {
  assert.deepEqual(exitStatus(0), { metadata: {}, status: 'Success' });
  const s = exitStatus(3);
  assert.equal(s.status, 'Failure');
  assert.equal(s.reason, 'NonZeroExitCode');
  assert.deepEqual(s.details?.causes, [{ reason: 'ExitCode', message: '3' }]);
});

test('parsePorts accepts repeated and comma-separated values, refuses bad ones', () => {
  const cases: Array<[string[], number[] | string]> = [
    [['80', '8080'], [80, 8080]],
    [['80,443'], [80, 443]],
    [[], []],
    [['0'], 'invalid port: "0"'],
    [['http'], 'invalid port: "http"'],
    [['70000'], 'invalid port: "70000"'],
  ];
  for (const [input, want] of cases) {
    const r = parsePorts(input);
    assert.deepEqual(r.ok ? r.ports : r.reason, want, input.join('|'));
  }
});

test('portPrefix is uint16 little-endian', () => {
  assert.deepEqual([...portPrefix(8080)], [0x90, 0x1f]);
});
