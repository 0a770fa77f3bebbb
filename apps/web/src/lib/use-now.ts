'use client';
import { useEffect, useState } from 'react';

/** The current time, refreshed every `everyMs` (for ages). */
export function useNow(everyMs = 5_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now()); // a new period starts from the current time, not the last tick's
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
