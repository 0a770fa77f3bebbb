/** @nodelet/core/oom: OOM events as the OOM watcher reports them. */
export type { OomEvent } from './types.ts';
