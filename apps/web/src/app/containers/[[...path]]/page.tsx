import { CadvisorPage } from '../../../features/cadvisor/cadvisor-page.tsx';
import { keyFromPath } from '../../../features/cadvisor/stats-nav.ts';

export default async function ContainersPage({ params }: { params: Promise<{ path?: string[] }> }) {
  const { path } = await params;
  return <CadvisorPage target={{ kind: 'key', key: keyFromPath(path) }} />;
}
