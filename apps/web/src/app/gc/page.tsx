import { GcView } from '../../features/gc/gc-view.tsx';

export default function GcPage() {
  return <GcView />;
}
