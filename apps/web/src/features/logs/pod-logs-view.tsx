'use client';
/**
 * The logs page of one pod (/pods/<namespace>/<name>/logs?container=…&previous=1): the pod's containers (app, init,
 * ephemeral, from pods.get) to choose from, and the viewer. The form starts from the page's query, so a link can
 * name the container and the instance.
 */
import Link from 'next/link';
import { Panel, QueryState } from '../../lib/ui.tsx';
import { usePodDetail } from '../pod-detail/use-pod-detail.ts';
import type { LogForm } from './log-query.ts';
import type { ContainerChoice } from './log-toolbar.tsx';
import { LogViewer } from './log-viewer.tsx';

export type LogPageQuery = Partial<Record<'container' | 'previous' | 'follow' | 'tailLines' | 'since' | 'agent', string>>;

const isOn = (v: string | undefined) => v === '1' || v === 'true';

export function PodLogsView({ namespace, name, query }: { namespace: string; name: string; query: LogPageQuery }) {
  const q = usePodDetail(namespace, name);
  const pod = q.data?.pod;
  const back = <Link href={`/pods/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`} data-testid="logs-back">pod</Link>;
  if (q.data === null) {
    return (
      <Panel title={`Logs · ${namespace}/${name}`} testId="pod-logs">
        <p className="muted" data-testid="pod-not-found">This pod is not on the node (it may have been removed). <Link href="/">Back to pods</Link></p>
      </Panel>
    );
  }
  if (!pod) {
    return (
      <Panel title={`Logs · ${namespace}/${name}`} testId="pod-logs">
        <QueryState isPending={q.isPending} error={q.error} />
      </Panel>
    );
  }
  const containers: ContainerChoice[] = [
    ...(pod.spec?.initContainers ?? []).map((c) => ({ name: c.name, kind: 'init' as const })),
    ...(pod.spec?.containers ?? []).map((c) => ({ name: c.name, kind: 'app' as const })),
    ...(pod.spec?.ephemeralContainers ?? []).map((c) => ({ name: c.name, kind: 'ephemeral' as const })),
  ];
  const initial: LogForm = {
    container: query.container ?? pod.spec?.containers?.[0]?.name ?? containers[0]?.name ?? '',
    previous: isOn(query.previous),
    follow: query.follow !== '0' && query.follow !== 'false',
    tailLines: query.tailLines ?? '',
    since: query.since ?? '',
  };
  return (
    <Panel title={`Logs · ${namespace}/${name}`} actions={back} testId="pod-logs">
      <LogViewer target={{ namespace, pod: name, ...(query.agent ? { agent: query.agent } : {}) }} containers={containers} initial={initial} />
    </Panel>
  );
}
