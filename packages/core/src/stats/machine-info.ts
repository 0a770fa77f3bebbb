/**
 * Machine info as cAdvisor's /api/v1.0/machine and the Node's nodeInfo need it: cores (/proc/cpuinfo),
 * memory (/proc/meminfo), machine-id, system UUID, boot id, kernel, OS image (os-release PRETTY_NAME),
 * network interfaces (/sys/class/net) and block-device filesystems (mountinfo + statfs).
 */
import { parseMountInfo } from '../cm/mountinfo.ts';
import { readOptional, type HostFs } from '../cm/types.ts';
import { parseMeminfo } from './parse.ts';
import type { FilesystemInfo, MachineInfo, NetworkInterfaceInfo } from './types.ts';

export interface CpuInfo {
  numCores: number;
  numPhysicalCores: number;
  numSockets: number;
  cpuFrequencyKhz: number;
}

export function parseCpuinfo(text: string): CpuInfo {
  let cores = 0;
  let mhz = 0;
  const sockets = new Set<string>();
  const physical = new Set<string>();
  let socket = '0';
  for (const line of text.split('\n')) {
    const [rawK, rawV] = line.split(':');
    const k = rawK?.trim();
    const v = rawV?.trim() ?? '';
    if (k === 'processor') cores++;
    else if (k === 'physical id') {
      socket = v;
      sockets.add(v);
    } else if (k === 'core id') physical.add(`${socket}/${v}`);
    else if (k === 'cpu MHz' && mhz === 0) mhz = Number(v);
  }
  return {
    numCores: cores,
    numPhysicalCores: physical.size || cores,
    numSockets: sockets.size || (cores > 0 ? 1 : 0),
    cpuFrequencyKhz: Math.round(mhz * 1000),
  };
}

/** PRETTY_NAME from os-release ('Debian GNU/Linux 12 (bookworm)'). */
export function parseOsRelease(text: string): string | undefined {
  const m = /^PRETTY_NAME=(.*)$/m.exec(text);
  return m ? (m[1] as string).trim().replace(/^["']|["']$/g, '') : undefined;
}

const FS_TYPES = new Set(['ext2', 'ext3', 'ext4', 'xfs', 'btrfs', 'zfs', 'overlay', 'vfat', 'f2fs']);

async function filesystems(fs: HostFs): Promise<FilesystemInfo[]> {
  const text = await readOptional(fs, '/proc/self/mountinfo');
  const seen = new Set<string>();
  const out: FilesystemInfo[] = [];
  for (const m of parseMountInfo(text ?? '')) {
    if (!FS_TYPES.has(m.fsType) || seen.has(m.source)) continue;
    seen.add(m.source);
    try {
      const s = await fs.statfs(m.mountPoint);
      out.push({ device: m.source, mountPoint: m.mountPoint, type: m.fsType, capacityBytes: s.blocks * s.bsize, inodes: s.files });
    } catch {
      // unreachable mount: leave it out
    }
  }
  return out;
}

async function interfaces(fs: HostFs): Promise<NetworkInterfaceInfo[]> {
  let names: string[] = [];
  try {
    names = (await fs.readdir('/sys/class/net')).map((e) => e.name).filter((n) => n !== 'lo');
  } catch {
    return [];
  }
  const out: NetworkInterfaceInfo[] = [];
  for (const name of names.sort()) {
    const rd = (f: string) => readOptional(fs, `/sys/class/net/${name}/${f}`);
    const speed = Number((await rd('speed'))?.trim());
    out.push({
      name,
      macAddress: (await rd('address'))?.trim() ?? '',
      mtu: Number((await rd('mtu'))?.trim() ?? 0) || 0,
      speedMbps: Number.isFinite(speed) && speed > 0 ? speed : 0,
    });
  }
  return out;
}

async function firstOf(fs: HostFs, paths: string[]): Promise<string> {
  for (const p of paths) {
    const t = await readOptional(fs, p);
    if (t !== undefined && t.trim() !== '') return t.trim();
  }
  return '';
}

export async function readMachineInfo(fs: HostFs): Promise<MachineInfo> {
  const cpu = parseCpuinfo((await readOptional(fs, '/proc/cpuinfo')) ?? '');
  const mem = parseMeminfo((await readOptional(fs, '/proc/meminfo')) ?? '');
  return {
    ...cpu,
    memoryCapacityBytes: mem.MemTotal ?? 0,
    swapCapacityBytes: mem.SwapTotal ?? 0,
    machineId: await firstOf(fs, ['/etc/machine-id', '/var/lib/dbus/machine-id']),
    systemUuid: await firstOf(fs, ['/sys/class/dmi/id/product_uuid']),
    bootId: await firstOf(fs, ['/proc/sys/kernel/random/boot_id']),
    kernelVersion: await firstOf(fs, ['/proc/sys/kernel/osrelease']),
    osImage: parseOsRelease(await firstOf(fs, ['/etc/os-release', '/usr/lib/os-release'])) ?? 'Linux',
    interfaces: await interfaces(fs),
    filesystems: await filesystems(fs),
  };
}
