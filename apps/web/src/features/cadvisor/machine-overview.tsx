'use client';
import type { CgroupStatus, MachineInfo } from '../../lib/api-types.ts';
import { formatBytes } from '../../lib/format.ts';
import { Panel } from '../../lib/ui.tsx';
import { useNow } from '../../lib/use-now.ts';
import { PerCoreChart } from './per-core-chart.tsx';
import { useSampleSeries } from './use-stats.ts';

/** The node's CPU per core, live (the node's samples: the root cgroup's per-CPU usage or /proc/stat). */
function NodePerCore() {
  const series = useSampleSeries('/');
  const now = useNow(2_000);
  return <PerCoreChart samples={series.samples} now={now} testId="machine-per-core" title="Node CPU per core" />;
}

/** The machine (cAdvisor's /api/v1.3/machine) with the node's capacity and allocatable, and its CPU per core. */
export function MachineOverview({ machine, cgroups }: { machine: MachineInfo | null | undefined; cgroups: CgroupStatus | null | undefined }) {
  if (!machine) return null;
  const a = cgroups?.allocatable;
  return (
    <Panel title="Machine" testId="machine-overview">
      <div className="machine-grid">
        <dl className="facts">
          <dt>Cores</dt>
          <dd data-testid="machine-cores">{machine.numCores} ({machine.numPhysicalCores} physical, {machine.numSockets} socket{machine.numSockets === 1 ? '' : 's'}, {(machine.cpuFrequencyKhz / 1e6).toFixed(2)} GHz)</dd>
          <dt>Memory</dt>
          <dd>{formatBytes(machine.memoryCapacityBytes)}{machine.swapCapacityBytes ? ` + ${formatBytes(machine.swapCapacityBytes)} swap` : ''}</dd>
          <dt>Kernel</dt>
          <dd className="mono">{machine.kernelVersion}</dd>
          <dt>OS</dt>
          <dd>{machine.osImage}</dd>
          <dt>Machine ID</dt>
          <dd className="mono small">{machine.machineId || '—'}</dd>
          <dt>Boot ID</dt>
          <dd className="mono small">{machine.bootId || '—'}</dd>
        </dl>
        <dl className="facts">
          <dt>Cgroups</dt>
          <dd>{cgroups ? `${cgroups.driver}${cgroups.mode ? ` (${cgroups.mode})` : ''}${cgroups.qosTree ? ', QoS tree managed' : ''}` : '—'}</dd>
          <dt>Capacity</dt>
          <dd>{machine.numCores} CPU · {formatBytes(machine.memoryCapacityBytes)}</dd>
          <dt>Allocatable</dt>
          <dd data-testid="machine-allocatable">
            {a ? `${(a.cpuMilli / 1000).toFixed(2)} CPU · ${formatBytes(a.memoryBytes)} · ${formatBytes(a.ephemeralStorageBytes)} ephemeral · ${a.pods} pods` : '—'}
          </dd>
          <dt>Filesystems</dt>
          <dd>
            {machine.filesystems.map((f) => (
              <div key={f.device + f.mountPoint} className="mono small">{f.device} on {f.mountPoint} ({f.type}) {formatBytes(f.capacityBytes)}</div>
            ))}
          </dd>
          <dt>Interfaces</dt>
          <dd className="small">{machine.interfaces.map((i) => i.name).join(', ') || '—'}</dd>
        </dl>
      </div>
      <NodePerCore />
    </Panel>
  );
}
