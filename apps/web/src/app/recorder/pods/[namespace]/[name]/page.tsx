import { PodHistoryView } from '../../../../../features/recorder/pod-history-view.tsx';

export const metadata = { title: 'Pod history · nodelet console' };

export default async function PodHistoryPage({ params, searchParams }: { params: Promise<{ namespace: string; name: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { namespace, name } = await params;
  const { uid } = await searchParams;
  return <PodHistoryView namespace={decodeURIComponent(namespace)} name={decodeURIComponent(name)} {...(typeof uid === 'string' && uid ? { uid } : {})} />;
}
