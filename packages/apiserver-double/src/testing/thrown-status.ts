/** The Status body of the ApiError a registry call throws (fails the test when it returns instead). */
import assert from 'node:assert/strict';
import { ApiError, type StatusBody } from '../status.ts';

export function thrownStatus(fn: () => unknown): StatusBody {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
  assert.fail('expected an ApiError');
}
