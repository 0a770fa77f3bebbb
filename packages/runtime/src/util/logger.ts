/**
 * Structured logger, structurally identical to @nodelet/core's Logger (the runtime may import only
 * proto/, so it carries its own copy of the interface). Every line carries a component field.
 */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(component: string, fields?: Record<string, unknown>): Logger;
}

type Level = 'debug' | 'info' | 'warn' | 'error';

/** A logger writing one JSON object per line through `write`. */
export function jsonLogger(
  write: (line: string) => void,
  component = 'runtime',
  base: Record<string, unknown> = {},
): Logger {
  const emit = (level: Level, msg: string, fields?: Record<string, unknown>) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, component, msg, ...base, ...fields }) + '\n');
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (c, f) => jsonLogger(write, c, { ...base, ...f }),
  };
}

export const silentLogger: Logger = jsonLogger(() => {});
