/** The real file system behind termination messages (kuberuntime/termination-message.ts). */
import { chmodSync, closeSync, constants, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { readCriLog } from '../kuberuntime/logs/read-cri-log.ts';
import type { TerminationMessageFs } from '../kuberuntime/termination-message.ts';
import { realClock } from '../util/clock.ts';

export const nodeTerminationMessageFs: TerminationMessageFs = {
  /**
   * Synchronous: made on every container start between PodSandboxStatus and CreateContainer; a mkdir, an empty
   * file's create and a chmod are µs of kernel work, their promises four thread-pool round trips queued behind the
   * agent's other file work (≈ 4 ms of a 150 ms start on this machine).
   */
  async createMessageFile(dir, file) {
    mkdirSync(dir, { recursive: true, mode: 0o750 });
    const path = join(dir, file);
    closeSync(openSync(path, 'wx'));
    // The umask applies at creation: chmod, as the kubelet does, so any container user may write it.
    chmodSync(path, 0o666);
  },

  /**
   * tail.ReadAtMost: the last `max` bytes. Synchronous: at most 4 KiB of a local file, on the exit's path to its status
   * (the evented PLEG builds the status from the event with it); four thread-pool round trips (open, stat, read,
   * close) queued 3–18 ms behind the stats' reads under load. O_NONBLOCK: a FIFO in its place can not hold the loop.
   */
  async readAtMost(path, max) {
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    try {
      const size = fstatSync(fd).size;
      const start = Math.max(0, size - max);
      const buf = Buffer.alloc(size - start);
      const bytesRead = readSync(fd, buf, 0, buf.length, start);
      return buf.subarray(0, bytesRead);
    } finally {
      closeSync(fd);
    }
  },

  /** ReadLogs(tail=lines) into a circular buffer of `bytes` bytes: what stays is the end. */
  async readLogTail(path, lines, bytes) {
    const chunks: Buffer[] = [];
    const r = await readCriLog(path, { tailLines: lines }, (chunk) => void chunks.push(Buffer.from(chunk, 'utf8')), undefined, { clock: realClock, watch: false });
    if (!r.ok) throw new Error(r.message);
    const all = Buffer.concat(chunks);
    return all.subarray(Math.max(0, all.length - bytes)).toString('utf8');
  },
};
