'use client';
import { useMemo } from 'react';
import type { ContainerSample } from '../../lib/api-types.ts';
import { formatCores } from '../../lib/format.ts';
import { LineChart } from './line-chart.tsx';
import { perCoreSeries } from './stats-math.ts';

/** CPU per core, one line per core (cpu0, cpu1, …) with its latest value in the legend; live with the samples. */
export function PerCoreChart({ samples, now, testId, title = 'CPU per core (cores)' }: { samples: readonly ContainerSample[]; now: number; testId: string; title?: string }) {
  const { cores, unavailable } = useMemo(() => perCoreSeries(samples), [samples]);
  return (
    <LineChart
      title={title}
      testId={testId}
      now={now}
      format={formatCores}
      empty={unavailable ? `per-core usage unavailable: ${unavailable}` : undefined}
      series={cores.map((points, i) => ({ name: `cpu${i}`, color: i, points }))}
    />
  );
}
