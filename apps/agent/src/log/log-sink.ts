/** The agent's log sink: JSON lines, or a readable one-line format when the stream is a TTY. */
import { createLogger, type LogRecord, type Logger } from '@nodelet/core/util';

export interface LogSinkOptions {
  write(line: string): void;
  pretty: boolean;
  /** klog-style verbosity; debug lines need 4 or more. */
  verbosity: number;
}

export function createAgentLogger(opts: LogSinkOptions): Logger {
  return createLogger((rec) => {
    if (rec.level === 'debug' && opts.verbosity < 4) return;
    opts.write((opts.pretty ? formatPretty(rec) : safeJson(rec)) + '\n');
    // Scripts find the ports from this line, so it stays machine-readable in the TTY format too.
    if (opts.pretty && rec.msg === 'listening') {
      opts.write(JSON.stringify({ msg: 'listening', server: rec.server, port: rec.port }) + '\n');
    }
  }, 'agent');
}

function safeJson(rec: LogRecord): string {
  try {
    return JSON.stringify(rec, (_k, v: unknown) => (v instanceof Error ? { message: v.message, stack: v.stack } : v));
  } catch {
    return JSON.stringify({ time: rec.time, level: rec.level, component: rec.component, msg: rec.msg });
  }
}

const LEVEL_TAG: Record<LogRecord['level'], string> = { debug: 'DBG', info: 'INF', warn: 'WRN', error: 'ERR' };

export function formatPretty(rec: LogRecord): string {
  const { time, level, component, msg, ...rest } = rec;
  const fields = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v instanceof Error ? v.message : v)}`)
    .join(' ');
  return `${time.slice(11, 23)} ${LEVEL_TAG[level]} [${component}] ${msg}${fields ? ' ' + fields : ''}`;
}
