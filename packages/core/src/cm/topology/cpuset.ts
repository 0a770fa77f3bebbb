/**
 * A set of CPU ids (k8s.io/utils/cpuset, which the kubelet's CPU and memory managers use since v1.28) with the
 * Linux list format of sysfs, cgroup `cpuset.cpus` and /proc/<pid>/status `Cpus_allowed_list`: "0-3,8".
 * Immutable: every operation returns a new set.
 */
export class CPUSet {
  private readonly elems: ReadonlySet<number>;

  private constructor(elems: Iterable<number>) {
    this.elems = new Set(elems);
  }

  /** cpuset.New(cpus...). */
  static of(...cpus: number[]): CPUSet {
    return new CPUSet(cpus);
  }

  static from(cpus: Iterable<number>): CPUSet {
    return new CPUSet(cpus);
  }

  /**
   * cpuset.Parse: "" is the empty set; each comma-separated item is "N" or "A-B" (A ≤ B). Errors read as Go's
   * (`strconv.Atoi: parsing "x": invalid syntax`, `invalid range "5-3" (5 > 3)`). Callers trim file contents.
   */
  static parse(s: string): CPUSet {
    if (s === '') return new CPUSet([]);
    const out: number[] = [];
    for (const r of s.split(',')) {
      const dash = r.indexOf('-');
      if (dash < 0) {
        out.push(atoi(r));
        continue;
      }
      const start = atoi(r.slice(0, dash));
      const end = atoi(r.slice(dash + 1));
      if (start > end) throw new Error(`invalid range "${r}" (${start} > ${end})`);
      for (let e = start; e <= end; e++) out.push(e);
    }
    return new CPUSet(out);
  }

  size(): number {
    return this.elems.size;
  }

  isEmpty(): boolean {
    return this.elems.size === 0;
  }

  contains(cpu: number): boolean {
    return this.elems.has(cpu);
  }

  equals(s: CPUSet): boolean {
    return this.size() === s.size() && this.isSubsetOf(s);
  }

  isSubsetOf(s: CPUSet): boolean {
    for (const e of this.elems) if (!s.contains(e)) return false;
    return true;
  }

  isSupersetOf(s: CPUSet): boolean {
    return s.isSubsetOf(this);
  }

  union(...sets: CPUSet[]): CPUSet {
    const out = new Set(this.elems);
    for (const s of sets) for (const e of s.elems) out.add(e);
    return new CPUSet(out);
  }

  intersection(s: CPUSet): CPUSet {
    return new CPUSet([...this.elems].filter((e) => s.contains(e)));
  }

  difference(s: CPUSet): CPUSet {
    return new CPUSet([...this.elems].filter((e) => !s.contains(e)));
  }

  filter(pred: (cpu: number) => boolean): CPUSet {
    return new CPUSet([...this.elems].filter(pred));
  }

  /** List(): ascending. */
  list(): number[] {
    return [...this.elems].sort((a, b) => a - b);
  }

  /** String(): the Linux list format, ascending, runs of two or more as "A-B" ("" when empty). */
  toString(): string {
    const ids = this.list();
    const parts: string[] = [];
    for (let i = 0; i < ids.length; ) {
      let j = i;
      while (j + 1 < ids.length && ids[j + 1] === ids[j]! + 1) j++;
      parts.push(i === j ? String(ids[i]) : `${ids[i]}-${ids[j]}`);
      i = j + 1;
    }
    return parts.join(',');
  }

  toJSON(): string {
    return this.toString();
  }
}

/** strconv.Atoi: a decimal integer with an optional sign, nothing else. */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number(s);
}
