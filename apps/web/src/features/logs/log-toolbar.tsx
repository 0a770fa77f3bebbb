'use client';
/**
 * The logs viewer's controls: which log (container, previous instance, follow, tail lines, since — applied with
 * Apply or Enter; wrong values are named beside the fields), how it is shown (timestamps, wrap), search with
 * next/previous (Enter / Shift+Enter), and download.
 */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { LogForm } from './log-query.ts';
import styles from './logs.module.css';

export interface ContainerChoice {
  name: string;
  kind: 'init' | 'app' | 'ephemeral';
}

export interface LogToolbarProps {
  containers: readonly ContainerChoice[];
  form: LogForm;
  fieldError: { field: string; message: string } | null;
  onApply(form: LogForm): void;
  showTimestamps: boolean;
  onTimestamps(v: boolean): void;
  wrap: boolean;
  onWrap(v: boolean): void;
  query: string;
  onQuery(q: string): void;
  matchLabel: string;
  onStep(dir: 1 | -1): void;
  onDownload(): void;
}

export function LogToolbar(p: LogToolbarProps) {
  const [draft, setDraft] = useState({ tailLines: p.form.tailLines, since: p.form.since });
  const apply = (over: Partial<LogForm> = {}) => p.onApply({ ...p.form, ...draft, ...over });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply();
  };
  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      p.onStep(e.shiftKey ? -1 : 1);
    }
  };
  const names = p.containers.some((c) => c.name === p.form.container) || !p.form.container ? p.containers : [...p.containers, { name: p.form.container, kind: 'app' as const }];
  return (
    <form className={styles.toolbar} onSubmit={submit} data-testid="log-toolbar">
      <label>
        container
        <select value={p.form.container} onChange={(e) => apply({ container: e.target.value })} data-testid="log-container">
          {names.map((c) => (
            <option key={c.name} value={c.name}>{c.kind === 'app' ? c.name : `${c.name} (${c.kind})`}</option>
          ))}
        </select>
      </label>
      <label className={styles.check}>
        <input type="checkbox" checked={p.form.follow} onChange={(e) => apply({ follow: e.target.checked })} data-testid="log-follow" /> follow
      </label>
      <label className={styles.check}>
        <input type="checkbox" checked={p.form.previous} onChange={(e) => apply({ previous: e.target.checked })} data-testid="log-previous" /> previous
      </label>
      <label>
        tail lines
        <input type="text" inputMode="numeric" className={styles.narrow} placeholder="all" value={draft.tailLines} aria-invalid={p.fieldError?.field === 'tailLines'}
          onChange={(e) => setDraft({ ...draft, tailLines: e.target.value })} data-testid="log-tail" />
      </label>
      <label>
        since
        <input type="text" className={styles.narrow} placeholder="5m, 1h, time" value={draft.since} aria-invalid={p.fieldError?.field === 'since'}
          onChange={(e) => setDraft({ ...draft, since: e.target.value })} data-testid="log-since" />
      </label>
      <button type="submit" className="btn btn-small" data-testid="log-apply">Apply</button>
      <label className={styles.check}>
        <input type="checkbox" checked={p.showTimestamps} onChange={(e) => p.onTimestamps(e.target.checked)} data-testid="log-timestamps" /> timestamps
      </label>
      <label className={styles.check}>
        <input type="checkbox" checked={p.wrap} onChange={(e) => p.onWrap(e.target.checked)} data-testid="log-wrap" /> wrap
      </label>
      <span className={styles.search}>
        <input type="search" placeholder="search" value={p.query} onChange={(e) => p.onQuery(e.target.value)} onKeyDown={onSearchKey} aria-label="search in the log" data-testid="log-search" />
        <button type="button" className="btn btn-small" onClick={() => p.onStep(-1)} aria-label="previous match" data-testid="log-search-prev">↑</button>
        <button type="button" className="btn btn-small" onClick={() => p.onStep(1)} aria-label="next match" data-testid="log-search-next">↓</button>
        <span className="muted small" data-testid="log-search-count">{p.matchLabel}</span>
      </span>
      <button type="button" className="btn btn-small" onClick={p.onDownload} data-testid="log-download">Download</button>
      {p.fieldError ? <span className={styles.fieldError} role="alert" data-testid="log-field-error">{p.fieldError.message}</span> : null}
    </form>
  );
}
