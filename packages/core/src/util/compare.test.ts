import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byCodeUnit } from './compare.ts';

test("code-unit order, as Go compares strings: upper case before lower case, a prefix first", () => {
  // The kubelet's pod conditions sorted by type (Go's sort.Strings order).
  const types = ['Ready', 'ContainersReady', 'PodScheduled', 'Initialized', 'PodReadyToStartContainers', 'DisruptionTarget'];
  assert.deepEqual([...types].sort(byCodeUnit), ['ContainersReady', 'DisruptionTarget', 'Initialized', 'PodReadyToStartContainers', 'PodScheduled', 'Ready']);
  assert.deepEqual(['b', 'B', 'a', 'A', 'ab', 'a'].sort(byCodeUnit), ['A', 'B', 'a', 'a', 'ab', 'b']);
  assert.equal(byCodeUnit('x', 'x'), 0);
});
