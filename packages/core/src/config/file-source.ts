/**
 * The static pod manifest source (staticPodPath / --pod-manifest-path): a directory (or one file) of pod
 * manifests, one pod per *.yaml/*.yml/*.json file, hidden files ignored. Watched (fs.watch) and rescanned every
 * fileCheckFrequency (20 s). Each file is read, decoded and validated on its own: a broken file yields no pod
 * and one onError report (until it changes) while every other file keeps syncing; two manifests with the same
 * namespace/name → the later file (by name) is refused. As the kubelet (pkg/kubelet/config/file.go), entries
 * are stat'ed through symlinks: a link to a manifest is read, a dangling link, a directory (or a link to one)
 * or a special file is skipped with a log line.
 * When it scans (start, timer, watch events) and its watch: manifest-scan-loop.ts (ManifestScanLoop, which
 * FileSource extends).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { basename, extname, join } from 'node:path';
import { canonicalJson, md5Hex } from '../util/hash.ts';
import { sameItems } from '../util/same-items.ts';
import { podNamespacedName } from '../api/pod-helpers.ts';
import { decodeSinglePod, type DecodeResult } from './decode.ts';
import type { ManifestFs } from './manifest-fs.ts';
import { ManifestScanLoop } from './manifest-scan-loop.ts';
import type { PodSource } from './types.ts';

const MANIFEST_EXT = new Set(['.yaml', '.yml', '.json']);
const STAT_BATCH = 256;

interface Decoded {
  file: string;
  pod: V1Pod;
  /** namespace/name */
  full: string;
}

export class FileSource extends ManifestScanLoop implements PodSource {
  readonly name = 'file' as const;
  private lastEmitted: string | undefined;
  /** The pods behind lastEmitted: decoded manifests are cached by file version, so the same objects = the same pods. */
  private emittedPods: V1Pod[] | undefined;
  /** Per file: the stat version and a hash of the content last decoded, and its result. */
  private readonly parsed = new Map<string, { version?: string; hash: string; result: DecodeResult }>();
  /** Stat versions of this scan's files. */
  private versions = new Map<string, string | undefined>();
  private readonly reported = new Map<string, string>();
  /** Directory entries skipped at the last scan (dangling links, directories...), logged once each. */
  private skipped = new Map<string, string>();
  private owners = new Map<string, string>();

  protected async scan(): Promise<void> {
    const path = this.config.path;
    const st = await this.fs.stat(path);
    let files: string[] = [];
    if (!st) {
      this.closeWatcher();
      this.report(path, 'path does not exist, ignoring');
    } else {
      this.versions = new Map();
      if (!st.isDirectory && !st.isFile) this.report(path, 'path is not a directory or file');
      else this.clearReport(path);
      if (st.isDirectory) files = await this.listDir(path);
      if (st.isFile) {
        files = [path];
        this.versions.set(path, st.version);
      }
      this.ensureWatcher();
    }
    const pods = await this.collect(files);
    // Every rescan (20 s) and watch event: no canonical JSON of every pod when each is the object emitted last time.
    const prev = this.emittedPods;
    if (prev && sameItems(prev, pods)) return;
    const key = canonicalJson(pods);
    if (!this.started) return;
    this.emittedPods = pods;
    if (key === this.lastEmitted) return;
    this.lastEmitted = key;
    this.deps.onUpdate({ op: 'SET', pods, source: 'file' });
  }

  /** The manifest files of `dir`, sorted, each stat'ed through symlinks; what cannot be read is logged. */
  private async listDir(dir: string): Promise<string[]> {
    const names = (await this.fs.readdir(dir))
      .map((e) => e.name)
      .filter((n) => !n.startsWith('.') && MANIFEST_EXT.has(extname(n).toLowerCase()))
      .sort();
    const files: string[] = [];
    const skipped = new Map<string, string>();
    for (const [i, name] of names.entries()) {
      // A cluttered directory (thousands of entries) is stat'ed in batches: the event loop runs between them.
      if (i > 0 && i % STAT_BATCH === 0) await new Promise((r) => setImmediate(r));
      const file = join(dir, name);
      let st: Awaited<ReturnType<ManifestFs['stat']>>;
      try {
        st = await this.fs.stat(file);
      } catch (err) {
        skipped.set(file, `Could not get metadata: ${(err as Error)?.message ?? String(err)}`);
        continue;
      }
      if (!st) skipped.set(file, 'Could not get metadata: no such file or directory (dangling symlink?)');
      else if (st.isDirectory) skipped.set(file, 'Provided manifest path is a directory, not recursing into manifest path');
      else if (!st.isFile) skipped.set(file, 'Manifest path is not a directory or file');
      else {
        files.push(file);
        this.versions.set(file, st.version);
      }
    }
    for (const [file, message] of skipped) {
      if (this.skipped.get(file) !== message) this.deps.logger?.warn(message, { path: file });
    }
    this.skipped = skipped;
    return files;
  }

