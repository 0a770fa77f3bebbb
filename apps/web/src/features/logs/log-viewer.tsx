'use client';
/**
 * One container's log in the console: the toolbar, a status line (live / ended / the agent's refusal, and how
 * many older lines were dropped to stay within the cap) and the virtualised lines. The log comes from the agent's
 * GET /containerLogs through the console's proxy (use-log-stream.ts); timestamps are always fetched and shown or
 * hidden here; search runs over the kept lines. The container and instance chosen are kept in the page's URL.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { DEFAULT_MAX_LINES } from './log-buffer.ts';
import { LogLines } from './log-lines.tsx';
import { downloadName, logUrl, type LogForm, type LogTarget } from './log-query.ts';
import { findMatches } from './log-search.ts';
import { LogToolbar, type ContainerChoice } from './log-toolbar.tsx';
import { displayText } from './log-window.ts';
import { useLogStream, type StreamState } from './use-log-stream.ts';
import styles from './logs.module.css';

function StatusLine({ state, kept, dropped, maxLines, onReload }: { state: StreamState; kept: number; dropped: number; maxLines: number; onReload(): void }) {
  const phase =
    state.phase === 'streaming' ? 'live' : state.phase === 'ended' ? 'complete' : state.phase === 'loading' ? 'loading…' : state.phase === 'error' ? `error ${state.status || ''}`.trim() : 'idle';
  return (
    <div className={styles.status} data-testid="log-status" data-phase={state.phase}>
      <span>{phase}</span>
      <span data-testid="log-count">{kept.toLocaleString('en-US')} lines</span>
      {dropped > 0 ? (
        <span className={styles.note} data-testid="log-dropped">
          {dropped.toLocaleString('en-US')} older lines dropped (the view keeps the newest {maxLines.toLocaleString('en-US')}; download or narrow with tail/since for more)
        </span>
      ) : null}
      {state.phase === 'error' ? <span className="error-text" role="alert" data-testid="log-error">{state.message}</span> : null}
      {state.phase === 'ended' || state.phase === 'error' ? <button type="button" className="btn btn-small" onClick={onReload} data-testid="log-reload">Reload</button> : null}
    </div>
  );
}

/** Keeps container/previous/follow/tail/since in the address bar, so a view can be shared. */
function rememberInUrl(form: LogForm): void {
  const u = new URL(window.location.href);
  const set = (k: string, v: string | boolean) => (v === '' || v === false ? u.searchParams.delete(k) : u.searchParams.set(k, v === true ? '1' : v));
  set('container', form.container);
  set('previous', form.previous);
  set('follow', form.follow ? '' : '0');
  set('tailLines', form.tailLines.trim());
  set('since', form.since.trim());
  window.history.replaceState(window.history.state, '', u);
}

export interface LogViewerProps {
  target: LogTarget;
  containers: readonly ContainerChoice[];
  initial: LogForm;
  maxLines?: number;
}

export function LogViewer({ target, containers, initial, maxLines = DEFAULT_MAX_LINES }: LogViewerProps) {
  const [form, setForm] = useState<LogForm>(initial);
  const [showTimestamps, setShowTimestamps] = useState(false);
  const [wrap, setWrap] = useState(false);
  const [query, setQuery] = useState('');
  const [matchIndex, setMatchIndex] = useState(0);
  const [reload, setReload] = useState(0);

  const [fieldError, setFieldError] = useState<{ field: string; message: string } | null>(() => {
    const c = logUrl(target, initial);
    return c.ok ? null : { field: c.field, message: c.message };
  });
  const url = useMemo(() => {
    const c = logUrl(target, form);
    return c.ok ? c.url : null;
  }, [target, form]);
  const { buffer, state, version } = useLogStream(url, maxLines, reload);
  useEffect(() => rememberInUrl(form), [form]);
  // A wrong value is named beside its field; the log on screen stays until a right one is applied.
  const apply = (next: LogForm) => {
    const c = logUrl(target, next);
    setFieldError(c.ok ? null : { field: c.field, message: c.message });
    if (c.ok) setForm(next);
  };

  // The buffer changes in place; version says when.
  const lines = useMemo(() => buffer.all().slice(), [buffer, version]);
  const texts = useMemo(() => lines.map((l) => displayText(l.text)), [lines]);
  const { matches, limited } = useMemo(() => findMatches(texts, query), [texts, query]);
  useEffect(() => setMatchIndex(0), [query]);
  const current = matches.length ? matches[Math.min(matchIndex, matches.length - 1)] : undefined;
  const step = useCallback((dir: 1 | -1) => {
    if (matches.length) setMatchIndex((i) => (Math.min(i, matches.length - 1) + dir + matches.length) % matches.length);
  }, [matches.length]);
  const matchLabel = !query ? '' : matches.length ? `${Math.min(matchIndex, matches.length - 1) + 1} / ${matches.length}${limited ? '+' : ''}` : 'no match';

  const download = () => {
    const url = URL.createObjectURL(new Blob([buffer.text(showTimestamps)], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = downloadName(target.pod, form.container, form.previous);
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  return (
    <div data-testid="log-viewer" data-container={form.container} data-previous={form.previous}>
      <LogToolbar
        containers={containers}
        form={form}
        fieldError={fieldError}
        onApply={apply}
        showTimestamps={showTimestamps}
        onTimestamps={setShowTimestamps}
        wrap={wrap}
        onWrap={setWrap}
        query={query}
        onQuery={setQuery}
        matchLabel={matchLabel}
        onStep={step}
        onDownload={download}
      />
      <StatusLine state={state} kept={lines.length} dropped={buffer.dropped} maxLines={buffer.maxLines} onReload={() => setReload((n) => n + 1)} />
      <LogLines lines={lines} texts={texts} showTimestamps={showTimestamps} wrap={wrap} query={query} current={current} version={version} />
    </div>
  );
}
