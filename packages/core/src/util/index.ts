/** @nodelet/core/util: clock, logger and the small HTTP/process helpers the agent and the API-server double share. */
export { realClock, type Clock, type TimerHandle } from './clock.ts';
export { canonicalJson } from './hash.ts';
export { createLogger, nullLogger, type Logger, type LogLevel, type LogRecord } from './logger.ts';
export { pidAlive } from './process.ts';
export { readRegularFile } from './read-regular-file.ts';
export { sameItems } from './same-items.ts';
export { serverCloser } from './server-closer.ts';
export { relayUpgrade, splice, statusBlock, upgradeHeaders } from './upgrade-relay.ts';
export { tryParseQuantity, type QuantityResult } from './quantity.ts';
