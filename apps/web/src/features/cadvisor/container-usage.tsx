'use client';
import { useMemo, useState } from 'react';
import type { MachineInfo, StatsContainer } from '../../lib/api-types.ts';
import { formatBytes, formatCores } from '../../lib/format.ts';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import { Gauge } from './gauge.tsx';
import { UsageCharts } from './usage-charts.tsx';
import { ProcessTable } from './process-table.tsx';
import { cpuSeries, latest, memorySeries, usageFraction } from './stats-math.ts';
import { childrenOf, rankSubcontainers, type RankBy } from './stats-nav.ts';
import { Subcontainers } from './subcontainers.tsx';
import { useChildSamples, useFsSeries, useProcesses, useSampleSeries } from './use-stats.ts';

function cpuLimitCores(c: StatsContainer, machine: MachineInfo | null | undefined): { cores?: number; limited: boolean } {
  const q = c.spec?.cpuQuota;
  const p = c.spec?.cpuPeriod;
  if (q !== undefined && p !== undefined && q > 0 && p > 0) return { cores: q / p, limited: true };
  return { cores: machine?.numCores, limited: false };
}

function memLimitBytes(c: StatsContainer, machine: MachineInfo | null | undefined): { bytes?: number; limited: boolean } {
  const l = c.spec?.memoryLimit;
  const cap = machine?.memoryCapacityBytes;
  if (l !== undefined && l > 0 && (cap === undefined || l < cap)) return { bytes: l, limited: true };
  return { bytes: cap, limited: false };
}

function Isolation({ c, machine }: { c: StatsContainer; machine: MachineInfo | null | undefined }) {
  const cpu = cpuLimitCores(c, machine);
  const mem = memLimitBytes(c, machine);
  return (
    <dl className="facts two-col" data-testid="isolation">
      <dt>CPU shares</dt>
      <dd>{c.spec?.cpuShares ?? '—'}</dd>
      <dt>CPU limit</dt>
      <dd>{cpu.limited ? `${formatCores(cpu.cores)} (quota ${c.spec?.cpuQuota} µs / ${c.spec?.cpuPeriod} µs)` : 'unlimited'}</dd>
      <dt>Memory limit</dt>
      <dd>{mem.limited ? formatBytes(mem.bytes) : 'unlimited'}</dd>
      <dt>Image</dt>
      <dd className="mono small">{c.labels.image ?? '—'}</dd>
    </dl>
  );
}

/** Gauges, charts, processes and subcontainers of one stats container, live. */
export function ContainerUsage({ container, list, machine }: { container: StatsContainer; list: StatsContainer[]; machine: MachineInfo | null | undefined }) {
  const series = useSampleSeries(container.key);
  const procs = useProcesses(container.key);
  const podRef = container.labels.pod && container.labels.namespace ? { namespace: container.labels.namespace, name: container.labels.pod } : undefined;
  const inPod = container.kind === 'pod' || container.kind === 'container';
  const fs = useFsSeries(inPod ? podRef : undefined, container.kind === 'container' ? container.labels.container : undefined, inPod ? !!podRef : container.kind === 'node');
  const [rankBy, setRankBy] = useState<RankBy>('cpu');
  const children = useMemo(() => childrenOf(list, container.key), [list, container.key]);
  const childSamples = useChildSamples(children);

  const cpu = useMemo(() => cpuSeries(series.samples), [series.samples]);
  const mem = useMemo(() => memorySeries(series.samples), [series.samples]);
  const cpuLimit = cpuLimitCores(container, machine);
  const memLimit = memLimitBytes(container, machine);
  const cpuNow = latest(cpu.total);
  const wsNow = latest(mem.workingSet);
  const fsUsed = fs.fs?.usedBytes;
  const fsCap = fs.fs?.capacityBytes;
  const newest = series.samples[series.samples.length - 1];

  return (
    <>
      <Panel
        title="Usage"
        testId="usage"
        actions={
          <>
            <Badge tone={series.live ? 'ok' : 'info'} testId="stats-live" title="live samples over socket.io; polling history otherwise">{series.live ? 'live' : 'polling'}</Badge>
            <span className="muted small">{series.samples.length} samples</span>
          </>
        }
      >
        <QueryState isPending={series.isPending && series.samples.length === 0} error={series.samples.length ? null : series.error} />
        <div className="gauges">
          <Gauge label="CPU" testId="gauge-cpu" fraction={usageFraction(cpuNow, cpuLimit.cores)} value={formatCores(cpuNow)}
            detail={`of ${formatCores(cpuLimit.cores)}${cpuLimit.limited ? ' limit' : ''}`} />
          <Gauge label="Memory" testId="gauge-memory" fraction={usageFraction(wsNow, memLimit.bytes)} value={`${formatBytes(wsNow)} working set`}
            detail={`of ${formatBytes(memLimit.bytes)}${memLimit.limited ? ' limit' : ''}`} />
          <Gauge label="Filesystem" testId="gauge-fs" fraction={usageFraction(fsUsed, fsCap)} value={formatBytes(fsUsed)}
            detail={fsCap ? `of ${formatBytes(fsCap)}` : 'not reported'} />
          <dl className="facts usage-facts">
            <dt>Processes</dt>
            <dd>{newest?.processes ? `${newest.processes.processes} (${newest.processes.threads} threads)` : '—'}</dd>
            <dt>RSS / cache</dt>
            <dd>{newest?.memory ? `${formatBytes(newest.memory.rssBytes)} / ${formatBytes(newest.memory.cacheBytes)}` : '—'}</dd>
            <dt>OOM kills</dt>
            <dd>{newest?.memory ? newest.memory.oomKills : '—'}</dd>
            <dt>Throttled</dt>
            <dd>{newest?.cpu ? `${newest.cpu.throttledPeriods} / ${newest.cpu.periods} periods` : '—'}</dd>
          </dl>
        </div>
        <Isolation c={container} machine={machine} />
      </Panel>
      <UsageCharts samples={series.samples} fsPoints={fs.points} fsLabel={inPod ? (container.kind === 'container' ? 'rootfs' : 'ephemeral storage') : 'nodefs'} hasFs={!!fsCap} perCore={container.kind !== 'node'} />
      <Panel title={`Subcontainers (${children.length})`}>
        <Subcontainers rows={rankSubcontainers(children, childSamples, rankBy)} rankBy={rankBy} onRank={setRankBy} />
      </Panel>
      <Panel title={`Processes (${procs.data?.length ?? 0})`}>
        <ProcessTable processes={procs.data} />
      </Panel>
    </>
  );
}
