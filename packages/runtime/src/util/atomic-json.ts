import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Write JSON atomically: temp file in the same directory, then rename over the target. */
export function writeJsonAtomic(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(value, null, 1));
  renameSync(tmp, path);
}

/** Read every `*.json` file of a directory; broken files are reported, not thrown. */
export function readJsonDir<T>(dir: string, onError: (file: string, err: unknown) => void): T[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: T[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) {
      if (name.includes('.tmp-')) rmSync(join(dir, name), { force: true });
      continue;
    }
    try {
      out.push(JSON.parse(readFileSync(join(dir, name), 'utf8')) as T);
    } catch (err) {
      onError(name, err);
    }
  }
  return out;
}
