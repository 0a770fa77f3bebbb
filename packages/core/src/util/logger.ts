/** Structured logger interface: every line carries a component field. The agent supplies the sink. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(component: string, fields?: Record<string, unknown>): Logger;
}

export interface LogRecord {
  time: string;
  level: LogLevel;
  component: string;
  msg: string;
  [k: string]: unknown;
}

/** A logger writing JSON lines (or a caller-chosen format) to a sink. */
export function createLogger(
  sink: (rec: LogRecord) => void,
  component = 'nodelet',
  base: Record<string, unknown> = {},
  now: () => number = () => Date.now(),
): Logger {
  const emit = (level: LogLevel, msg: string, fields?: Record<string, unknown>) =>
    sink({ time: new Date(now()).toISOString(), level, component, msg, ...base, ...fields });
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (c, f) => createLogger(sink, c, { ...base, ...f }, now),
  };
}

/** A logger that records every line: for tests. */
export class RecordingLogger {
  readonly records: LogRecord[] = [];
  readonly logger: Logger = createLogger((r) => this.records.push(r), 'test');
}

export const nullLogger: Logger = createLogger(() => {}, 'null');
