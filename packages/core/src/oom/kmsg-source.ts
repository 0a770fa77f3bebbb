/**
 * The real /dev/kmsg reader: opens the device O_RDONLY|O_NONBLOCK, skips what is already buffered (reads
 * until EAGAIN, the same as seeking to the end) and then polls on the injected clock, one record per
 * read(2). EPIPE (records overwritten before we read them) is skipped.
 */
import { closeSync, constants, openSync, readSync } from 'node:fs';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { errCode } from '../cm/types.ts';
import type { KmsgSource } from './types.ts';

export interface KmsgFileSourceConfig {
  path?: string;
  pollIntervalMs?: number;
}

export class KmsgFileSource implements KmsgSource {
  private fd: number | undefined;
  private timer: TimerHandle | undefined;
  private readonly buf = Buffer.alloc(8192);

  constructor(
    private readonly deps: { clock: Clock; logger: Logger },
    private readonly config: KmsgFileSourceConfig = {},
  ) {}

  start(onRecord: (raw: string) => void): void {
    if (this.fd !== undefined) return;
    const path = this.config.path ?? '/dev/kmsg';
    try {
      this.fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (e) {
      this.deps.logger.warn('cannot open kernel log; OOM watcher disabled', { path, err: (e as Error).message });
      return;
    }
    this.drain(() => {});
    this.timer = this.deps.clock.setInterval(() => this.drain(onRecord), this.config.pollIntervalMs ?? 1_000);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Reads records until EAGAIN. */
  drain(onRecord: (raw: string) => void): number {
    let n = 0;
    while (this.fd !== undefined) {
      let len: number;
      try {
        len = readSync(this.fd, this.buf, 0, this.buf.length, null);
      } catch (e) {
        const code = errCode(e);
        if (code === 'EPIPE') continue;
        if (code !== 'EAGAIN') this.deps.logger.warn('kernel log read failed', { err: (e as Error).message });
        break;
      }
      if (len <= 0) break;
      n++;
      onRecord(this.buf.toString('utf8', 0, len));
    }
    return n;
  }
}
