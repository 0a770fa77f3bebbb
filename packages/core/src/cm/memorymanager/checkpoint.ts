/**
 * `<root-dir>/memory_manager_state` in the kubelet's format (memorymanager/state/checkpoint.go and
 * state_checkpoint.go v1.28): {"policyName","machineState":{"<node>":{"numberOfAssignments","memoryMap":
 * {"<type>":{"total","systemReserved","allocatable","reserved","free"}},"cells":[..]}},"entries":{"<pod uid>":
 * {"<container>":[{"numaAffinity":[..],"type","size"}]}} (left out when empty),"checksum":n}. The checksum is
 * the kubelet's: FNV-32a of go-spew's `%#v` of the *MemoryManagerCheckpoint with its Checksum field 0.
 * A file that does not parse or whose checksum does not match, or a different policy → the kubelet refuses to
 * start, naming the file.
 */
import path from 'node:path';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fnv32a } from '../../util/hash.ts';
import { InMemoryState, type Block, type ContainerMemoryAssignments, type MemoryTable, type NUMANodeMap } from './state.ts';
import { byCodeUnit } from '../../util/compare.ts';

/** memoryManagerStateFileName. */
export const MEMORY_MANAGER_STATE_FILE = 'memory_manager_state';

interface FileTable {
  total: number;
  systemReserved: number;
  allocatable: number;
  reserved: number;
  free: number;
}
interface FileNode {
  numberOfAssignments: number;
  memoryMap: Record<string, FileTable> | null;
  cells: number[] | null;
}
interface FileBlock {
  numaAffinity: number[] | null;
  type: string;
  size: number;
}
export interface CheckpointFile {
  policyName: string;
  machineState: Record<string, FileNode> | null;
  entries?: Record<string, Record<string, FileBlock[] | null> | null>;
  checksum: number;
}

const byNum = (a: string, b: string) => Number(a) - Number(b);
const ints = (xs: readonly number[] | null | undefined) => (xs ? `[${xs.join(' ')}]` : '<nil>');

function spewTable(t: FileTable): string {
  return `<*>{TotalMemSize:(uint64)${t.total} SystemReserved:(uint64)${t.systemReserved} Allocatable:(uint64)${t.allocatable} Reserved:(uint64)${t.reserved} Free:(uint64)${t.free}}`;
}

function spewNode(n: FileNode): string {
  const mm = n.memoryMap ? `map[${Object.keys(n.memoryMap).sort(byCodeUnit).map((k) => `${k}:${spewTable(n.memoryMap![k]!)}`).join(' ')}]` : '<nil>';
  return `<*>{NumberOfAssignments:(int)${n.numberOfAssignments} MemoryMap:(map[v1.ResourceName]*state.MemoryTable)${mm} Cells:([]int)${ints(n.cells)}}`;
}

function spewBlocks(blocks: readonly FileBlock[] | null): string {
  if (!blocks) return '<nil>';
  return `[${blocks.map((b) => `{NUMAAffinity:([]int)${ints(b.numaAffinity)} Type:(v1.ResourceName)${b.type} Size:(uint64)${b.size}}`).join(' ')}]`;
}

/** go-spew `%#v` of the checkpoint (pointer values in maps print as `<*>`, their types left out, as spew does). */
export function spewCheckpoint(cp: Omit<CheckpointFile, 'checksum'>, checksum = 0): string {
  const ms = cp.machineState ? `map[${Object.keys(cp.machineState).sort(byNum).map((k) => `${k}:${spewNode(cp.machineState![k]!)}`).join(' ')}]` : '<nil>';
  const e = cp.entries;
  const entries = e
    ? `map[${Object.keys(e)
        .sort(byCodeUnit)
        .map((pod) => {
          const cs = e[pod];
          const inner = cs ? `map[${Object.keys(cs).sort(byCodeUnit).map((c) => `${c}:${spewBlocks(cs[c] ?? null)}`).join(' ')}]` : '<nil>';
          return `${pod}:${inner}`;
        })
        .join(' ')}]`
    : '<nil>';
  return `(*state.MemoryManagerCheckpoint){PolicyName:(string)${cp.policyName} MachineState:(state.NUMANodeMap)${ms} Entries:(state.ContainerMemoryAssignments)${entries} Checksum:(checksum.Checksum)${checksum}}`;
}

export function checkpointChecksum(cp: Omit<CheckpointFile, 'checksum'>): number {
  return parseInt(fnv32a(spewCheckpoint(cp)), 16);
}

