/** SPDY/3.1 frames ⇄ bytes, on hand-written byte fixtures (draft 3.1, section 2.2 and 2.6). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeFrame, parseFrames, type SpdyFrame } from './frames.ts';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const block = hex('aabbcc');

const TABLE: { name: string; frame: SpdyFrame; bytes: string }[] = [
  { name: 'DATA with FIN', frame: { type: 'data', streamId: 3, fin: true, data: Buffer.from('hi') }, bytes: '00000003 01 000002 6869' },
  { name: 'DATA, empty, high stream id', frame: { type: 'data', streamId: 0x7fffffff, fin: false, data: Buffer.alloc(0) }, bytes: '7fffffff 00 000000' },
  {
    name: 'SYN_STREAM, priority 2, unidirectional',
    frame: { type: 'syn_stream', streamId: 1, associatedId: 0, priority: 2, fin: false, unidirectional: true, headerBlock: block },
    bytes: '8003 0001 02 00000d 00000001 00000000 40 00 aabbcc',
  },
  { name: 'SYN_REPLY with FIN', frame: { type: 'syn_reply', streamId: 5, fin: true, headerBlock: block }, bytes: '8003 0002 01 000007 00000005 aabbcc' },
  { name: 'RST_STREAM CANCEL', frame: { type: 'rst_stream', streamId: 7, status: 5 }, bytes: '8003 0003 00 000008 00000007 00000005' },
  {
    name: 'SETTINGS: INITIAL_WINDOW_SIZE 1 MiB, clear flag',
    frame: { type: 'settings', clear: true, entries: [{ flags: 0, id: 7, value: 1 << 20 }] },
    bytes: '8003 0004 01 00000c 00000001 00000007 00100000',
  },
  { name: 'PING', frame: { type: 'ping', id: 1 }, bytes: '8003 0006 00 000004 00000001' },
  { name: 'GOAWAY', frame: { type: 'goaway', lastGoodStreamId: 9, status: 0 }, bytes: '8003 0007 00 000008 00000009 00000000' },
  { name: 'HEADERS', frame: { type: 'headers', streamId: 1, fin: false, headerBlock: block }, bytes: '8003 0008 00 000007 00000001 aabbcc' },
  { name: 'WINDOW_UPDATE', frame: { type: 'window_update', streamId: 1, delta: 65536 }, bytes: '8003 0009 00 000008 00000001 00010000' },
];

for (const c of TABLE) {
  test(`encode / parse: ${c.name}`, () => {
    assert.equal(encodeFrame(c.frame).toString('hex'), hex(c.bytes).toString('hex'));
    const parsed = parseFrames(hex(c.bytes));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.frames, [c.frame]);
    assert.equal(parsed.rest.length, 0);
  });
}

test('several frames in one buffer; an incomplete tail is left as rest', () => {
  const two = Buffer.concat([hex('8003 0006 00 000004 00000001'), hex('00000003 01 000002 6869'), hex('8003 0009 00 0000')]);
  const parsed = parseFrames(two);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.frames.map((f) => f.type), ['ping', 'data']);
  assert.equal(parsed.rest.toString('hex'), '80030009000000');
});

test('a control frame body shorter than its type needs, or another version, is an error', () => {
  assert.deepEqual(parseFrames(hex('8003 0003 00 000004 00000007')), { ok: false, reason: 'malformed control frame type 3' });
  assert.deepEqual(parseFrames(hex('8002 0006 00 000004 00000001')), { ok: false, reason: 'unsupported SPDY version 2' });
});

test('unknown control types are kept (and skipped by the connection)', () => {
  const parsed = parseFrames(hex('8003 000a 00 000002 abcd'));
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.frames, [{ type: 'unknown', code: 10, flags: 0, data: hex('abcd') }]);
});
