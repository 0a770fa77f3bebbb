/**
 * The agent's flight recorder start: <root-dir>/flight-recorder/recorder.db with the configured bounds, recording
 * the kubelet's bus and probe runs from before the kubelet starts (admissions included). Off with
 * --flight-recorder-max-size=0; a binding that cannot load (better-sqlite3's native addon) is logged and the agent
 * runs without a recorder rather than not at all.
 */
import { join } from 'node:path';
import type { KubeletApi } from '@nodelet/core/kubelet';
import type { Clock, Logger } from '@nodelet/core/util';
import type { RecorderAgentConfig } from '../config/recorder-config.ts';
import { recorderBounds } from '../config/recorder-config.ts';
import { FlightRecorder } from './recorder.ts';
import { loadSqlite, type OpenDatabase } from './store.ts';

export function recorderPath(rootDir: string): string {
  return join(rootDir, 'flight-recorder', 'recorder.db');
}

export async function startFlightRecorder(
  config: RecorderAgentConfig & { rootDir: string },
  kubelet: Pick<KubeletApi, 'events' | 'probes'>,
  deps: { clock: Clock; logger: Logger; open?: OpenDatabase },
): Promise<FlightRecorder | undefined> {
  const bounds = recorderBounds(config);
  if (!bounds.ok || bounds.maxBytes === 0) return undefined; // validated at start-up; 0 is off
  const path = recorderPath(config.rootDir);
  try {
    const open = deps.open ?? (await loadSqlite());
    const recorder = new FlightRecorder({ clock: deps.clock, logger: deps.logger, open }, { path, maxAgeMs: bounds.maxAgeMs, maxBytes: bounds.maxBytes });
    recorder.attach(kubelet.events, kubelet.probes);
    deps.logger.info('flight recorder started', { file: path, maxBytes: bounds.maxBytes, maxAgeMs: bounds.maxAgeMs });
    return recorder;
  } catch (err) {
    deps.logger.error('flight recorder is off: its database could not be opened', { file: path, err: (err as Error).message });
    return undefined;
  }
}
