'use client';
import Link from 'next/link';
import type { WirePod } from '../../lib/api-types.ts';
import { formatAge, formatTimestamp } from '../../lib/format.ts';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import { graceLeftSeconds, podRowView } from '../pods/pod-summary.ts';
import { useGraceNow } from '../pods/use-grace-now.ts';
import { TailTable } from '../tail/tail-table.tsx';
import { useEventTail } from '../tail/use-event-tail.ts';
import { ConditionsTable } from './conditions-table.tsx';
import { ContainerCard } from './container-card.tsx';
import { ContainerLogsLink } from '../logs/container-logs-link.tsx';
import { K8sEventsTable } from './k8s-events-table.tsx';
import { usePodDetail } from './use-pod-detail.ts';
import { PodWhy } from './pod-why.tsx';
import { PodTextViews } from './pod-text-views.tsx';
import { useEscBack } from './use-esc-back.ts';
import { containerProbes } from '../probes/probe-model.ts';
import { ProbePanel } from '../probes/probe-panel.tsx';
import { usePodProbes } from '../probes/use-probes.ts';

function PodFacts({ pod, now }: { pod: WirePod; now: number }) {
  const s = pod.status;
  const m = pod.metadata;
  return (
    <dl className="facts two-col">
      <dt>UID</dt>
      <dd className="mono">{m?.uid ?? '—'}</dd>
      <dt>Node</dt>
      <dd>{pod.spec?.nodeName ?? '—'}</dd>
      <dt>Pod IP</dt>
      <dd className="mono">{s?.podIP ?? '—'}</dd>
      <dt>Host IP</dt>
      <dd className="mono">{s?.hostIP ?? '—'}</dd>
      <dt>QoS class</dt>
      <dd>{s?.qosClass ?? '—'}</dd>
      <dt>Started</dt>
      <dd>{s?.startTime ? `${formatTimestamp(s.startTime)} (${formatAge(s.startTime, now)})` : '—'}</dd>
      <dt>Restart policy</dt>
      <dd>{pod.spec?.restartPolicy ?? 'Always'}</dd>
      <dt>Source</dt>
      <dd>{m?.annotations?.['kubernetes.io/config.source'] ?? '—'}</dd>
      {s?.reason || s?.message ? (
        <>
          <dt>Reason</dt>
          <dd>{s.reason} {s.message ? <span className="muted">— {s.message}</span> : null}</dd>
        </>
      ) : null}
    </dl>
  );
}

export function PodDetailView({ namespace, name }: { namespace: string; name: string }) {
  const q = usePodDetail(namespace, name);
  const tail = useEventTail({ namespace, pod: name }, 100);
  const probes = usePodProbes(namespace, name);
  const detail = q.data;
  const now = useGraceNow(Boolean(detail?.pod.metadata?.deletionTimestamp));
  useEscBack();

  if (detail === null) {
    return (
      <Panel title={`${namespace}/${name}`} testId="pod-detail">
        <p className="muted" data-testid="pod-not-found">This pod is not on the node (it may have been removed). <Link href="/">Back to pods</Link></p>
      </Panel>
    );
  }
  if (!detail) {
    return (
      <Panel title={`${namespace}/${name}`}>
        <QueryState isPending={q.isPending} error={q.error} />
      </Panel>
    );
  }
  const { pod, events } = detail;
  const view = podRowView(pod);
  const init = pod.status?.initContainerStatuses ?? [];
  const app = pod.status?.containerStatuses ?? [];
  return (
    <div data-testid="pod-detail" data-phase={view.phase}>
      <Panel
        title={`${namespace}/${name}`}
        actions={
          <>
            <Badge tone={view.phaseTone} testId="pod-detail-phase" title={`phase ${view.phase}`}>{view.status}</Badge>
            {view.status === 'Terminating' ? <span className="grace" data-testid="pod-detail-grace">{graceLeftSeconds(view, now)}s left of the grace period</span> : null}
            <span className="muted">ready {view.readyCount}/{view.total} · restarts {view.restarts}</span>
            <Link href={`/containers/pods/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`} data-testid="pod-usage-link">usage</Link>
            <Link href={`/recorder/pods/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`} data-testid="pod-history-link">history</Link>
          </>
        }
      >
        <PodWhy namespace={namespace} name={name} />
        <PodFacts pod={pod} now={now} />
      </Panel>
      <Panel title="Conditions">
        <ConditionsTable conditions={pod.status?.conditions ?? []} />
      </Panel>
      {init.length > 0 ? (
        <Panel title="Init containers">
          <div className="cards">
            {init.map((c) => <ContainerCard key={c.name} status={c} init now={now}><ContainerLogsLink namespace={namespace} pod={name} status={c} /></ContainerCard>)}
          </div>
        </Panel>
      ) : null}
      <Panel title="Containers">
        {app.length === 0 ? <p className="muted">No container statuses yet.</p> : null}
        <div className="cards">
          {app.map((c) => (
            <ContainerCard key={c.name} status={c} init={false} now={now}>
              <ContainerLogsLink namespace={namespace} pod={name} status={c} />
              <ProbePanel probes={containerProbes(probes.workers, c.name)} timelines={probes.timelines} now={now} />
            </ContainerCard>
          ))}
        </div>
      </Panel>
      <Panel title="Events">
        <K8sEventsTable events={events} now={now} />
      </Panel>
      <PodTextViews pod={pod} events={events} now={now} />
      <Panel title={`Lifecycle (${tail.rows.length})`}>
        <TailTable rows={tail.rows} showPod={false} testId="pod-lifecycle" />
      </Panel>
    </div>
  );
}
