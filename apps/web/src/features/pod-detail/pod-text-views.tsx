'use client';
import { useMemo, useState } from 'react';
import type { K8sBusEvent, WirePod } from '../../lib/api-types.ts';
import { Panel } from '../../lib/ui.tsx';
import { describePod } from './pod-describe.ts';
import { toYaml } from './to-yaml.ts';

type View = 'describe' | 'yaml';

/** Copies text: the Clipboard API where the page may use it, else a selected textarea and execCommand. */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the textarea
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.appendChild(ta);
  ta.select();
  try {
    return document.execCommand('copy');
  } finally {
    ta.remove();
  }
}

/** `kubectl describe pod` and the pod's YAML as the agent holds it, each copyable. */
export function PodTextViews({ pod, events, now }: { pod: WirePod; events: K8sBusEvent[]; now: number }) {
  const [view, setView] = useState<View>('describe');
  const [copied, setCopied] = useState<'' | 'ok' | 'failed'>('');
  const text = useMemo(() => (view === 'describe' ? describePod(pod, events, now) : toYaml(pod)), [view, pod, events, now]);
  const choose = (v: View) => {
    setView(v);
    setCopied('');
  };
  const tab = (v: View, label: string) => (
    <button type="button" role="tab" aria-selected={view === v} className={`btn tab${view === v ? ' btn-primary' : ''}`} onClick={() => choose(v)} data-testid={`pod-view-${v}`}>
      {label}
    </button>
  );
  return (
    <Panel
      title={view === 'describe' ? 'Describe' : 'YAML'}
      testId="pod-text-views"
      actions={
        <>
          <span role="tablist" className="tabs">{tab('describe', 'Describe')}{tab('yaml', 'YAML')}</span>
          <button type="button" className="btn" data-testid="pod-copy" onClick={() => void copyText(text).then((ok) => setCopied(ok ? 'ok' : 'failed'))}>
            Copy {view === 'describe' ? 'text' : 'YAML'}
          </button>
          <span className="muted small" role="status" data-testid="pod-copy-status">{copied === 'ok' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the text instead' : ''}</span>
        </>
      }
    >
      <pre className="pod-text" data-testid={view === 'describe' ? 'pod-describe' : 'pod-yaml'} tabIndex={0}>{text}</pre>
    </Panel>
  );
}
