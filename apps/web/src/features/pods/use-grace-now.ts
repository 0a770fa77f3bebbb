'use client';
import { useNow } from '../../lib/use-now.ts';

/** The current time: every second while a Terminating pod counts its grace period down, else every 5 s. */
export function useGraceNow(terminating: boolean): number {
  return useNow(terminating ? 1_000 : 5_000);
}
