/**
 * The pod list's view changes asked of the router but not yet in the URL. router.replace lands in a transition:
 * until the URL shows a change, the state read from it is the one before, and a second change made meanwhile (a
 * namespace picked, then a search typed) merged into that would undo the first. Changes build on the newest one
 * asked for until the URL has caught up with every one of them.
 */
import { stateToParams, type ListState } from './pod-list-model.ts';

export interface AskedView {
  /** The newest state asked for. */
  state: ListState;
  /** The search strings asked for, oldest first, not yet seen in the URL. */
  qs: string[];
}

/** A change `patch` asked while the URL shows `current`: what to ask the router for, and the new bookkeeping. */
export function askView(asked: AskedView | undefined, current: ListState, patch: Partial<ListState>): AskedView {
  const state = { ...(asked?.state ?? current), ...patch };
  return { state, qs: [...(asked?.qs ?? []), stateToParams(state).toString()] };
}

/** The URL now shows `qs`: forget what it caught up with; a URL we did not ask for (navigation) forgets everything. */
export function urlSeen(asked: AskedView | undefined, qs: string): AskedView | undefined {
  if (!asked) return undefined;
  const at = asked.qs.indexOf(qs);
  if (at < 0 || at === asked.qs.length - 1) return undefined;
  return { state: asked.state, qs: asked.qs.slice(at + 1) };
}