function toFile(policyName: string, machine: NUMANodeMap, entries: ContainerMemoryAssignments): Omit<CheckpointFile, 'checksum'> {
  const machineState: Record<string, FileNode> = {};
  for (const [id, n] of machine) {
    const memoryMap: Record<string, FileTable> = {};
    for (const [t, m] of Object.entries(n.memoryMap)) memoryMap[t] = { total: m.totalMemSize, systemReserved: m.systemReserved, allocatable: m.allocatable, reserved: m.reserved, free: m.free };
    machineState[String(id)] = { numberOfAssignments: n.numberOfAssignments, memoryMap, cells: n.cells };
  }
  const e: Record<string, Record<string, FileBlock[]>> = {};
  for (const [pod, cs] of entries) e[pod] = Object.fromEntries([...cs].map(([c, bs]) => [c, bs.map((b) => ({ numaAffinity: b.numaAffinity, type: b.type, size: b.size }))]));
  return { policyName, machineState, entries: e };
}

/** Go's json.Marshal of the checkpoint: struct fields in order, map keys sorted as strings, empty entries left out. */
export function encodeCheckpoint(policyName: string, machine: NUMANodeMap, entries: ContainerMemoryAssignments): string {
  const cp = toFile(policyName, machine, entries);
  const checksum = checkpointChecksum(cp);
  const sortKeys = <T>(o: Record<string, T>): Record<string, T> => Object.fromEntries(Object.keys(o).sort(byCodeUnit).map((k) => [k, o[k]!]));
  const ms = sortKeys(cp.machineState!);
  for (const n of Object.values(ms)) n.memoryMap = sortKeys(n.memoryMap!);
  const e = sortKeys(cp.entries!);
  for (const k of Object.keys(e)) e[k] = sortKeys(e[k]!);
  // JSON.stringify puts integer-like keys first in numeric order; Go sorts the string forms ("10" < "2").
  const body = `{"policyName":${JSON.stringify(policyName)},"machineState":{${Object.keys(ms)
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(ms[k])}`)
    .join(',')}}${Object.keys(e).length > 0 ? `,"entries":${JSON.stringify(e)}` : ''},"checksum":${checksum}}`;
  return body;
}

export type DecodedCheckpoint = { ok: true; policyName: string; machine: NUMANodeMap; entries: ContainerMemoryAssignments } | { ok: false; message: string };

export function decodeCheckpoint(text: string): DecodedCheckpoint {
  let cp: CheckpointFile;
  try {
    cp = JSON.parse(text) as CheckpointFile;
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  if (!cp || typeof cp !== 'object' || typeof cp.checksum !== 'number') return { ok: false, message: 'checkpoint is corrupted' };
  // NewMemoryManagerCheckpoint starts from empty maps, so absent machineState / entries count as empty maps.
  const data = { policyName: cp.policyName ?? '', machineState: cp.machineState ?? {}, entries: cp.entries ?? {} };
  if (checkpointChecksum(data) !== cp.checksum) return { ok: false, message: 'checkpoint is corrupted' };
  const machine: NUMANodeMap = new Map();
  for (const [id, n] of Object.entries(data.machineState)) {
    const memoryMap: Record<string, MemoryTable> = {};
    for (const [t, m] of Object.entries(n?.memoryMap ?? {})) memoryMap[t] = { totalMemSize: m.total, systemReserved: m.systemReserved, allocatable: m.allocatable, reserved: m.reserved, free: m.free };
    machine.set(Number(id), { numberOfAssignments: n?.numberOfAssignments ?? 0, memoryMap, cells: n?.cells ?? [] });
  }
  const entries: ContainerMemoryAssignments = new Map();
  for (const [pod, cs] of Object.entries(data.entries)) {
    entries.set(pod, new Map(Object.entries(cs ?? {}).map(([c, bs]) => [c, (bs ?? []).map((b): Block => ({ numaAffinity: b.numaAffinity ?? [], type: b.type, size: b.size }))])));
  }
  return { ok: true, policyName: data.policyName, machine, entries };
}

/**
 * state_checkpoint.go: the state restored from the file (written when absent), and written again on every
 * change. Throws NewCheckpointState's error, naming the file, when the file is corrupt or of another policy.
 */
export class CheckpointState extends InMemoryState {
  readonly file: string;

  constructor(
    stateDir: string,
    private readonly policyName: string,
  ) {
    super();
    this.file = path.join(stateDir, MEMORY_MANAGER_STATE_FILE);
    const err = this.restore();
    if (err) {
      throw new Error(`could not restore state from checkpoint: ${err}, please drain this node and delete the memory manager checkpoint file ${JSON.stringify(this.file)} before restarting Kubelet`);
    }
  }

  private restore(): string | undefined {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return (err as Error).message;
      this.changed();
      return undefined;
    }
    const cp = decodeCheckpoint(text);
    if (!cp.ok) return cp.message;
    if (cp.policyName !== this.policyName) return `[memorymanager] configured policy ${JSON.stringify(this.policyName)} differs from state checkpoint policy ${JSON.stringify(cp.policyName)}`;
    this.machine = cp.machine;
    this.assignments = cp.entries;
    return undefined;
  }

  /** storeState: the whole file written to a temporary name and renamed into place. */
  protected override changed(): void {
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, encodeCheckpoint(this.policyName, this.machine, this.assignments), { mode: 0o644 });
    renameSync(tmp, this.file);
  }
}
