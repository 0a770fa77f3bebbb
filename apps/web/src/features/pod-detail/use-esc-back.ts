'use client';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { isShortcutTarget } from '../pods/use-list-keyboard.ts';
import { LIST_HREF_KEY } from '../pods/use-pod-list.ts';

/** Esc on the pod page goes back to the pod list as it was last shown (its search, filters and sort). */
export function useEscBack(): void {
  const router = useRouter();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !isShortcutTarget(e)) return;
      const href = window.sessionStorage.getItem(LIST_HREF_KEY);
      router.push(href && href.startsWith('/') && !href.startsWith('//') ? href : '/');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [router]);
}
