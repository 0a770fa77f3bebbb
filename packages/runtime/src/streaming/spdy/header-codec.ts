/**
 * SPDY/3 name/value header blocks: `count(32) | (len(32) name len(32) value)*`, names lower-case, several values
 * of one name joined by NUL. On a connection each direction keeps ONE zlib context primed with the SPDY/3
 * dictionary, every block ending in a sync flush; so blocks must be (de)compressed in frame order.
 */
import { constants, Deflate, Inflate, type ZlibOptions } from 'minizlib';
import { SPDY3_DICTIONARY } from './dictionary.ts';

export type HeaderMap = Map<string, string[]>;

export function encodeHeaderBlock(headers: HeaderMap): Buffer {
  const parts: Buffer[] = [u32(headers.size)];
  for (const [name, values] of headers) {
    const n = Buffer.from(name.toLowerCase(), 'utf8');
    const v = Buffer.from(values.join('\0'), 'utf8');
    parts.push(u32(n.length), n, u32(v.length), v);
  }
  return Buffer.concat(parts);
}

export function decodeHeaderBlock(b: Buffer): { ok: true; headers: HeaderMap } | { ok: false; reason: string } {
  const headers: HeaderMap = new Map();
  if (b.length < 4) return { ok: false, reason: 'header block too short' };
  const count = b.readUInt32BE(0);
  let off = 4;
  const str = (): string | undefined => {
    if (b.length - off < 4) return undefined;
    const len = b.readUInt32BE(off);
    if (b.length - off - 4 < len) return undefined;
    const s = b.toString('utf8', off + 4, off + 4 + len);
    off += 4 + len;
    return s;
  };
  for (let i = 0; i < count; i++) {
    const name = str();
    const value = str();
    if (name === undefined || value === undefined || name === '') return { ok: false, reason: 'truncated header block' };
    const key = name.toLowerCase();
    headers.set(key, [...(headers.get(key) ?? []), ...value.split('\0')]);
  }
  return { ok: true, headers };
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
}

/** A synchronous zlib context (minizlib writes through node's zlib handle and emits output in the same tick). */
class SyncZlib {
  private readonly out: Buffer[] = [];
  private readonly z: Deflate | Inflate;
  constructor(kind: 'deflate' | 'inflate') {
    const opts = { flush: constants.Z_SYNC_FLUSH, dictionary: SPDY3_DICTIONARY } as ZlibOptions;
    this.z = kind === 'deflate' ? new Deflate(opts) : new Inflate(opts);
    this.z.on('data', (d: Buffer) => this.out.push(d));
  }
  /** Feed `input`, sync-flush, return what came out (throws on corrupt input). */
  step(input: Buffer): Buffer {
    this.z.write(input);
    return Buffer.concat(this.out.splice(0));
  }
  close(): void {
    this.z.close();
  }
}

/** One direction's compression context of a connection. */
export class HeaderCompressor {
  private readonly z = new SyncZlib('deflate');
  compress(headers: HeaderMap): Buffer {
    return this.z.step(encodeHeaderBlock(headers));
  }
  close(): void {
    this.z.close();
  }
}

export class HeaderDecompressor {
  private readonly z = new SyncZlib('inflate');
  decompress(block: Buffer): { ok: true; headers: HeaderMap } | { ok: false; reason: string } {
    if (block.length === 0) return { ok: true, headers: new Map() };
    try {
      return decodeHeaderBlock(this.z.step(block));
    } catch (err) {
      return { ok: false, reason: `header block decompression failed: ${(err as Error).message}` };
    }
  }
  close(): void {
    this.z.close();
  }
}
