'use client';
/**
 * The virtualised lines of a log: only the lines in view (plus an overscan) are in the DOM, placed over a spacer
 * as tall as all the rows (log-window.ts counts; this measures the character width and the viewport). It sticks
 * to the bottom while the user is at the bottom (a followed log scrolls itself), and brings the selected search
 * match into view.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { LogLine } from './log-buffer.ts';
import { highlight, type Match } from './log-search.ts';
import { rowOffsets, visibleWindow } from './log-window.ts';
import styles from './logs.module.css';

export const ROW_HEIGHT = 18;
const GUTTER_CHARS = 9;

export interface LogLinesProps {
  lines: readonly LogLine[];
  /** The displayed text of each line (tabs expanded; searched), without its timestamp. */
  texts: readonly string[];
  showTimestamps: boolean;
  wrap: boolean;
  query: string;
  current: Match | undefined;
  version: number;
}

export function LogLines({ lines, texts, showTimestamps, wrap, query, current, version }: LogLinesProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const measure = useRef<HTMLSpanElement>(null);
  const stick = useRef(true);
  const [scrollTop, setScrollTop] = useState(0);
  const [size, setSize] = useState({ width: 800, height: 540, charWidth: 7.5 });

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const read = () => {
      const charWidth = (measure.current?.getBoundingClientRect().width ?? 0) / 100 || 7.5;
      setSize({ width: el.clientWidth, height: el.clientHeight, charWidth });
    };
    read();
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // One column less than fits: a row counted too many leaves a blank row; one too few would clip text.
  const cols = Math.max(10, Math.floor(size.width / size.charWidth) - GUTTER_CHARS - 3);
  const offsets = useMemo(
    () => rowOffsets(texts.map((t, i) => t.length + (showTimestamps && lines[i]?.ts ? (lines[i]?.ts.length ?? 0) + 1 : 0)), cols, wrap),
    [texts, lines, showTimestamps, cols, wrap],
  );
  const win = visibleWindow(offsets, ROW_HEIGHT, scrollTop, size.height);

  // Follow: new lines keep the view at the bottom while the user is there.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && stick.current) {
      el.scrollTop = el.scrollHeight;
      setScrollTop(el.scrollTop);
    }
  }, [version, win.height]);

  useEffect(() => {
    const el = scroller.current;
    if (!el || !current) return;
    const top = (offsets[current.line] ?? 0) * ROW_HEIGHT;
    if (top < el.scrollTop || top + ROW_HEIGHT > el.scrollTop + el.clientHeight) {
      stick.current = false;
      el.scrollTop = Math.max(0, top - el.clientHeight / 3);
      setScrollTop(el.scrollTop);
    }
  }, [current, offsets]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stick.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT * 2;
    setScrollTop(el.scrollTop);
  };

  const rows = [];
  for (let i = win.start; i < win.end; i++) {
    const line = lines[i];
    const text = texts[i] ?? '';
    if (!line) continue;
    const pieces = highlight(text, query, current?.line === i ? current.start : undefined);
    const height = ((offsets[i + 1] ?? 0) - (offsets[i] ?? 0)) * ROW_HEIGHT;
    rows.push(
      <div key={line.seq} className={styles.line} style={{ height }} data-testid="log-line" data-seq={line.seq}>
        <span className={styles.gutter}>{line.seq + 1}</span>
        <span className={styles.text}>
          {showTimestamps && line.ts ? <span className={styles.ts} data-testid="log-ts">{`${line.ts} `}</span> : null}
          {pieces.map((p, k) =>
            p.mark ? <mark key={k} className={p.mark === 'current' ? styles.current : styles.hit} data-testid={p.mark === 'current' ? 'log-match-current' : 'log-match'}>{p.text}</mark> : p.text,
          )}
        </span>
      </div>,
    );
  }

  return (
    <div ref={scroller} className={`${styles.scroller} ${wrap ? styles.wrap : ''}`} onScroll={onScroll} data-testid="log-scroller" data-lines={lines.length} data-rendered={rows.length} tabIndex={0}>
      <span ref={measure} className={styles.measure} aria-hidden>{'x'.repeat(100)}</span>
      {lines.length === 0 ? <div className={styles.empty}>No log lines.</div> : null}
      <div className={styles.spacer} style={{ height: win.height }}>
        <div className={styles.window} style={{ transform: `translateY(${win.top}px)` }}>{rows}</div>
      </div>
    </div>
  );
}
