/**
 * On the real host (root, cgroup v1 cpu + memory hierarchies writable): create /nodelet-test-<rand>, write
 * limits, read them back, destroy. Skipped when not root or when the host has no writable v1 cpu/memory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { CgroupManagerV1 } from './cgroup-manager-v1.ts';
import { detectCgroupLayout } from './mountinfo.ts';
import { createNodeHostFs } from './node-host-fs.ts';

const fs = createNodeHostFs();
const layout = await detectCgroupLayout(fs);
const isRoot = process.getuid?.() === 0;
const usable = layout.ok && layout.layout.v1.cpu !== undefined && layout.layout.v1.memory !== undefined;
const skip = !isRoot ? 'needs root' : !usable ? 'no v1 cpu + memory hierarchies' : false;

test('real v1: create, limit, read back and remove a test cgroup', { skip }, async () => {
  assert.ok(layout.ok);
  const m = new CgroupManagerV1({ fs, layout: layout.layout }, { controllers: ['cpu', 'cpuacct', 'memory', 'pids'] });
  const name = `/nodelet-test-${randomBytes(4).toString('hex')}`;
  try {
    const r = await m.create(name, { cpuShares: 512, cpuQuota: 20000, cpuPeriod: 100000, memoryLimit: 64 * 2 ** 20, pidsLimit: 50 });
    assert.deepEqual(r, { ok: true });
    assert.ok(existsSync(`${layout.layout.v1.memory}${name}`));
    assert.ok(await m.exists(name));
    const back = await m.read(name);
    assert.equal(back.cpuShares, 512);
    assert.equal(back.cpuQuota, 20000);
    assert.equal(back.memoryLimit, 64 * 2 ** 20);
    assert.equal(back.pidsLimit, 50);
    assert.deepEqual(await m.pids(name), []);
    assert.deepEqual(await m.update(name, { memoryLimit: -1, cpuQuota: -1 }), { ok: true });
    assert.equal((await m.read(name)).memoryLimit, -1);
    assert.equal((await m.read(name)).cpuQuota, -1);
  } finally {
    assert.deepEqual(await m.destroy(name), { ok: true });
  }
  assert.equal(await m.exists(name), false);
  assert.ok(!existsSync(`${layout.layout.v1.memory}${name}`));
  assert.ok(!existsSync(`${layout.layout.v1.cpu}${name}`));
});
