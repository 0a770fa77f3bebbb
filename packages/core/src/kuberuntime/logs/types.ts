/** Types for reading CRI container log files (the kubelet's /containerLogs). */
import type { ContainerLogOptions } from '../../kubelet/types.ts';
import type { Clock } from '../../util/clock.ts';

export type CriLogStream = 'stdout' | 'stderr';

/** One line of a CRI log file: `<RFC3339Nano> <stdout|stderr> <F|P>[:tags] <text>`. */
export interface CriLogRecord {
  /** The timestamp exactly as written. */
  timestamp: string;
  /** Milliseconds since the epoch (sub-millisecond digits dropped). */
  timeMs: number;
  stream: CriLogStream;
  /** P: the runtime split a long line; the text continues in the next record of the same stream. */
  partial: boolean;
  /** The log text, without the trailing newline. */
  text: string;
}

/** PodLogOptions as the kubelet applies them to one log file (`previous` is resolved by the caller). */
export type CriLogOptions = Omit<ContainerLogOptions, 'previous'>;

export type CriLogSink = (chunk: string) => void | Promise<void>;

export interface CriLogDeps {
  clock: Clock;
  /** Follow: true once the container has exited; the reader then drains the file and stops. */
  isDone?: () => boolean | Promise<boolean>;
  /** Follow: how often to look for appended data (default 250 ms). */
  pollIntervalMs?: number;
  /** Follow: also wake on fs.watch events (default true; tests on a FakeClock turn it off). */
  watch?: boolean;
}

export type ReadCriLogResult =
  | { ok: true; bytesWritten: number; stoppedBy: 'eof' | 'limit' | 'abort' | 'done' }
  | { ok: false; reason: 'LogNotAvailable'; message: string };
