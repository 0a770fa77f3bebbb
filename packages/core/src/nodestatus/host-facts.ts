/** Machine facts for the Node object, read from this host (/proc, /sys, /etc, statfs of the root dir). */
import { readFile, readdir, statfs } from 'node:fs/promises';
import { cpus, networkInterfaces, release, totalmem } from 'node:os';
import { parseOsRelease } from '../stats/machine-info.ts';
import type { MachineFacts } from './types.ts';

async function first(paths: string[]): Promise<string> {
  for (const p of paths) {
    const t = await readFile(p, 'utf8').catch(() => '');
    if (t.trim()) return t.trim();
  }
  return '';
}

async function hugepages(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const dirs = await readdir('/sys/kernel/mm/hugepages').catch(() => [] as string[]);
  for (const d of dirs) {
    const m = /^hugepages-(\d+)kB$/.exec(d);
    if (!m) continue;
    const kb = Number(m[1]);
    const n = Number((await first([`/sys/kernel/mm/hugepages/${d}/nr_hugepages`])) || 0);
    const name = kb % (1024 * 1024) === 0 ? `hugepages-${kb / (1024 * 1024)}Gi` : kb % 1024 === 0 ? `hugepages-${kb / 1024}Mi` : `hugepages-${kb}Ki`;
    out[name] = n * kb * 1024;
  }
  return out;
}

export async function readHostFacts(rootDir: string): Promise<MachineFacts> {
  const fs = await statfs(rootDir).catch(() => undefined);
  return {
    cpuCores: cpus().length,
    memoryBytes: totalmem(),
    ephemeralStorageBytes: fs ? fs.blocks * fs.bsize : 0,
    hugepages: await hugepages(),
    machineID: await first(['/etc/machine-id', '/var/lib/dbus/machine-id']),
    systemUUID: (await first(['/sys/class/dmi/id/product_uuid'])).toLowerCase(),
    bootID: await first(['/proc/sys/kernel/random/boot_id']),
    kernelVersion: release(),
    osImage: parseOsRelease(await first(['/etc/os-release', '/usr/lib/os-release'])) ?? 'Linux',
  };
}

/** The first non-internal IPv4 address (the kubelet's default InternalIP without --node-ip). */
export function defaultNodeIP(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}
