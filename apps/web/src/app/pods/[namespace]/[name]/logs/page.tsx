import { PodLogsView, type LogPageQuery } from '../../../../../features/logs/pod-logs-view.tsx';

type Search = Record<string, string | string[] | undefined>;

export default async function PodLogsPage({ params, searchParams }: { params: Promise<{ namespace: string; name: string }>; searchParams: Promise<Search> }) {
  const { namespace, name } = await params;
  const s = await searchParams;
  const query: LogPageQuery = {};
  for (const k of ['container', 'previous', 'follow', 'tailLines', 'since', 'agent'] as const) {
    const v = s[k];
    if (typeof v === 'string') query[k] = v;
  }
  return <PodLogsView namespace={decodeURIComponent(namespace)} name={decodeURIComponent(name)} query={query} />;
}
