import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { createLogger } from '../util/logger.ts';
import { FakeObjects, FakeTokens } from '../podobjects/testing/fake-sources.ts';
import { FakeMounter } from './testing/fake-mounter.ts';
import { PodVolumeManager } from './volume-manager.ts';

const pod: V1Pod = {
  metadata: { name: 'web', namespace: 'ns', uid: 'uid-1' },
  spec: {
    volumes: [
      { name: 'scratch', emptyDir: {} },
      { name: 'mem', emptyDir: { medium: 'Memory', sizeLimit: '16Mi' } },
      { name: 'cfg', configMap: { name: 'app' } },
      { name: 'api', downwardAPI: { items: [{ path: 'name', fieldRef: { fieldPath: 'metadata.name' } }] } },
    ],
    containers: [{ name: 'c', image: 'i', volumeMounts: [{ name: 'cfg', mountPath: '/etc/app' }, { name: 'scratch', mountPath: '/s', subPath: 'x' }] }],
  },
};

async function setup(canMount = true) {
  const root = await mkdtemp(join(tmpdir(), 'volmgr-'));
  const objects = new FakeObjects();
  const mounter = new FakeMounter(canMount);
  const events: string[] = [];
  const clock = new FakeClock();
  const vm = new PodVolumeManager(
    { clock, logger: createLogger(() => {}), objects, tokens: new FakeTokens(), mounter, event: (_p, type, reason, message) => events.push(`${type} ${reason} ${message}`) },
    { rootDir: root },
  );
  return { root, objects, mounter, events, vm, clock };
}

