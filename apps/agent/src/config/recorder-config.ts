/**
 * The flight recorder's bounds: flightRecorderMaxAge / --flight-recorder-max-age (a duration, default 168h: rows
 * older are trimmed) and flightRecorderMaxSize / --flight-recorder-max-size (a quantity, default 64Mi: the oldest
 * rows are trimmed above it; 0 turns the recorder off). Nodelet's own settings, named in the kubelet's style.
 */
import { tryParseQuantity } from '@nodelet/core/util';
import type { FlagSpec } from './flag-spec.ts';

export interface RecorderAgentConfig {
  flightRecorderMaxAgeMs: number;
  flightRecorderMaxSize: string;
}

export const RECORDER_DEFAULTS: RecorderAgentConfig = {
  flightRecorderMaxAgeMs: 168 * 3_600_000,
  flightRecorderMaxSize: '64Mi',
};

/** The smallest size worth a database file (a few pages of rows and indexes). */
const MIN_SIZE = 1024 * 1024;

export const RECORDER_FLAG_SPECS: FlagSpec<keyof RecorderAgentConfig>[] = [
  { name: 'flight-recorder-max-age', kind: 'duration', key: 'flightRecorderMaxAgeMs', help: 'Flight recorder rows older than this are trimmed.', defaultText: '168h0m0s' },
  { name: 'flight-recorder-max-size', kind: 'string', key: 'flightRecorderMaxSize', help: 'Size of the flight recorder database (<root-dir>/flight-recorder/recorder.db) above which the oldest rows are trimmed (a quantity: 64Mi; 0: no recorder).', defaultText: '64Mi' },
];

export const RECORDER_FILE_FIELDS = [
  { path: 'flightRecorderMaxAge', key: 'flightRecorderMaxAgeMs', kind: 'duration' },
  { path: 'flightRecorderMaxSize', key: 'flightRecorderMaxSize', kind: 'string' },
] as const;

/** The bounds in bytes and ms (maxBytes 0: the recorder is off), or the start-up error. */
export function recorderBounds(c: RecorderAgentConfig): { ok: true; maxBytes: number; maxAgeMs: number } | { ok: false; reason: string } {
  const size = tryParseQuantity(c.flightRecorderMaxSize);
  if (!size.ok) return { ok: false, reason: `invalid flightRecorderMaxSize "${c.flightRecorderMaxSize}": ${size.reason}` };
  const bytes = Math.floor(size.value);
  if (bytes !== 0 && bytes < MIN_SIZE) return { ok: false, reason: `invalid flightRecorderMaxSize "${c.flightRecorderMaxSize}": must be 0 (off) or at least 1Mi` };
  if (!(c.flightRecorderMaxAgeMs > 0)) return { ok: false, reason: `invalid flightRecorderMaxAge: must be greater than 0` };
  return { ok: true, maxBytes: bytes, maxAgeMs: c.flightRecorderMaxAgeMs };
}

export function validateRecorder(c: RecorderAgentConfig): string | undefined {
  const r = recorderBounds(c);
  return r.ok ? undefined : r.reason;
}
