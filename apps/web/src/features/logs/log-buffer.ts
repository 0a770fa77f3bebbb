/**
 * The lines of one log view, as they stream in: chunks are split into lines (a partial last line waits for its
 * end), each line's kubelet timestamp (`timestamps=true`: RFC3339Nano and one space before the text) is kept apart
 * so the view can show or hide it without asking again, and only the newest `maxLines` are kept: older ones are
 * dropped and counted, so the view can say so. Pure; the view re-renders on `version`.
 */
export interface LogLine {
  /** Position in the whole stream (0 = first line received), stable while older lines are dropped. */
  seq: number;
  /** The kubelet's timestamp, '' when the line had none. */
  ts: string;
  text: string;
}

export const DEFAULT_MAX_LINES = 50_000;
const TIMESTAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) /;

export function splitTimestamp(raw: string): { ts: string; text: string } {
  const m = TIMESTAMP.exec(raw);
  return m?.[1] ? { ts: m[1], text: raw.slice(m[0].length) } : { ts: '', text: raw };
}

export class LogBuffer {
  readonly maxLines: number;
  private lines: LogLine[] = [];
  private partial = '';
  private nextSeq = 0;
  /** Lines dropped because the buffer was full. */
  dropped = 0;
  /** Bumped on every change (a cheap dependency for memoised views). */
  version = 0;

  constructor(maxLines = DEFAULT_MAX_LINES) {
    if (!Number.isInteger(maxLines) || maxLines < 1) throw new RangeError(`maxLines must be a positive integer, got ${maxLines}`);
    this.maxLines = maxLines;
  }

  /** Adds decoded text; returns the number of complete lines it added. */
  append(chunk: string): number {
    if (!chunk) return 0;
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    for (const raw of parts) this.lines.push({ seq: this.nextSeq++, ...splitTimestamp(raw.endsWith('\r') ? raw.slice(0, -1) : raw) });
    const over = this.lines.length - this.maxLines;
    if (over > 0) {
      this.lines.splice(0, over);
      this.dropped += over;
    }
    if (parts.length > 0) this.version++;
    return parts.length;
  }

  /** The stream ended: a last line without a newline is still a line. */
  finish(): void {
    if (this.partial) {
      const p = this.partial;
      this.partial = '';
      this.append(`${p}\n`);
    }
  }

  all(): readonly LogLine[] {
    return this.lines;
  }

  get length(): number {
    return this.lines.length;
  }

  /** The text for a download: every kept line, with or without its timestamp. */
  text(withTimestamps: boolean): string {
    return this.lines.map((l) => (withTimestamps && l.ts ? `${l.ts} ${l.text}` : l.text)).join('\n') + (this.lines.length ? '\n' : '');
  }
}
