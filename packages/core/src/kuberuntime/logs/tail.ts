/** Finding where the last N log lines start, reading the file backwards in chunks. */
import type { FileHandle } from 'node:fs/promises';
import { parseCriLogLine } from './parse.ts';
import type { CriLogRecord } from './types.ts';

const CHUNK = 64 * 1024;
const NL = 0x0a;

/**
 * Byte offset at which the last `n` full lines (F records accepted by `counts`) begin; 0 when the file
 * holds fewer. Partial records before a counted F belong to its line. A trailing line without a newline
 * (still being written) is not counted.
 */
export async function findTailOffset(
  fh: FileHandle,
  size: number,
  n: number,
  counts: (r: CriLogRecord) => boolean,
): Promise<number> {
  if (n <= 0) return size;
  let buf = Buffer.alloc(0);
  let bufStart = size;
  let lineEnd: number | null = null; // absolute offset of the newline ending the line being assembled
  let seen = 0;
  const isCountedEnd = (line: Buffer) => {
    const r = parseCriLogLine(line.toString('utf8'));
    return r !== null && !r.partial && counts(r);
  };
  while (bufStart > 0) {
    const start = Math.max(0, bufStart - CHUNK);
    const chunk = Buffer.alloc(bufStart - start);
    await fh.read(chunk, 0, chunk.length, start);
    buf = Buffer.concat([chunk, buf]);
    bufStart = start;
    for (let idx = buf.lastIndexOf(NL); idx >= 0; idx = buf.lastIndexOf(NL)) {
      if (lineEnd !== null && isCountedEnd(buf.subarray(idx + 1)) && ++seen === n + 1) return lineEnd + 1;
      lineEnd = bufStart + idx;
      buf = buf.subarray(0, idx);
    }
  }
  // The first line of the file: it has no newline before it.
  if (lineEnd !== null && isCountedEnd(buf) && ++seen === n + 1) return lineEnd + 1;
  return 0;
}
