/** Small presentational atoms shared by features. */
import type { ReactNode } from 'react';
import type { Tone } from '../features/pods/pod-summary.ts';

export function Badge({ tone, children, testId, title }: { tone: Tone; children: ReactNode; testId?: string; title?: string }) {
  return (
    <span className={`badge tone-${tone}`} data-testid={testId} data-tone={tone} title={title}>
      {children}
    </span>
  );
}

export function Panel({ title, children, actions, testId }: { title: string; children: ReactNode; actions?: ReactNode; testId?: string }) {
  return (
    <section className="panel" data-testid={testId}>
      <header className="panel-head">
        <h2>{title}</h2>
        {actions ? <div className="panel-actions">{actions}</div> : null}
      </header>
      <div className="panel-body">{children}</div>
    </section>
  );
}

export function QueryState({ isPending, error }: { isPending: boolean; error: { message: string } | null }) {
  if (error) return <p className="muted error-text">Cannot reach the agent: {error.message}</p>;
  if (isPending) return <p className="muted">Loading…</p>;
  return null;
}
