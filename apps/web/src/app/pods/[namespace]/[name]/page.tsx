import { PodDetailView } from '../../../../features/pod-detail/pod-detail-view.tsx';

export default async function PodPage({ params }: { params: Promise<{ namespace: string; name: string }> }) {
  const { namespace, name } = await params;
  return <PodDetailView namespace={decodeURIComponent(namespace)} name={decodeURIComponent(name)} />;
}
