/**
 * The bytes of the cgroup and /proc files a housekeeping sample reads, for the byte parsers (parse.ts, net-dev.ts).
 * Where the HostFs reads kernel pseudo-files synchronously into a buffer (readPseudoInto: the real one) every file goes
 * into one reused buffer and a sample's files are read and parsed in one synchronous pass: no string per file, no
 * promise per file. A HostFs without it (test fakes) is read through readFile: the parse runs, the files it asked for
 * are read as text, and it runs again over their bytes until it asks for nothing new — the same parsers either way.
 */
import type { HostFs } from '../cm/types.ts';
import { KeyTable, parseFlatKeyed, parseList, parseSingle, countLines } from './parse.ts';

/** A file's bytes, one file at a time: read(path) puts them in buf[0, n) until the next read. */
export interface FileBytes {
  /** The file's length (its bytes in `buf`), or -1 when it is absent or unreadable. */
  read(path: string): number;
  readonly buf: Buffer;
}

/** Larger than any cgroup file; /proc/<pid>/net/dev of a host with ≈ 500 interfaces. Grown when a file fills it. */
const INITIAL = 64 * 1024;
const MAX = 16 * 1024 * 1024;
let shared = Buffer.allocUnsafe(INITIAL);

/** Parses run synchronously over one buffer, so one buffer serves every reader in the process. */
function grow(min: number): void {
  let size = shared.length;
  while (size < min) size *= 2;
  if (size !== shared.length) shared = Buffer.allocUnsafe(size);
}

export class StatFiles {
  private readonly direct: FileBytes | undefined;

  constructor(private readonly fs: HostFs) {
    const into = fs.readPseudoInto?.bind(fs);
    this.direct = into && {
      read(path: string): number {
        for (;;) {
          let n: number;
          try {
            n = into(path, shared);
          } catch {
            return -1;
          }
          // A full buffer may be a file longer than it: read it again into a larger one.
          if (n < shared.length || shared.length >= MAX) return n;
          grow(shared.length * 2);
        }
      },
      get buf() {
        return shared;
      },
    };
  }

  /** Runs `parse` over the files: synchronously where the HostFs reads them so, else after reading them as text. */
  run<T>(parse: (f: FileBytes) => T): T | Promise<T> {
    return this.direct ? parse(this.direct) : this.preloaded(parse);
  }

  private async preloaded<T>(parse: (f: FileBytes) => T): Promise<T> {
    const texts = new Map<string, string | undefined>();
    let wanted: string[] = [];
    const f: FileBytes = {
      read(path) {
        if (!texts.has(path)) {
          wanted.push(path);
          return -1;
        }
        const text = texts.get(path);
        if (text === undefined) return -1;
        grow(Buffer.byteLength(text) + 1);
        return shared.write(text, 0);
      },
      get buf() {
        return shared;
      },
    };
    // Each round reads what the last one asked for (a reader asks for a cgroup's stat files once its usage file is
    // there): a few rounds at most.
    for (let round = 0; ; round++) {
      wanted = [];
      const out = parse(f);
      if (wanted.length === 0 || round >= 8) return out;
      await Promise.all(
        wanted.map(async (p) => {
          try {
            texts.set(p, await this.fs.readFile(p));
          } catch {
            texts.set(p, undefined);
          }
        }),
      );
    }
  }
}

/** A single-number file ('max' → -1); undefined when absent, blank or garbage. */
export function readSingle(f: FileBytes, path: string): number | undefined {
  const n = f.read(path);
  return n < 0 ? undefined : parseSingle(f.buf, n);
}

/** A flat "key value" file into `t`; undefined when absent. */
export function readFlat<K extends string>(f: FileBytes, path: string, t: KeyTable<K>): KeyTable<K> | undefined {
  const n = f.read(path);
  return n < 0 ? undefined : parseFlatKeyed(f.buf, n, t);
}

/** A list of integers (cpuacct.usage_percpu); undefined when absent or malformed. */
export function readList(f: FileBytes, path: string): number[] | undefined {
  const n = f.read(path);
  return n < 0 ? undefined : parseList(f.buf, n);
}

/** Non-blank lines of a file (cgroup.procs, tasks); undefined when absent. */
export function readLineCount(f: FileBytes, path: string): number | undefined {
  const n = f.read(path);
  return n < 0 ? undefined : countLines(f.buf, n);
}
