/** The real file system behind termination messages (kuberuntime/termination-message.ts). */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readCriLog } from '../kuberuntime/logs/read-cri-log.ts';
import type { TerminationMessageFs } from '../kuberuntime/termination-message.ts';
import { realClock } from '../util/clock.ts';

export const nodeTerminationMessageFs: TerminationMessageFs = {
  /**
   * In the thread pool: a container's first start asks for it while its sandbox starts (runtime-manager.ts), off the
   * start's path. Made synchronously between RunPodSandbox and CreateContainer, the mkdir and create held the event
   * loop ≈ 1.7 ms a pod in a 30-pod burst (ext4, behind the runtime's own file work).
   */
  async createMessageFile(dir, file) {
    await mkdir(dir, { recursive: true, mode: 0o750 });
    const path = join(dir, file);
    const fh = await open(path, 'wx');
    try {
      // The umask applies at creation: chmod, as the kubelet does, so any container user may write it.
      await fh.chmod(0o666);
    } finally {
      await fh.close();
    }
  },

  async removeMessageFile(path) {
    await rm(path, { force: true });
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
