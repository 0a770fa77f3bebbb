import { CadvisorPage } from '../../../../../features/cadvisor/cadvisor-page.tsx';

export default async function PodUsagePage({ params }: { params: Promise<{ namespace: string; name: string }> }) {
  const { namespace, name } = await params;
  return <CadvisorPage target={{ kind: 'pod', namespace: decodeURIComponent(namespace), name: decodeURIComponent(name) }} />;
}
