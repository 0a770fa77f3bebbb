'use client';
import { useEffect, useState, type RefObject } from 'react';
import { PHASES, type ListState } from './pod-list-model.ts';

interface Props {
  state: ListState;
  setState: (patch: Partial<ListState>) => void;
  namespaces: string[];
  searchError?: string;
  searchRef: RefObject<HTMLInputElement | null>;
}

/** Search (name, namespace or a label selector), namespace and phase: all in the URL. */
export function PodListControls({ state, setState, namespaces, searchError, searchRef }: Props) {
  // The box keeps what is typed; the URL follows 150 ms after the last key (one history entry, not one per key).
  const [text, setText] = useState(state.q);
  useEffect(() => setText(state.q), [state.q]);
  useEffect(() => {
    if (text === state.q) return;
    const t = setTimeout(() => setState({ q: text }), 150);
    return () => clearTimeout(t);
  }, [text, state.q, setState]);
  const nsOptions = state.ns && !namespaces.includes(state.ns) ? [...namespaces, state.ns] : namespaces;
  return (
    <div className="filters pod-filters">
      <label className="pod-search">
        <span>Search — name, namespace or labels (<code>app=web,tier!=db</code>, <code>env in (a,b)</code>, <code>!key</code>) · press /</span>
        <input
          ref={searchRef}
          type="search"
          value={text}
          placeholder="name or app=web,tier!=db"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={searchError ? true : undefined}
          aria-describedby={searchError ? 'pod-search-error' : undefined}
          data-testid="pod-search"
          onChange={(e) => setText(e.target.value)}
        />
        {searchError ? <span id="pod-search-error" className="error-text" role="alert" data-testid="pod-search-error">{searchError}</span> : null}
      </label>
      <label>
        Namespace
        <select value={state.ns} onChange={(e) => setState({ ns: e.target.value })} data-testid="pod-namespace">
          <option value="">all namespaces</option>
          {nsOptions.map((ns) => <option key={ns} value={ns}>{ns}</option>)}
        </select>
      </label>
      <label>
        Phase
        <select value={state.phase} onChange={(e) => setState({ phase: e.target.value })} data-testid="pod-phase-filter">
          <option value="">all phases</option>
          {PHASES.map((p) => <option key={p} value={p}>{p}</option>)}
        </select>
      </label>
    </div>
  );
}
