'use client';
import { useEffect, useRef, type RefObject } from 'react';

/** A key typed into a field, or with a modifier, is the field's (or the browser's), not a shortcut. */
export function isShortcutTarget(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  const t = e.target as HTMLElement | null;
  const tag = t?.tagName;
  return !(tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || t?.isContentEditable);
}

/**
 * The pod list's keys: j / k move the selection, / focuses the search box, Enter opens the selected pod, Esc in
 * the search box leaves it, keeping the search (the selection keys work again).
 */
export function useListKeyboard(o: { search: RefObject<HTMLInputElement | null>; move: (delta: number) => void; open: () => void }) {
  const latest = useRef(o);
  latest.current = o;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const { search, move, open } = latest.current;
      if (e.key === 'Escape' && e.target === search.current) {
        e.preventDefault(); // a search field's own Esc would clear it: Esc leaves the box, the filter stays
        search.current?.blur();
        return;
      }
      if (!isShortcutTarget(e)) return;
      if (e.key === '/') {
        e.preventDefault();
        search.current?.focus();
        search.current?.select();
      } else if (e.key === 'j' || e.key === 'ArrowDown') {
        e.preventDefault();
        move(1);
      } else if (e.key === 'k' || e.key === 'ArrowUp') {
        e.preventDefault();
        move(-1);
      } else if (e.key === 'Enter' && !(e.target as HTMLElement | null)?.closest?.('a,button')) {
        open();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
