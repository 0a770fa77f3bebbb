import { Badge } from '../../lib/ui.tsx';
import { describeState, type ContainerStateView } from './pod-summary.ts';

export function ContainerChips({ containers }: { containers: ContainerStateView[] }) {
  return (
    <span className="chips">
      {containers.map((c) => (
        <Badge key={`${c.init ? 'i' : 'c'}-${c.name}`} tone={c.tone} title={c.message ?? describeState(c)}>
          {c.init ? <span className="muted">init </span> : null}
          {c.name}: {describeState(c)}
        </Badge>
      ))}
    </span>
  );
}
