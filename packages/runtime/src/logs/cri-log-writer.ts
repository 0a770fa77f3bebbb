import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { nowNsBig, rfc3339Nano } from '../util/time.ts';

export type LogStream = 'stdout' | 'stderr';

/** Longest line body written as one record; longer lines are split into `P` records (as containerd). */
export const MAX_LOG_LINE = 16 * 1024;

/**
 * Writes a container's output in the CRI log format, one record per line:
 * `<RFC3339Nano> <stream> <F|P> <text>`. Each stream keeps its own partial-line buffer.
 */
export class CriLogWriter {
  private fd: number | undefined;
  private closed = false;
  private readonly pending: Record<LogStream, Buffer> = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };

  constructor(
    readonly path: string,
    private readonly now: () => bigint = nowNsBig,
  ) {}

  open(): void {
    if (this.fd !== undefined) return;
    mkdirSync(dirname(this.path), { recursive: true });
    this.fd = openSync(this.path, 'a', 0o640);
  }

  /** Close and open the file again (CRI ReopenContainerLog, after log rotation). */
  reopen(): void {
    if (this.closed) return;
    this.closeFd();
    this.open();
  }

  write(stream: LogStream, chunk: Buffer): void {
    if (this.closed) return;
    let buf = this.pending[stream].length ? Buffer.concat([this.pending[stream], chunk]) : chunk;
    for (;;) {
      const nl = buf.indexOf(0x0a);
      if (nl >= 0 && nl <= MAX_LOG_LINE) {
        this.record(stream, 'F', buf.subarray(0, nl));
        buf = buf.subarray(nl + 1);
      } else if (buf.length > MAX_LOG_LINE) {
        this.record(stream, 'P', buf.subarray(0, MAX_LOG_LINE));
        buf = buf.subarray(MAX_LOG_LINE);
      } else break;
    }
    this.pending[stream] = Buffer.from(buf);
  }

  /**
   * Flush unterminated output of a stream (at EOF) as a partial record, as containerd does ("it should be
   * treated as a partial line"): a reader shows it without a newline (`echo -n DONE` logs "DONE").
   */
  end(stream: LogStream): void {
    const rest = this.pending[stream];
    if (rest.length > 0) this.record(stream, 'P', rest);
    this.pending[stream] = Buffer.alloc(0);
  }

  close(): void {
    if (this.closed) return;
    this.end('stdout');
    this.end('stderr');
    this.closeFd();
    this.closed = true;
  }

  private record(stream: LogStream, tag: 'F' | 'P', body: Buffer): void {
    this.open();
    const head = Buffer.from(`${rfc3339Nano(this.now())} ${stream} ${tag} `);
    writeSync(this.fd!, Buffer.concat([head, body, Buffer.from('\n')]));
  }

  private closeFd(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