test('PodVolumeManager: missing configMap → FailedMount; set up once it exists; refreshed on change; torn down', async () => {
  const { root, objects, mounter, events, vm, clock } = await setup();
  try {
    const vols = join(root, 'pods/uid-1/volumes');
    const r1 = await vm.mountPod(pod);
    assert.deepEqual(r1, {
      ok: false,
      reason: 'FailedMount',
      message: 'unable to attach or mount volumes: unmounted volumes=[cfg], unattached volumes=[], failed to process volumes=[cfg]: configmap "app" not found',
    });
    assert.deepEqual(events, ['Warning FailedMount MountVolume.SetUp failed for volume "cfg" : configmap "app" not found']);
    assert.equal((await stat(join(vols, 'kubernetes.io~empty-dir/scratch'))).mode & 0o777, 0o777);
    assert.deepEqual(mounter.calls, [`mount ${join(vols, 'kubernetes.io~empty-dir/mem')} ${16 * 2 ** 20}`, `mount ${join(vols, 'kubernetes.io~downward-api/api')}`]);
    assert.equal(await readFile(join(vols, 'kubernetes.io~downward-api/api/name'), 'utf8'), 'web');
    objects.configMaps.set('ns/app', { data: { 'app.conf': 'v1' } });
    assert.deepEqual(await vm.mountPod(pod), { ok: true });
    assert.equal(mounter.calls.length, 2, 'tmpfs mounted once');
    assert.equal(await readFile(join(vols, 'kubernetes.io~configmap/cfg/app.conf'), 'utf8'), 'v1');
    objects.configMaps.set('ns/app', { data: { 'app.conf': 'v2' } });
    await clock.step(1000);
    assert.deepEqual(await vm.mountPod(pod), { ok: true });
    assert.equal(await readFile(join(vols, 'kubernetes.io~configmap/cfg/app.conf'), 'utf8'), 'v2');
    const mounts = await vm.containerMounts(pod, pod.spec!.containers[0]!);
    assert.ok(mounts.ok);
    assert.deepEqual(
      mounts.mounts.map((m) => [m.containerPath, m.hostPath, m.readonly]),
      [
        ['/etc/app', join(vols, 'kubernetes.io~configmap/cfg'), true],
        ['/s', join(vols, 'kubernetes.io~empty-dir/scratch/x'), false],
      ],
    );
    assert.deepEqual(await vm.teardownPod('uid-1'), { ok: true });
    assert.equal(mounter.mounted.size, 0, 'tmpfs unmounted');
    assert.deepEqual(await readdir(join(root, 'pods')), []);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('PodVolumeManager: Memory medium without root is a plain directory; unsupported volumes fail the mount', async () => {
  const { root, mounter, events, vm } = await setup(false);
  try {
    const p: V1Pod = { ...pod, spec: { ...pod.spec!, volumes: [{ name: 'mem', emptyDir: { medium: 'Memory' } }, { name: 'pvc', persistentVolumeClaim: { claimName: 'c' } }] } };
    const r = await vm.mountPod(p);
    assert.equal(r.ok, false);
    assert.deepEqual(events, ['Warning FailedMount MountVolume.SetUp failed for volume "pvc" : volume type of "pvc" is not supported by nodelet']);
    assert.equal(mounter.calls.length, 0);
    assert.ok((await stat(join(root, 'pods/uid-1/volumes/kubernetes.io~empty-dir/mem'))).isDirectory());
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('PodVolumeManager: cleanupOrphans removes the dirs of pods that are gone', async () => {
  const { root, vm, mounter } = await setup();
  try {
    for (const uid of ['keep', 'gone1', 'gone2']) await mkdir(join(root, 'pods', uid, 'volumes/kubernetes.io~empty-dir/x'), { recursive: true });
    await mounter.mountTmpfs(join(root, 'pods/gone2/volumes/kubernetes.io~empty-dir/x'));
    const removed = await vm.cleanupOrphans((uid) => uid === 'keep');
    assert.deepEqual(removed.sort(), ['gone1', 'gone2']);
    assert.deepEqual(await readdir(join(root, 'pods')), ['keep']);
    assert.equal(mounter.mounted.size, 0);
    assert.deepEqual(await vm.cleanupOrphans(() => false), ['keep']);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** Every path under `dir` (dirs and files), relative. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.map(String).sort();
}

test('PodVolumeManager: a pod that skipped validation (API source) cannot make a volume outside its pod dir', async () => {
  const { root, objects, mounter, events, vm } = await setup();
  const target = await mkdtemp(join(tmpdir(), 'volmgr-escape-'));
  try {
    // Just enough ".." to reach / from <root>/pods/<uid>/volumes/kubernetes.io~<plugin>, then down to the target.
    const depth = join(root, 'pods/uid-1/volumes/kubernetes.io~empty-dir').split('/').length - 1;
    const evil = `${'../'.repeat(depth)}${relative('/', target)}/escape`;
    assert.ok(evil.length <= 60, evil);
    objects.configMaps.set('ns/app', { data: { k: 'v' } });
    const p: V1Pod = {
      metadata: { name: 'web', namespace: 'ns', uid: 'uid-1' },
      spec: {
        volumes: [
          { name: evil, emptyDir: { medium: 'Memory' } },
          { name: `${evil}-cm`, configMap: { name: 'app' } },
          { name: 'host', hostPath: { path: `${target}/../${relative('/', target)}`, type: 'DirectoryOrCreate' } },
        ],
        containers: [{ name: 'c', image: 'i', volumeMounts: [{ name: evil, mountPath: '/m' }] }],
      },
    };
    const r = await vm.mountPod(p);
    assert.equal(r.ok, false);
    const nameErr = (n: string, i: number) => `invalid volume name: spec.volumes[${i}].name: Invalid value: ${JSON.stringify(n)}: ${LABEL_MSG}`;
    const hostErr = `invalid HostPath \`${target}/../${relative('/', target)}\`: must not contain '..'`;
    assert.deepEqual(events, [
      `Warning FailedMount MountVolume.SetUp failed for volume "${evil}" : ${nameErr(evil, 0)}`,
      `Warning FailedMount MountVolume.SetUp failed for volume "${evil}-cm" : ${nameErr(`${evil}-cm`, 1)}`,
      `Warning FailedMount MountVolume.SetUp failed for volume "host" : ${hostErr}`,
    ]);
    assert.deepEqual(mounter.calls, [], 'no tmpfs mounted');
    assert.deepEqual(await tree(target), [], 'nothing made in the target');
    assert.deepEqual(await tree(root), [], 'nothing made under the root dir');
    const cm = await vm.containerMounts(p, p.spec!.containers[0]!);
    assert.deepEqual(cm, { ok: false, message: `volume "${evil}" of container "c" is refused: ${nameErr(evil, 0)}` });
  } finally {
    await rm(root, { recursive: true, force: true });
    await rm(target, { recursive: true, force: true });
  }
});

test('PodVolumeManager: an unsafe pod UID fails the mount and makes nothing', async () => {
  // "../outside" would be <root>/outside: still inside the test's temp dir if the check were missing.
  const { root, mounter, events, vm } = await setup();
  try {
    const p: V1Pod = { metadata: { name: 'web', namespace: 'ns', uid: '../outside' }, spec: { volumes: [{ name: 'scratch', emptyDir: { medium: 'Memory' } }], containers: [] } };
    const r = await vm.mountPod(p);
    assert.equal(r.ok, false);
    assert.equal(events.length, 1);
    assert.match(events[0]!, /^Warning FailedMount MountVolume\.SetUp failed for volume "scratch" : invalid pod UID: metadata\.uid: Invalid value: "\.\.\/outside": /);
    assert.deepEqual(mounter.calls, []);
    assert.deepEqual(await tree(root), []);
    assert.deepEqual(await vm.teardownPod('..'), { ok: false, message: 'invalid pod uid ".."' });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('PodVolumeManager: item paths and subPaths with ".." are refused (the kubelet messages), before any tmpfs', async () => {
  const { root, objects, mounter, events, vm } = await setup();
  try {
    objects.secrets.set('ns/s', { data: { k: Buffer.from('v').toString('base64') } });
    objects.configMaps.set('ns/app', { data: { k: 'v' } });
    const p: V1Pod = {
      metadata: { name: 'web', namespace: 'ns', uid: 'uid-1' },
      spec: {
        volumes: [
          { name: 'sec', secret: { secretName: 's', items: [{ key: 'k', path: '../x' }] } },
          { name: 'cfg', configMap: { name: 'app', items: [{ key: 'k', path: 'a/../../x' }] } },
          { name: 'scratch', emptyDir: {} },
        ],
        containers: [{ name: 'c', image: 'i', volumeMounts: [{ name: 'scratch', mountPath: '/s', subPath: '../x' }] }],
      },
    };
    assert.equal((await vm.mountPod(p)).ok, false);
    assert.deepEqual(events, [
      `Warning FailedMount MountVolume.SetUp failed for volume "sec" : invalid path: must not contain '..': ../x`,
      `Warning FailedMount MountVolume.SetUp failed for volume "cfg" : invalid path: must not contain '..': a/../../x`,
    ]);
    assert.deepEqual(mounter.calls, [], 'no tmpfs for a refused secret');
    assert.deepEqual(await tree(join(root, 'pods/uid-1/volumes')), ['kubernetes.io~empty-dir', 'kubernetes.io~empty-dir/scratch']);
    const cm = await vm.containerMounts(p, p.spec!.containers[0]!);
    assert.deepEqual(cm, { ok: false, message: "unable to provision SubPath `../x`: must not contain '..'" });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