  /**
   * Decodes every file; for a duplicated namespace/name, or a duplicated metadata.uid, the file that owned it
   * in the previous scan keeps it (the running pod is not disturbed), otherwise the first file by name wins.
   */
  private async collect(files: string[]): Promise<V1Pod[]> {
    const decoded: Decoded[] = [];
    for (const f of files) {
      const r = await this.decode(f);
      if (!r) continue;
      if (!r.ok) this.report(f, r.message);
      else decoded.push({ file: f, pod: r.pods[0] as V1Pod, full: podNamespacedName(r.pods[0] as V1Pod) });
    }
    // A name, and a UID (a manifest may set its own; it names the pod's directories), belong to one file.
    const byName = this.claim(decoded, (d) => `name:${d.full}`);
    const named = decoded.filter((d) => this.keep(d, byName.get(`name:${d.full}`) as string, 'duplicates the pod'));
    const byUid = this.claim(named, (d) => `uid:${d.pod.metadata?.uid}`);
    const pods: V1Pod[] = [];
    for (const d of named) {
      if (!this.keep(d, byUid.get(`uid:${d.pod.metadata?.uid}`) as string, 'has the metadata.uid of the pod')) continue;
      this.clearReport(d.file);
      pods.push(d.pod);
    }
    this.owners = new Map([...byName, ...byUid]);
    const present = new Set(files);
    for (const f of [...this.parsed.keys()]) if (!present.has(f)) this.parsed.delete(f);
    for (const f of [...this.reported.keys()]) if (f !== this.config.path && !present.has(f)) this.reported.delete(f);
    return pods;
  }

  /** Who owns each key: the file that owned it at the previous scan keeps it, else the first file by name. */
  private claim(decoded: Decoded[], key: (d: Decoded) => string): Map<string, string> {
    const owners = new Map<string, string>();
    for (const d of decoded) if (this.owners.get(key(d)) === d.file) owners.set(key(d), d.file);
    for (const d of decoded) if (!owners.has(key(d))) owners.set(key(d), d.file);
    return owners;
  }

  /** True when d's file is the owner; otherwise the file is reported (Warning event on the pod). */
  private keep(d: Decoded, owner: string, what: string): boolean {
    if (owner === d.file) return true;
    this.report(d.file, `pod ${d.full} from file ${basename(d.file)} ${what} from file ${basename(owner)}`, d.pod);
    return false;
  }

  /** Reads and decodes one file; undefined when it vanished. Never throws: any failure is this file's error. */
  private async decode(file: string): Promise<DecodeResult | undefined> {
    const version = this.versions.get(file);
    const prev = this.parsed.get(file);
    if (version !== undefined && prev?.version === version) return prev.result;
    let content: string;
    try {
      content = await this.fs.readFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code === 'ENOENT') return undefined; // removed between readdir and read
      return { ok: false, message: `could not read manifest file: ${(err as Error)?.message ?? String(err)}` };
    }
    const hash = md5Hex(content);
    if (prev && prev.hash === hash) {
      prev.version = version;
      return prev.result;
    }
    let result: DecodeResult;
    try {
      result = decodeSinglePod(content, { kind: 'file', id: file, nodeName: this.config.nodeName });
    } catch (err) {
      result = { ok: false, message: `could not decode manifest file: ${(err as Error)?.message ?? String(err)}` };
    }
    this.parsed.set(file, { version, hash, result });
    return result;
  }

  private report(file: string, message: string, pod?: V1Pod): void {
    if (this.reported.get(file) === message) return;
    this.reported.set(file, message);
    this.deps.logger?.warn('could not process manifest file', { path: file, error: message });
    const err = { source: 'file' as const, file, message };
    try {
      this.deps.onError?.(pod ? { ...err, pod: { namespace: pod.metadata?.namespace ?? 'default', name: pod.metadata?.name ?? '' } } : err);
    } catch (e) {
      this.deps.logger?.error('source error listener threw', { path: file, error: String(e) });
    }
  }

  private clearReport(file: string): void {
    this.reported.delete(file);
  }
}
