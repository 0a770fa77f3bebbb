/**
 * `reservedMemory` (KubeletConfiguration MemoryReservation list, flag --reserved-memory) checked and converted as
 * memory_manager.go v1.28 getSystemReservedMemory: every NUMA node named must exist, and per memory type the
 * sum over nodes must equal the Node Allocatable reservation (kubeReserved + systemReserved + evictionHard).
 */
import { tryParseQuantity } from '../../util/quantity.ts';
import { isMemoryResource } from './state.ts';

/** One entry of `reservedMemory`: {numaNode: 0, limits: {memory: 1Gi}}. */
export interface MemoryReservation {
  numaNode: number;
  limits: Record<string, string | number>;
}

/** NUMA node → memory type → bytes. */
export type SystemReservedMemory = Map<number, Map<string, number>>;

/** A byte count as resource.Quantity String() prints it: binary suffixes when exact, decimal ones else. */
export function formatQuantity(bytes: number): string {
  if (bytes === 0) return '0';
  const bin: Array<[string, number]> = [['Ei', 2 ** 60], ['Pi', 2 ** 50], ['Ti', 2 ** 40], ['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]];
  for (const [s, f] of bin) if (bytes % f === 0) return `${bytes / f}${s}`;
  const dec: Array<[string, number]> = [['E', 1e18], ['P', 1e15], ['T', 1e12], ['G', 1e9], ['M', 1e6], ['k', 1e3]];
  for (const [s, f] of dec) if (bytes % f === 0) return `${bytes / f}${s}`;
  return String(bytes);
}

function bytesOf(q: string | number, what: string): number {
  const p = tryParseQuantity(q);
  if (!p.ok || !Number.isFinite(p.value) || p.value < 0 || !Number.isInteger(p.value)) throw new Error(`could not covert a variable of type Quantity to int64 (${what}=${String(q)})`);
  return p.value;
}

/**
 * getSystemReservedMemory: `reservation` is the Node Allocatable reservation per resource in bytes (memory and
 * hugepages-* only matter). Throws the kubelet's errors.
 */
export function systemReservedMemory(numaNodes: readonly number[], reservation: Readonly<Record<string, number>>, reservedMemory: readonly MemoryReservation[]): SystemReservedMemory {
  const known = new Set(numaNodes);
  const totals = new Map<string, number>();
  for (const r of reservedMemory) {
    if (!known.has(r.numaNode)) throw new Error(`the reserved memory configuration references a NUMA node ${r.numaNode} that does not exist on this machine`);
    for (const [name, q] of Object.entries(r.limits)) totals.set(name, (totals.get(name) ?? 0) + bytesOf(q, name));
  }
  const types = new Set([...totals.keys(), ...Object.keys(reservation).filter((k) => isMemoryResource(k) && reservation[k] !== 0)]);
  for (const t of [...types].sort()) {
    const allocatable = reservation[t] ?? 0;
    const reserved = totals.get(t) ?? 0;
    if (allocatable !== reserved) {
      throw new Error(`the total amount ${JSON.stringify(formatQuantity(reserved))} of type ${JSON.stringify(t)} is not equal to the value ${JSON.stringify(formatQuantity(allocatable))} determined by Node Allocatable feature`);
    }
  }
  const out: SystemReservedMemory = new Map(numaNodes.map((n) => [n, new Map()]));
  for (const r of reservedMemory) for (const [name, q] of Object.entries(r.limits)) out.get(r.numaNode)!.set(name, bytesOf(q, name));
  return out;
}

/**
 * The --reserved-memory flag as the kubelet's ReservedMemoryVar: `0:memory=1Gi,hugepages-1Gi=2Gi;1:memory=2Gi`
 * (NUMA node entries split by `;`), with its error texts.
 */
export function parseReservedMemoryFlag(value: string): MemoryReservation[] {
  const out: MemoryReservation[] = [];
  for (const reservation of value.split(';')) {
    const parts = reservation.split(':');
    if (parts.length !== 2) throw new Error(`the reserved memory has incorrect format, expected numaNodeID:type=quantity[,type=quantity...], got ${reservation}`);
    const node = /^[+-]?\d+$/.test(parts[0]!) ? Number(parts[0]) : NaN;
    if (!Number.isInteger(node)) throw new Error(`failed to convert the NUMA node ID, exptected integer, got ${parts[0]}`);
    const limits: Record<string, string> = {};
    for (const kv of parts[1]!.split(',')) {
      const limit = kv.split('=');
      if (limit.length !== 2) throw new Error(`the reserved limit has incorrect value, expected type=quantatity, got ${kv}`);
      const [name, q] = limit as [string, string];
      if (!isMemoryResource(name)) throw new Error(`memory type conversion error, unknown type: ${JSON.stringify(name)}`);
      if (!tryParseQuantity(q).ok) throw new Error(`failed to parse the quatity, expected quatity, got ${q}`);
      limits[name] = q;
    }
    out.push({ numaNode: node, limits });
  }
  return out;
}
