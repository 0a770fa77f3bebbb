/** Exec / attach over SPDY: which streams a protocol expects, what the error stream carries, resize messages. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorStreamBody, exitStatus, failureStatus } from './channel-protocol.ts';
import { parseResize } from './exec-io.ts';
import { expectedStreams, StreamCollector } from './spdy-exec-io.ts';

const io = (o: Partial<{ stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean }>) => ({ stdin: false, stdout: false, stderr: false, tty: false, ...o });

test('expected streams per protocol and request', () => {
  const table: [string, ReturnType<typeof io>, string[]][] = [
    ['v4.channel.k8s.io', io({ stdout: true, stderr: true }), ['error', 'stdout', 'stderr']],
    ['v4.channel.k8s.io', io({ stdin: true, stdout: true, tty: true, stderr: true }), ['error', 'stdin', 'stdout', 'resize']],
    ['v3.channel.k8s.io', io({ stdout: true, tty: true }), ['error', 'stdout', 'resize']],
    ['v2.channel.k8s.io', io({ stdout: true, tty: true }), ['error', 'stdout']],
    ['channel.k8s.io', io({ stdin: true }), ['error', 'stdin']],
    ['', io({ stdout: true }), ['error', 'stdout']],
  ];
  for (const [p, req, want] of table) assert.deepEqual(expectedStreams(p, req), want, `${p} ${JSON.stringify(req)}`);
});

test('the error stream: v4 a Status JSON (also on success); older protocols the message, nothing on success', () => {
  assert.deepEqual(JSON.parse(errorStreamBody('v4.channel.k8s.io', exitStatus(0))), { metadata: {}, status: 'Success' });
  assert.equal(JSON.parse(errorStreamBody('v4.channel.k8s.io', exitStatus(2))).reason, 'NonZeroExitCode');
  assert.equal(errorStreamBody('v3.channel.k8s.io', exitStatus(0)), '');
  assert.equal(errorStreamBody('channel.k8s.io', failureStatus('boom')), 'boom');
  assert.match(errorStreamBody('v2.channel.k8s.io', exitStatus(7)), /exit code 7$/);
});

test('resize messages: JSON objects, possibly several per chunk; junk is skipped', () => {
  assert.deepEqual(parseResize('{"Width":80,"Height":24}\n{"Width":100,"Height":40}\n'), [{ width: 80, height: 24 }, { width: 100, height: 40 }]);
  assert.deepEqual(parseResize('{"Width":"x"} nope {"Height":3,"Width":5}'), [{ width: 5, height: 3 }]);
});

test('the collector waits for every expected stream; unexpected or duplicate stream types are reset', async () => {
  const destroyed: string[] = [];
  const fake = (t: string) => ({ header: (n: string) => (n === 'streamType' ? t : undefined), destroy: () => destroyed.push(t) }) as never;
  const c = new StreamCollector(['error', 'stdout']);
  const done = c.wait(60_000);
  c.add(fake('error'));
  c.add(fake('bogus'));
  c.add(fake('error'));
  assert.equal(c.complete(), false);
  c.add(fake('stdout'));
  assert.equal(await done, true);
  assert.deepEqual(destroyed, ['bogus', 'error']);
});
