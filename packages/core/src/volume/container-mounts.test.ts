import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Container, V1VolumeMount } from '@kubernetes/client-node';
import { buildContainerMounts, checkSubPath, type ResolvedVolume } from './container-mounts.ts';

test('checkSubPath: absolute and backstep subPaths are refused with the kubelet messages', () => {
  const cases: Array<[string, string | undefined]> = [
    ['a/b', undefined],
    ['a..b', undefined],
    ['/etc', 'error SubPath `/etc` must not be an absolute path'],
    ['../x', "unable to provision SubPath `../x`: must not contain '..'"],
    ['a/../../x', "unable to provision SubPath `a/../../x`: must not contain '..'"],
  ];
  for (const [sp, want] of cases) assert.equal(checkSubPath(sp), want, sp);
});

test('buildContainerMounts: subPath, readOnly, propagation, missing volumes, symlink escapes', async () => {
  const root = await mkdtemp(join(tmpdir(), 'cmounts-'));
  try {
    const vol = join(root, 'vol');
    await mkdir(join(vol, 'exists'), { recursive: true });
    await symlink('/etc', join(vol, 'evil'));
    await symlink('exists', join(vol, 'good'));
    const volumes = new Map<string, ResolvedVolume>([
      ['data', { path: vol, readOnly: false }],
      ['cfg', { path: join(root, 'cfg'), readOnly: true }],
    ]);
    const c = (volumeMounts: V1VolumeMount[], privileged = false): V1Container => ({ name: 'app', volumeMounts, securityContext: { privileged } });
    type Want = { hostPath: string; readonly: boolean; propagation: string } | string;
    const cases: Array<{ name: string; c: V1Container; want: Want; vars?: Map<string, string> }> = [
      { name: 'plain', c: c([{ name: 'data', mountPath: '/d' }]), want: { hostPath: vol, readonly: false, propagation: 'PROPAGATION_PRIVATE' } },
      { name: 'API data volumes are read-only', c: c([{ name: 'cfg', mountPath: '/c' }]), want: { hostPath: join(root, 'cfg'), readonly: true, propagation: 'PROPAGATION_PRIVATE' } },
      { name: 'readOnly mount', c: c([{ name: 'data', mountPath: '/d', readOnly: true, mountPropagation: 'HostToContainer' }]), want: { hostPath: vol, readonly: true, propagation: 'PROPAGATION_HOST_TO_CONTAINER' } },
      { name: 'subPath existing', c: c([{ name: 'data', mountPath: '/d', subPath: 'exists' }]), want: { hostPath: join(vol, 'exists'), readonly: false, propagation: 'PROPAGATION_PRIVATE' } },
      { name: 'subPath link inside the volume', c: c([{ name: 'data', mountPath: '/d', subPath: 'good' }]), want: { hostPath: join(vol, 'exists'), readonly: false, propagation: 'PROPAGATION_PRIVATE' } },
      { name: 'subPath created', c: c([{ name: 'data', mountPath: '/d', subPath: 'new/dir' }]), want: { hostPath: join(vol, 'new/dir'), readonly: false, propagation: 'PROPAGATION_PRIVATE' } },
      { name: 'subPathExpr', c: c([{ name: 'data', mountPath: '/d', subPathExpr: '$(POD)' }]), vars: new Map([['POD', 'p1']]), want: { hostPath: join(vol, 'p1'), readonly: false, propagation: 'PROPAGATION_PRIVATE' } },
      { name: 'subPath symlink escape', c: c([{ name: 'data', mountPath: '/d', subPath: 'evil' }]), want: 'failed to prepare subPath for volumeMount "data" of container "app"' },
      { name: 'subPath under an escaping link', c: c([{ name: 'data', mountPath: '/d', subPath: 'evil/nodelet-x' }]), want: 'failed to create subPath directory for volumeMount "data" of container "app"' },
      { name: 'subPath backstep', c: c([{ name: 'data', mountPath: '/d', subPath: '../../etc' }]), want: "unable to provision SubPath `../../etc`: must not contain '..'" },
      { name: 'subPath absolute', c: c([{ name: 'data', mountPath: '/d', subPath: '/etc' }]), want: 'error SubPath `/etc` must not be an absolute path' },
      { name: 'undeclared volume', c: c([{ name: 'nope', mountPath: '/n' }]), want: 'cannot find volume "nope" to mount into container "app"' },
      { name: 'Bidirectional needs privileged', c: c([{ name: 'data', mountPath: '/d', mountPropagation: 'Bidirectional' }]), want: 'Bidirectional mount propagation is available only to privileged containers' },
      { name: 'Bidirectional privileged', c: c([{ name: 'data', mountPath: '/d', mountPropagation: 'Bidirectional' }], true), want: { hostPath: vol, readonly: false, propagation: 'PROPAGATION_BIDIRECTIONAL' } },
    ];
    for (const tc of cases) {
      const r = await buildContainerMounts(tc.c, volumes, tc.vars);
      if (typeof tc.want === 'string') {
        assert.deepEqual(r, { ok: false, message: tc.want }, tc.name);
        continue;
      }
      assert.ok(r.ok, `${tc.name}: ${r.ok ? '' : r.message}`);
      const m = r.mounts[0]!;
      assert.deepEqual({ hostPath: m.hostPath, readonly: m.readonly, propagation: m.propagation }, tc.want, tc.name);
      assert.equal(m.containerPath, tc.c.volumeMounts![0]!.mountPath, tc.name);
    }
    assert.ok((await stat(join(vol, 'new/dir'))).isDirectory());
    await assert.rejects(stat('/etc/nodelet-x'), 'nothing was created outside the volume');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('buildContainerMounts: a missing subPath below a link out of the volume creates nothing outside (several levels)', async () => {
  const root = await mkdtemp(join(tmpdir(), 'cmounts-'));
  const outside = await mkdtemp(join(tmpdir(), 'cmounts-outside-'));
  try {
    const vol = join(root, 'vol');
    await mkdir(join(vol, 'in'), { recursive: true });
    await symlink(outside, join(vol, 'out'));
    await symlink('in', join(vol, 'inlink'));
    const volumes = new Map<string, ResolvedVolume>([['data', { path: vol, readOnly: false }]]);
    const c = (subPath: string): V1Container => ({ name: 'app', volumeMounts: [{ name: 'data', mountPath: '/d', subPath }] });
    for (const sp of ['out/a/b', 'out/a/b/c/d']) {
      const r = await buildContainerMounts(c(sp), volumes);
      assert.equal(r.ok, false, sp);
    }
    assert.deepEqual(await readdir(outside), [], 'nothing made outside the volume');
    const ok = await buildContainerMounts(c('inlink/p/q'), volumes);
    assert.ok(ok.ok && ok.mounts[0]!.hostPath === join(vol, 'in/p/q'), 'a link inside the volume is followed');
    assert.equal((await stat(join(vol, 'in/p'))).mode & 0o777, 0o750);
  } finally {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  }
});
