'use client';
import { useMemo } from 'react';
import type { ContainerSample } from '../../lib/api-types.ts';
import { TimeChart } from '../charts/time-chart.tsx';
import { perCoreSeries } from './stats-math.ts';

/** CPU per core, one line per core (cpu0, cpu1, …) with its latest value in the legend; live with the samples. */
export function PerCoreChart({ samples, now, testId, title = 'CPU per core' }: { samples: readonly ContainerSample[]; now: number; testId: string; title?: string }) {
  const { cores, unavailable } = useMemo(() => perCoreSeries(samples), [samples]);
  return (
    <TimeChart
      title={title}
      testId={testId}
      now={now}
      unit="cores"
      empty={unavailable ? `per-core usage unavailable: ${unavailable}` : undefined}
      series={cores.map((points, i) => ({ name: `cpu${i}`, color: i, points }))}
    />
  );
}
