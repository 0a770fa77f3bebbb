'use client';
import { useEffect, useState } from 'react';
import { THEME_KEY, type Theme } from './theme-script.ts';

function current(): Theme {
  const set = document.documentElement.dataset.theme;
  if (set === 'light' || set === 'dark') return set;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Switches between light and dark and remembers the choice (localStorage; applied before paint by THEME_SCRIPT). */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>();
  useEffect(() => setTheme(current()), []);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  const toggle = () => {
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      /* storage refused (private mode): the choice lasts for this page */
    }
    setTheme(next);
  };
  return (
    <button type="button" className="theme-toggle" onClick={toggle} data-testid="theme-toggle" data-theme={theme ?? ''} title={`Switch to the ${next} theme`} aria-label={`Switch to the ${next} theme`}>
      {theme === 'dark' ? '☀' : '☾'}
    </button>
  );
}
