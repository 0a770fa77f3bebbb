import { ResourcesView } from '../../features/resources/resources-view.tsx';

export default function ResourcesPage() {
  return <ResourcesView />;
}
