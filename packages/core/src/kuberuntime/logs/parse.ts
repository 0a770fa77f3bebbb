/** Pure helpers for the CRI log line format. */
import type { CriLogOptions, CriLogRecord, CriLogStream } from './types.ts';
import type { Clock } from '../../util/clock.ts';

/**
 * Parses one CRI log line (without its newline). Returns null when the line is not in the format
 * (the kubelet skips such lines). Tags after the first `:` (e.g. `F:x`) are ignored.
 */
export function parseCriLogLine(line: string): CriLogRecord | null {
  const s1 = line.indexOf(' ');
  if (s1 <= 0) return null;
  const s2 = line.indexOf(' ', s1 + 1);
  if (s2 < 0) return null;
  const s3 = line.indexOf(' ', s2 + 1);
  const timestamp = line.slice(0, s1);
  const stream = line.slice(s1 + 1, s2);
  const tags = s3 < 0 ? line.slice(s2 + 1) : line.slice(s2 + 1, s3);
  const text = s3 < 0 ? '' : line.slice(s3 + 1);
  if (stream !== 'stdout' && stream !== 'stderr') return null;
  const tag = tags.split(':')[0];
  if (tag !== 'F' && tag !== 'P') return null;
  const timeMs = Date.parse(timestamp);
  if (Number.isNaN(timeMs)) return null;
  return { timestamp, timeMs, stream, partial: tag === 'P', text };
}

/** Formats a record as the runtime writes it (used by tests and fakes). */
export function formatCriLogLine(r: { timestamp: string; stream: CriLogStream; partial?: boolean; text: string }): string {
  return `${r.timestamp} ${r.stream} ${r.partial ? 'P' : 'F'} ${r.text}\n`;
}

/** Which streams the options select. */
export function wantsStream(opts: CriLogOptions, stream: CriLogStream): boolean {
  const s = opts.stream ?? 'All';
  return s === 'All' || (s === 'Stdout' ? stream === 'stdout' : stream === 'stderr');
}

/** The earliest record time to show, in ms since the epoch, or null for no bound. sinceTime wins. */
export function sinceMs(opts: CriLogOptions, clock: Clock): number | null {
  if (opts.sinceTime) {
    const t = Date.parse(opts.sinceTime);
    return Number.isNaN(t) ? null : t;
  }
  if (opts.sinceSeconds != null && opts.sinceSeconds > 0) return clock.now() - opts.sinceSeconds * 1000;
  return null;
}
