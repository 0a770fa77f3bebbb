/** SPDY/3 name/value blocks (byte fixtures) and the per-connection zlib context primed with the SPDY/3 dictionary. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adler32 } from './adler32.testing.ts';
import { SPDY3_DICTIONARY } from './dictionary.ts';
import { decodeHeaderBlock, encodeHeaderBlock, HeaderCompressor, HeaderDecompressor } from './header-codec.ts';

test('a name/value block: count, then length-prefixed lower-case names and NUL-joined values', () => {
  const b = encodeHeaderBlock(new Map([['streamType', ['error']], ['X', ['a', 'b']]]));
  assert.equal(b.toString('hex'), [
    '00000002',
    '0000000a', Buffer.from('streamtype').toString('hex'), '00000005', Buffer.from('error').toString('hex'),
    '00000001', '78', '00000003', '610062',
  ].join(''));
  assert.deepEqual(decodeHeaderBlock(b), { ok: true, headers: new Map([['streamtype', ['error']], ['x', ['a', 'b']]]) });
});

test('truncated blocks are refused', () => {
  assert.deepEqual(decodeHeaderBlock(Buffer.from('0000000100000005616263', 'hex')), { ok: false, reason: 'truncated header block' });
  assert.deepEqual(decodeHeaderBlock(Buffer.alloc(2)), { ok: false, reason: 'header block too short' });
});

test('the SPDY/3 dictionary: 1423 bytes; compressed streams name it by its Adler-32 (FDICT)', () => {
  assert.equal(SPDY3_DICTIONARY.length, 1423);
  assert.equal(adler32(SPDY3_DICTIONARY).toString(16), 'e3c6a7c2');
  const first = new HeaderCompressor().compress(new Map([['port', ['8080']]]));
  assert.equal(first.subarray(0, 6).toString('hex'), '78bbe3c6a7c2'); // zlib header with FDICT + the dictionary id
});

test('one context per direction: later blocks depend on earlier ones and must be read in order', () => {
  const c = new HeaderCompressor();
  const blocks = ['error', 'stdin', 'stdout', 'error'].map((t, i) => c.compress(new Map([['streamtype', [t]], ['requestid', [String(i)]]])));
  assert.ok(blocks[3]!.length < blocks[0]!.length, 'a repeated header set compresses against the history');
  const d = new HeaderDecompressor();
  const types = blocks.map((b) => {
    const r = d.decompress(b);
    assert.ok(r.ok);
    return r.headers.get('streamtype')?.[0];
  });
  assert.deepEqual(types, ['error', 'stdin', 'stdout', 'error']);
  const fresh = new HeaderDecompressor();
  assert.equal(fresh.decompress(blocks[3]!).ok, false, 'a later block alone cannot be read');
});
