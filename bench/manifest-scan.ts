// bench/manifest-scan: the static pod source's cost per scan of a manifest directory cluttered with files that are
// not pods (bad input from #14: a directory of 5 000 non-pod files must keep the scan cost bounded). Scans the
// directory SCANS (20) times with the real file system (as the periodic rescan and every inotify event do) and
// prints the agent-side CPU per scan (process CPU time, holds up under load) and the wall time, with the load.
// Kinds: files with other extensions (skipped by name), *.json that are not pods (stat'ed each scan, read and
// decoded once), and the same with PODS (110) pods beside.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSource } from '@nodelet/core/config';
import { realClock } from '@nodelet/core/util';
import { benchPodManifest } from './runtimes.ts';
import { percentile, table } from './stats.ts';

const FILES = Number(process.env.FILES ?? 5000);
const SCANS = Number(process.env.SCANS ?? 20);
const PODS = Number(process.env.PODS ?? 110);

async function scanCost(kind: string, fill: (dir: string) => void): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-bench-scan-'));
  try {
    fill(dir);
    let pods = 0;
    const src = new FileSource({ clock: realClock, onUpdate: (u) => (pods = u.pods.length) }, { path: dir, nodeName: 'bench', fileCheckFrequencyMs: 3_600_000 });
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await src.start();
    const first = [(process.cpuUsage(c0).user + process.cpuUsage(c0).system) / 1000, performance.now() - t0];
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < SCANS; i++) {
      const c = process.cpuUsage();
      const t = performance.now();
      await src.trigger();
      const d = process.cpuUsage(c);
      cpu.push((d.user + d.system) / 1000);
      wall.push(performance.now() - t);
    }
    await src.stop();
    return [kind, String(pods), `${first[0]?.toFixed(0)} / ${first[1]?.toFixed(0)} ms`, `${percentile(cpu, 50).toFixed(1)} ms`, `${percentile(cpu, 99).toFixed(1)} ms`, `${percentile(wall, 50).toFixed(1)} ms`, loadavg()[0]?.toFixed(2) ?? ''];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const notPod = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } });
const rows = [
  await scanCost('empty directory', () => {}),
  await scanCost(`${FILES} *.txt`, (d) => {
    for (let i = 0; i < FILES; i++) writeFileSync(join(d, `n${i}.txt`), 'not a pod');
  }),
  await scanCost(`${FILES} *.json, not pods`, (d) => {
    for (let i = 0; i < FILES; i++) writeFileSync(join(d, `n${i}.json`), notPod);
  }),
  await scanCost(`${PODS} pods`, (d) => {
    for (let i = 0; i < PODS; i++) writeFileSync(join(d, `p${i}.json`), benchPodManifest(`p${i}`, 'busybox', 1));
  }),
  await scanCost(`${PODS} pods + ${FILES} *.json, not pods`, (d) => {
    for (let i = 0; i < PODS; i++) writeFileSync(join(d, `p${i}.json`), benchPodManifest(`p${i}`, 'busybox', 1));
    for (let i = 0; i < FILES; i++) writeFileSync(join(d, `n${i}.json`), notPod);
  }),
];
console.log(`\nstatic pod source: CPU per scan of the manifest directory (${SCANS} scans after the first; the real fs)`);
console.log(table(['directory', 'pods', 'first scan CPU / wall', 'rescan CPU p50', 'rescan CPU p99', 'rescan wall p50', 'load 1m'], rows));
