/**
 * One gzip stream (a single RFC 1952 member) from parts deflated one by one, as pigz joins its blocks: each part
 * is a raw deflate stream ended with a sync flush (byte-aligned, not final, no references before its own start),
 * so the parts' deflate data concatenate into one stream; an empty final block, the CRC-32 of all the bytes and
 * their length close the member. A part that did not change keeps its deflated bytes. Readers that stop after
 * the first member (curl --compressed) read the whole page.
 */
import { constants, crc32, deflateRaw } from 'node:zlib';

/** gzip header: magic, deflate, no flags, mtime 0, no extra flags, OS unknown (as Go's gzip.Writer). */
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** A final fixed-Huffman block holding only its end-of-block code. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

/** A part as raw deflate data ending in a sync flush (zlib on the thread pool, default level). */
export function deflatePart(bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => deflateRaw(bytes, { finishFlush: constants.Z_SYNC_FLUSH }, (err, out) => (err ? reject(err) : resolve(out))));
}

/** The gzip member of parts[0] + parts[1] + …, from each part's deflatePart output. */
export function gzipFromParts(parts: Buffer[], deflated: Buffer[]): Buffer {
  let crc = 0;
  let size = 0;
  for (const p of parts) {
    crc = crc32(p, crc);
    size += p.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  return Buffer.concat([HEADER, ...deflated, FINAL_EMPTY_BLOCK, trailer]);
}
