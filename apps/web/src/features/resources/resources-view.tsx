'use client';
/**
 * The node's resources as the resource managers hand them out: CPUs (shared pool, reserved, exclusive per
 * container), memory per NUMA node, and each device plugin resource's devices with their health and holder.
 * Live: asked again after device, pod and container events (use-resources.ts).
 */
import Link from 'next/link';
import type { ContainerRef, CpuResourcesView, DeviceResourceView, MemoryResourcesView } from '../../lib/api-types.ts';
import { formatBytes } from '../../lib/format.ts';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import type { Tone } from '../pods/pod-summary.ts';
import { cpuCells, holderName, type CpuRole } from './resources-model.ts';
import { useResources } from './use-resources.ts';

const ROLE_TONE: Record<CpuRole, Tone> = { shared: 'info', reserved: 'done', exclusive: 'warn', offline: 'bad' };

function Holder({ h }: { h: ContainerRef }) {
  if (!h.pod.name) return <span className="mono small">{holderName(h)} · {h.container}</span>;
  return (
    <span className="mono small">
      <Link prefetch={false} href={`/pods/${encodeURIComponent(h.pod.namespace)}/${encodeURIComponent(h.pod.name)}`}>{holderName(h)}</Link> · {h.container}
    </span>
  );
}

function CpuPanel({ cpu }: { cpu: CpuResourcesView }) {
  const cells = cpuCells(cpu);
  return (
    <Panel title="CPUs" testId="resources-cpu" actions={<span className="small muted" data-testid="cpu-policy">cpuManagerPolicy: {cpu.policy}</span>}>
      <p className="small muted">
        Shared pool <span className="mono" data-testid="cpu-shared">{cpu.shared || '—'}</span>
        {cpu.reserved ? <> · reserved <span className="mono">{cpu.reserved}</span></> : null}
        {cpu.policy === 'none' ? ' · policy none: every container runs on the shared pool' : ''}
      </p>
      <div className="chips" data-testid="cpu-cells">
        {cells.map((c) => (
          <Badge key={c.id} tone={ROLE_TONE[c.role]} testId={`cpu-${c.id}`} title={c.holder ? `${holderName(c.holder)} ${c.holder.container}` : c.role}>
            cpu {c.id} · {c.role}
          </Badge>
        ))}
      </div>
      {cpu.exclusive.length ? (
        <table className="table" data-testid="cpu-exclusive">
          <thead><tr><th>Container</th><th>Exclusive CPUs</th></tr></thead>
          <tbody>
            {cpu.exclusive.map((a) => (
              <tr key={`${a.pod.uid}/${a.container}`}><td><Holder h={a} /></td><td className="mono">{a.cpus}</td></tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Panel>
  );
}

function MemoryPanel({ memory }: { memory: MemoryResourcesView }) {
  return (
    <Panel title="Memory per NUMA node" testId="resources-memory" actions={<span className="small muted" data-testid="memory-policy">memoryManagerPolicy: {memory.policy}</span>}>
      {memory.nodes.length === 0 ? (
        <p className="small muted">No NUMA assignments{memory.policy === 'None' ? ' (policy None: memory is not pinned to NUMA nodes)' : ''}.</p>
      ) : (
        <table className="table" data-testid="memory-nodes">
          <thead><tr><th>Node</th><th className="num">Total</th><th className="num">Reserved</th><th className="num">Allocatable</th><th className="num">Assigned</th><th>Containers</th></tr></thead>
          <tbody>
            {memory.nodes.map((n) => (
              <tr key={n.node} data-testid="memory-node">
                <td className="mono">{n.node}</td>
                <td className="num">{formatBytes(n.total)}</td>
                <td className="num">{formatBytes(n.reserved)}</td>
                <td className="num">{formatBytes(n.allocatable)}</td>
                <td className="num">{formatBytes(n.assigned)}</td>
                <td>{n.assignments.map((a) => <div key={`${a.pod.uid}/${a.container}`}><Holder h={a} /> {formatBytes(a.bytes)}</div>)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}

function DeviceResource({ r }: { r: DeviceResourceView }) {
  return (
    <div className="card" data-testid="device-resource" data-resource={r.resource} data-allocatable={r.allocatable} data-capacity={r.capacity}>
      <div className="card-head">
        <span className="mono">{r.resource}</span>
        <Badge tone={r.connected ? 'ok' : 'warn'}>{r.connected ? 'plugin connected' : 'plugin gone'}</Badge>
        <span className="small muted">allocatable {r.allocatable} of {r.capacity}</span>
      </div>
      <table className="table">
        <thead><tr><th>Device</th><th>Health</th><th>NUMA</th><th>Held by</th></tr></thead>
        <tbody>
          {r.devices.map((d) => (
            <tr key={d.id} data-testid="device-row" data-device={d.id} data-health={d.healthy ? 'Healthy' : 'Unhealthy'} data-holder={d.holder ? holderName(d.holder) : ''}>
              <td className="mono">{d.id}</td>
              <td><Badge tone={d.healthy ? 'ok' : 'bad'}>{d.healthy ? 'Healthy' : 'Unhealthy'}</Badge></td>
              <td className="mono small">{d.numaNodes.length ? d.numaNodes.join(',') : '—'}</td>
              <td>{d.holder ? <Holder h={d.holder} /> : <span className="muted">free</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ResourcesView() {
  const q = useResources();
  const v = q.data;
  return (
    <div className="stack" data-testid="resources-page">
      <QueryState isPending={q.isPending} error={q.error} />
      {v ? (
        <>
          <CpuPanel cpu={v.cpu} />
          <MemoryPanel memory={v.memory} />
          <Panel title={`Devices (${v.devices.length} resource${v.devices.length === 1 ? '' : 's'})`} testId="resources-devices">
            {v.devices.length === 0 ? <p className="small muted">No device plugin has registered.</p> : <div className="cards">{v.devices.map((r) => <DeviceResource key={r.resource} r={r} />)}</div>}
          </Panel>
        </>
      ) : null}
    </div>
  );
}
