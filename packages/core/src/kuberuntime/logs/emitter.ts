/** Turns CRI log lines into output text: stream filter, since, partial joining, timestamps, limitBytes. */
import { parseCriLogLine, wantsStream } from './parse.ts';
import type { CriLogOptions, CriLogSink, CriLogStream } from './types.ts';

interface Pending {
  timestamp: string;
  timeMs: number;
  parts: string[];
}

export class LogEmitter {
  bytesWritten = 0;
  /** limitBytes reached: stop reading. */
  full = false;
  private pending: Partial<Record<CriLogStream, Pending>> = {};

  constructor(
    private readonly opts: CriLogOptions,
    private readonly since: number | null,
    private readonly write: CriLogSink,
  ) {}

  /** Feeds one raw line (without newline). Unparseable lines are skipped, as the kubelet does. */
  async line(raw: string): Promise<void> {
    const r = parseCriLogLine(raw);
    if (!r || !wantsStream(this.opts, r.stream)) return;
    const p = this.pending[r.stream];
    if (r.partial) {
      if (p) p.parts.push(r.text);
      else this.pending[r.stream] = { timestamp: r.timestamp, timeMs: r.timeMs, parts: [r.text] };
      return;
    }
    delete this.pending[r.stream];
    const first = p ?? r;
    if (this.since !== null && first.timeMs < this.since) return;
    await this.emit(first.timestamp, `${p ? p.parts.join('') : ''}${r.text}\n`);
  }

  /** Writes partial lines still waiting for their F record (at the end of a read). */
  async flushPartials(): Promise<void> {
    for (const stream of ['stdout', 'stderr'] as const) {
      const p = this.pending[stream];
      delete this.pending[stream];
      if (!p || (this.since !== null && p.timeMs < this.since)) continue;
      await this.emit(p.timestamp, p.parts.join(''));
    }
  }

  private async emit(timestamp: string, text: string): Promise<void> {
    if (this.full) return;
    let out = this.opts.timestamps ? `${timestamp} ${text}` : text;
    let bytes = Buffer.byteLength(out);
    const limit = this.opts.limitBytes;
    if (limit != null && limit > 0) {
      const room = limit - this.bytesWritten;
      if (bytes >= room) {
        out = Buffer.from(out).subarray(0, room).toString('utf8');
        bytes = room;
        this.full = true;
      }
    }
    this.bytesWritten += bytes;
    if (out.length > 0) await this.write(out);
  }
}
