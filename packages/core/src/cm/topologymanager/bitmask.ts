/**
 * A set of NUMA node ids as a 64-bit mask (kubelet pkg/kubelet/cm/topologymanager/bitmask/bitmask.go).
 * Immutable: every operation returns a new mask. Bits 0–63; others are refused with bitmask.go's error.
 */
const RANGE_ERROR = 'bit number must be in range 0-63';
const ALL = (1n << 64n) - 1n;

function bitOf(i: number): bigint {
  if (!Number.isInteger(i) || i < 0 || i >= 64) throw new RangeError(RANGE_ERROR);
  return 1n << BigInt(i);
}

export class BitMask {
  private constructor(private readonly v: bigint) {}

  /** NewBitMask(bits...): throws a RangeError for a bit outside 0–63. */
  static of(...bits: number[]): BitMask {
    return new BitMask(bits.reduce((m, i) => m | bitOf(i), 0n));
  }

  /** NewEmptyBitMask. */
  static empty(): BitMask {
    return new BitMask(0n);
  }

  /** Fill(): all 64 bits set. */
  static full(): BitMask {
    return new BitMask(ALL);
  }

  add(...bits: number[]): BitMask {
    return new BitMask(bits.reduce((m, i) => m | bitOf(i), this.v));
  }

  remove(...bits: number[]): BitMask {
    return new BitMask(bits.reduce((m, i) => m & ~bitOf(i), this.v) & ALL);
  }

  and(...masks: BitMask[]): BitMask {
    return new BitMask(masks.reduce((m, o) => m & o.v, this.v));
  }

  or(...masks: BitMask[]): BitMask {
    return new BitMask(masks.reduce((m, o) => m | o.v, this.v));
  }

  isEmpty(): boolean {
    return this.v === 0n;
  }

  isSet(bit: number): boolean {
    if (!Number.isInteger(bit) || bit < 0 || bit >= 64) return false;
    return (this.v & (1n << BigInt(bit))) !== 0n;
  }

  anySet(bits: readonly number[]): boolean {
    return bits.some((b) => this.isSet(b));
  }

  isEqual(mask: BitMask): boolean {
    return this.v === mask.v;
  }

  /** Fewer bits set; with as many, the one with more lower-numbered bits set (the smaller value). */
  isNarrowerThan(mask: BitMask): boolean {
    const a = this.count();
    const b = mask.count();
    return a === b ? this.isLessThan(mask) : a < b;
  }

  isLessThan(mask: BitMask): boolean {
    return this.v < mask.v;
  }

  isGreaterThan(mask: BitMask): boolean {
    return this.v > mask.v;
  }

  count(): number {
    let n = 0;
    for (let v = this.v; v !== 0n; v &= v - 1n) n++;
    return n;
  }

  /** GetBits: the set bit numbers, ascending. */
  getBits(): number[] {
    const out: number[] = [];
    for (let i = 0; i < 64; i++) if (this.isSet(i)) out.push(i);
    return out;
  }

  /** The mask as bitmask.go's String(): binary, zero-padded to a width that is a multiple of 2 (at least 2). */
  toString(): string {
    const grouping = 2;
    for (let shift = 64 - grouping; shift > 0; shift -= grouping) {
      if (this.v > 1n << BigInt(shift)) return this.v.toString(2).padStart(shift + grouping, '0');
    }
    return this.v.toString(2).padStart(grouping, '0');
  }

  /** JSON and logs show the mask as String() does. */
  toJSON(): string {
    return this.toString();
  }
}

/** bitmask.And(first, masks...). */
export function and(first: BitMask, ...masks: BitMask[]): BitMask {
  return first.and(...masks);
}

/** bitmask.Or(first, masks...). */
export function or(first: BitMask, ...masks: BitMask[]): BitMask {
  return first.or(...masks);
}

/**
 * IterateBitMasks: every non-empty subset of `bits` as a mask, by size first (all 1-bit masks, then 2-bit,
 * ...), each size in the combinations' lexicographic order of `bits`.
 */
export function iterateBitMasks(bits: readonly number[], callback: (mask: BitMask) => void): void {
  const iterate = (rest: readonly number[], accum: number[], size: number): void => {
    if (accum.length === size) {
      callback(BitMask.of(...accum));
      return;
    }
    for (let i = 0; i < rest.length; i++) iterate(rest.slice(i + 1), [...accum, rest[i]!], size);
  };
  for (let size = 1; size <= bits.length; size++) iterate(bits, [], size);
}
