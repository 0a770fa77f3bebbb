/**
 * Shared by the stats integration tests (embedded runtime and containerd): a pod whose container writes
 * N MiB into its root filesystem (the writable layer) and declares an emptyDir volume, and the checks that
 * /stats/summary (containers[].rootfs, pods[].volume, ephemeral-storage) and /metrics/cadvisor
 * (container_fs_usage_bytes) report them. The agent does not mount volumes yet, so the test writes the
 * volume's M MiB on the host, into the kubelet's directory for it (<root-dir>/pods/<uid>/volumes/...).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './processes.ts';

const MiB = 1024 * 1024;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A pod writing `mib` MiB to /fill in its root filesystem, then sleeping; one emptyDir volume "scratch". */
export function fillPod(name: string, image: string, mib: number): string {
  const command = ['sh', '-c', `dd if=/dev/zero of=/fill bs=1048576 count=${mib} && sync && trap "exit 0" TERM; while :; do sleep 1; done`];
  const spec = { terminationGracePeriodSeconds: 1, volumes: [{ name: 'scratch', emptyDir: {} }], containers: [{ name: 'main', image, imagePullPolicy: 'IfNotPresent', command }] };
  return JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec });
}

export interface FsCheck {
  /** GET on the read-only port: status and body. */
  ro: (path: string) => Promise<{ status: number; body: string }>;
  /** The static pod's name as the agent reports it (<name>-<node>). */
  podName: string;
  rootDir: string;
  rootfsMiB: number;
  volumeMiB: number;
}

async function summaryPod(c: FsCheck): Promise<Json | undefined> {
  const r = await c.ro('/stats/summary');
  assert.equal(r.status, 200, r.body);
  return ((JSON.parse(r.body) as Json).pods as Json[]).find((p) => p.podRef.name === c.podName);
}

/** rootfs usedBytes ≥ N MiB in the Summary and container_fs_usage_bytes; the volume's M MiB in pods[].volume. */
export async function checkRootfsAndVolume(c: FsCheck): Promise<void> {
  const withRootfs = await eventually(async () => {
    const p = await summaryPod(c);
    const main = (p?.containers as Json[] | undefined)?.find((x) => x.name === 'main');
    return main?.rootfs?.usedBytes >= c.rootfsMiB * MiB ? p : undefined;
  }, 90_000, `rootfs usedBytes >= ${c.rootfsMiB} MiB`);
  const main = (withRootfs.containers as Json[]).find((x) => x.name === 'main') as Json;
  assert.ok(main.rootfs.capacityBytes > main.rootfs.usedBytes && main.rootfs.inodesUsed >= 1, JSON.stringify(main.rootfs));
  assert.ok(main.logs && typeof main.logs.usedBytes === 'number', 'containers[].logs');

  const line = await eventually(async () => {
    const body = (await c.ro('/metrics/cadvisor')).body;
    const l = body.split('\n').find((x) => x.startsWith('container_fs_usage_bytes{') && x.includes(`pod="${c.podName}"`) && x.includes('container="main"'));
    return l && Number(l.slice(l.lastIndexOf(' ') + 1)) >= c.rootfsMiB * MiB ? l : undefined;
  }, 60_000, `container_fs_usage_bytes >= ${c.rootfsMiB} MiB`);
  assert.match(line, /device="[^"]+"/);

  const uid = withRootfs.podRef.uid as string;
  const dir = join(c.rootDir, 'pods', uid, 'volumes', 'kubernetes.io~empty-dir', 'scratch');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'data'), Buffer.alloc(c.volumeMiB * MiB, 7));
  const p = await eventually(async () => {
    const got = await summaryPod(c);
    const v = (got?.volume as Json[] | undefined)?.find((x) => x.name === 'scratch');
    return v?.usedBytes >= c.volumeMiB * MiB ? got : undefined;
  }, 60_000, `volume scratch usedBytes >= ${c.volumeMiB} MiB`);
  const v = (p.volume as Json[]).find((x) => x.name === 'scratch') as Json;
  for (const k of ['capacityBytes', 'availableBytes', 'inodes', 'inodesFree', 'inodesUsed', 'time']) assert.ok(v[k] !== undefined, `volume.${k}`);
  assert.equal(v.pvcRef, undefined);
  assert.ok(p['ephemeral-storage'].usedBytes >= (c.rootfsMiB + c.volumeMiB) * MiB, 'ephemeral-storage = rootfs + logs + emptyDir');
}
