/**
 * `<root-dir>/device-plugins/kubelet_internal_checkpoint` in the kubelet's JSON (devicemanager/checkpoint):
 * {"Data":{"PodDeviceEntries":[{PodUID, ContainerName, ResourceName, DeviceIDs:{"<numa>":[ids]},
 * AllocResp:<base64 protobuf ContainerAllocateResponse>}],"RegisteredDevices":{res:[ids]}},"Checksum":n}.
 * The checksum is the kubelet's: FNV-32a of the data printed as go-spew's `%#v` (hashutil.DeepHashObject,
 * sorted map keys). A corrupt or mismatching file is reported and the manager starts clean, as the kubelet.
 */
import { containerAllocateResponseCodec } from '../../../../../proto/deviceplugin/load.ts';
import type { ContainerDevices } from './types.ts';

export interface CheckpointEntry {
  PodUID: string;
  ContainerName: string;
  ResourceName: string;
  DeviceIDs: Record<string, string[]>;
  AllocResp: string;
}

export interface CheckpointFile {
  Data: { PodDeviceEntries: CheckpointEntry[] | null; RegisteredDevices: Record<string, string[]> };
  Checksum: number;
}

function fnv32a(s: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(s, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const sortNum = (a: string, b: string) => Number(a) - Number(b);
const list = (xs: readonly string[] | null | undefined) => (xs ? `[${xs.join(' ')}]` : '<nil>');
const mapOf = (m: Record<string, string[]>, cmp?: (a: string, b: string) => number) =>
  `map[${Object.keys(m).sort(cmp).map((k) => `${k}:${list(m[k])}`).join(' ')}]`;

/** go-spew `%#v` of checkpoint.checkpointData (types on struct fields, none inside slices and maps). */
export function spewCheckpointData(d: CheckpointFile['Data']): string {
  const entry = (e: CheckpointEntry) =>
    `{PodUID:(string)${e.PodUID} ContainerName:(string)${e.ContainerName} ResourceName:(string)${e.ResourceName} ` +
    `DeviceIDs:(checkpoint.DevicesPerNUMA)${mapOf(e.DeviceIDs, sortNum)} AllocResp:([]uint8)[${[...Buffer.from(e.AllocResp, 'base64')].join(' ')}]}`;
  const entries = d.PodDeviceEntries ? `[${d.PodDeviceEntries.map(entry).join(' ')}]` : '<nil>';
  return `(checkpoint.checkpointData){PodDeviceEntries:([]checkpoint.PodDevicesEntry)${entries} RegisteredDevices:(map[string][]string)${mapOf(d.RegisteredDevices)}}`;
}

export function checkpointChecksum(d: CheckpointFile['Data']): number {
  return fnv32a(spewCheckpointData(d));
}

export function encodeCheckpoint(entries: readonly ContainerDevices[], registered: Record<string, string[]>): string {
  const codec = containerAllocateResponseCodec();
  const rows: CheckpointEntry[] = entries
    .filter((e) => e.response)
    .map((e) => ({
      PodUID: e.podUid,
      ContainerName: e.containerName,
      ResourceName: e.resource,
      DeviceIDs: e.deviceIds,
      AllocResp: Buffer.from(codec.encode(e.response!)).toString('base64'),
    }));
  const data = { PodDeviceEntries: rows.length > 0 ? rows : null, RegisteredDevices: registered };
  return JSON.stringify({ Data: data, Checksum: checkpointChecksum(data) } satisfies CheckpointFile);
}

export type DecodedCheckpoint = { ok: true; entries: ContainerDevices[]; registered: Record<string, string[]> } | { ok: false; message: string };

export function decodeCheckpoint(text: string): DecodedCheckpoint {
  let cp: CheckpointFile;
  try {
    cp = JSON.parse(text) as CheckpointFile;
  } catch (err) {
    return { ok: false, message: `checkpoint is corrupted: ${(err as Error).message}` };
  }
  if (!cp || typeof cp !== 'object' || !cp.Data || typeof cp.Checksum !== 'number') return { ok: false, message: 'checkpoint is corrupted: missing Data or Checksum' };
  const data = { PodDeviceEntries: cp.Data.PodDeviceEntries ?? null, RegisteredDevices: cp.Data.RegisteredDevices ?? {} };
  if (checkpointChecksum(data) !== cp.Checksum) return { ok: false, message: 'checkpoint is corrupted' };
  const codec = containerAllocateResponseCodec();
  try {
    const entries = (data.PodDeviceEntries ?? []).map((e) => ({
      podUid: e.PodUID,
      containerName: e.ContainerName,
      resource: e.ResourceName,
      deviceIds: e.DeviceIDs ?? {},
      response: codec.decode(Buffer.from(e.AllocResp ?? '', 'base64')),
    }));
    return { ok: true, entries, registered: data.RegisteredDevices };
  } catch (err) {
    return { ok: false, message: `checkpoint is corrupted: ${(err as Error).message}` };
  }
}
