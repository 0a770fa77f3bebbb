/** Waits (polling every 10 ms, up to `ms`) for a condition that file system events or gRPC calls make true. */
import assert from 'node:assert/strict';

export async function until(what: string, fn: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!fn() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  assert.ok(fn(), `timed out waiting for ${what}`);
}
