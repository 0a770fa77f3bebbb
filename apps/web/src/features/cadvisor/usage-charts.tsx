'use client';
import { useMemo } from 'react';
import type { ContainerSample } from '../../lib/api-types.ts';
import { useNow } from '../../lib/use-now.ts';
import { TimeChart } from '../charts/time-chart.tsx';
import { PerCoreChart } from './per-core-chart.tsx';
import { cpuSeries, memorySeries, networkSeries, type Point } from './stats-math.ts';

/**
 * CPU (total, user, system; per core unless `perCore` is false — the node page has it in the machine
 * overview), memory (usage vs working set), network (rx/tx) and filesystem charts.
 */
export function UsageCharts({ samples, fsPoints, fsLabel, hasFs, perCore = true }: { samples: readonly ContainerSample[]; fsPoints: readonly Point[]; fsLabel: string; hasFs: boolean; perCore?: boolean }) {
  const now = useNow(2_000);
  const cpu = useMemo(() => cpuSeries(samples), [samples]);
  const mem = useMemo(() => memorySeries(samples), [samples]);
  const net = useMemo(() => networkSeries(samples), [samples]);
  const last = samples[samples.length - 1];
  return (
    <div className="charts">
      <TimeChart title="CPU" testId="chart-cpu" now={now} unit="cores" series={[
        { name: 'total', color: 0, points: cpu.total },
        { name: 'user', color: 1, points: cpu.user },
        { name: 'system', color: 2, points: cpu.system },
      ]} />
      {perCore ? <PerCoreChart samples={samples} now={now} testId="chart-cpu-per-core" /> : null}
      <TimeChart title="Memory" testId="chart-memory" now={now} unit="bytes" series={[
        { name: 'usage', color: 0, points: mem.usage },
        { name: 'working set', color: 3, points: mem.workingSet },
      ]} />
      <TimeChart title="Network" testId="chart-network" now={now} unit="bytesPerSecond" empty={last && !last.network ? 'no network namespace sampled' : undefined} series={[
        { name: 'rx', color: 1, points: net.rx },
        { name: 'tx', color: 2, points: net.tx },
      ]} />
      <TimeChart title="Filesystem used" testId="chart-fs" now={now} unit="bytes" empty={hasFs ? undefined : 'no filesystem stats for this container'} series={[
        { name: fsLabel, color: 0, points: fsPoints },
      ]} />
    </div>
  );
}
