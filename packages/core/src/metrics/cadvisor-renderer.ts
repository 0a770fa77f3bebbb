/**
 * /metrics/cadvisor's page written at scrape time (CadvisorRenderer): each container's lines kept as bytes, one
 * buffer per container holding every metric's lines, and the page copied together from them. The series, their
 * order and format are cadvisor-collector.ts's (CONTAINER_METRICS, machineBlocks).
 */
import { constants, gzipSync } from 'node:zlib';
import type { ContainerSample } from '../stats/types.ts';
import { CONTAINER_METRICS, escapeLabel, header, labelText, machineBlocks, type SeriesSink } from './cadvisor-collector.ts';
import type { CadvisorContainerInfo, CadvisorSource } from './types.ts';

const METRICS = CONTAINER_METRICS.length;
/** Each metric's `# HELP` and `# TYPE` lines, as bytes. */
const HEADERS = CONTAINER_METRICS.map((m) => Buffer.from(header(m.name, m.help, m.type)));
const NEWLINE = 10;

/** Writes a container's lines, every metric's after the other, each line preceded by '\n'. */
class LineWriter implements SeriesSink {
  text = '';
  /** '\n<metric name>{<container labels>' */
  head = '';
  extra: readonly string[] = [];

  add(v: number | undefined, a?: string, b?: string): void {
    if (v === undefined || !Number.isFinite(v)) return;
    let l = this.head;
    if (a !== undefined) l += `,${this.extra[0]}="${escapeLabel(a)}"`;
    if (b !== undefined) l += `,${this.extra[1]}="${escapeLabel(b)}"`;
    this.text += `${l}} ${v}`;
  }
}

/**
 * A container's series as bytes: metric j's lines (CONTAINER_METRICS order, each preceded by '\n') are
 * `bytes[ends[j]..ends[j + 1]]`. One buffer and one offsets array per container, not a string per metric: the
 * kept lines of 220 containers were ≈ 9 000 strings that every young-generation collection copied, and the first
 * render spent about half of its time collecting them (docs/performance.md).
 */
interface ContainerLines {
  id: string;
  sample: ContainerSample;
  described: string;
  bytes: Buffer;
  ends: Uint32Array;
}

function containerLines(c: CadvisorContainerInfo, described: string, w: LineWriter): ContainerLines {
  const labels = labelText(c);
  const sample = c.sample as ContainerSample;
  const ends = new Uint32Array(METRICS + 1);
  w.text = '';
  for (let j = 0; j < METRICS; j++) {
    const m = CONTAINER_METRICS[j] as (typeof CONTAINER_METRICS)[number];
    w.head = `\n${m.name}${labels}`;
    w.extra = m.extra ?? [];
    m.series(c, sample, w);
    ends[j + 1] = w.text.length;
  }
  const text = w.text;
  w.text = '';
  const bytes = Buffer.from(text);
  // Offsets count characters; where a label holds a character of more than one byte they are counted again in bytes.
  if (bytes.length !== text.length) {
    let at = 0;
    for (let j = 0; j < METRICS; j++) {
      const size = Buffer.byteLength(text.slice(ends[j], ends[j + 1]));
      ends[j] = at;
      at += size;
    }
    ends[METRICS] = at;
  }
  return { id: c.id, sample, described, bytes, ends };
}

/** Everything of a container its lines show besides its sample (compared by identity). */
const describe = (c: CadvisorContainerInfo): string => JSON.stringify([c.id, c.name, c.image, c.pod, c.namespace, c.container, c.spec, c.fs]);

/** Whether metric j's lines differ between two renders of a container. */
function differs(a: ContainerLines, b: ContainerLines, j: number): boolean {
  const as = a.ends[j] as number, ae = a.ends[j + 1] as number;
  const bs = b.ends[j] as number, be = b.ends[j + 1] as number;
  return ae - as !== be - bs || a.bytes.compare(b.bytes, bs, be, as, ae) !== 0;
}

/** A rendered page: its bytes, and gzip() the same bytes gzipped (one gzip member). */
export interface RenderedPage {
  bytes: Buffer;
  gzip(): Promise<Buffer>;
}

/**
 * The page gzipped in one call at zlib's fastest level (the kubelet's promhttp uses gzip's default; at 110 pods
 * level 1 deflates the 1.9 MB page in half the CPU for ≈ 20 % more bytes), on the calling thread: one zlib state for
 * the page. Deflating each block on its own cost a fresh zlib state per block (≈ 45 at 110 pods), each allocated
 * and given back to the system again: 35–80 ms of CPU against 4–8 ms for the page (docs/performance.md).
 */
const gzipPage = (bytes: Buffer): Buffer => gzipSync(bytes, { level: constants.Z_BEST_SPEED });

function renderedPage(bytes: Buffer): RenderedPage {
  let gzipped: Buffer | undefined;
  return { bytes, gzip: async () => (gzipped ??= gzipPage(bytes)) };
}

/**
 * /metrics/cadvisor at scrape time, written straight as text (through prom-client's labelled collectors a scrape
 * hashed and stored every series again: ≈ 0.7 s at 110 pods). Same series, label order and format as prom-client; a
 * container without a sample exports nothing. A renderer keeps each container's lines (as bytes) from its last
 * render and writes them again only for a container whose sample (a new object per housekeeping sample), labels,
 * spec or filesystem rows changed — the samples land one container at a time — and keeps each metric's block
 * while no container's lines of that metric changed. The page is one buffer of its size: kept blocks copied from the
 * last page, changed ones copied together from the containers' bytes.
 */
export class CadvisorRenderer {
  private kept = new Map<string, ContainerLines>();
  private order: ContainerLines[] = [];
  /** The last page, and each block of it (a view). */
  private page: Buffer | undefined;
  private blocks: Buffer[] = [];
  private tail = '';
  private readonly writer = new LineWriter();

  renderPage(source: CadvisorSource): RenderedPage {
    const seen = new Set<string>();
    const next = new Map<string, ContainerLines>();
    for (const c of source.containers()) {
      if (!c.sample || seen.has(c.id)) continue;
      seen.add(c.id);
      const described = describe(c);
      const old = this.kept.get(c.id);
      next.set(c.id, old && old.sample === c.sample && old.described === described ? old : containerLines(c, described, this.writer));
    }
    const per = [...next.values()];
    const dirty = this.changedMetrics(per);
    this.kept = next;
    this.order = per;
    const tail = `${machineBlocks(source).join('\n\n')}\n`;
    const tailChanged = tail !== this.tail || !this.blocks[METRICS];
    this.tail = tail;
    // Metric j's block is written afresh when it changed or there is none yet; otherwise copied from the last page.
    const fresh = dirty.map((d, j) => d || !this.blocks[j]);
    if (this.page && !tailChanged && !fresh.includes(true)) return renderedPage(this.page);
    // A fresh block: its HELP and TYPE, each container's lines of it, and the blank line after it.
    const sizes = fresh.map((f, j) => {
      if (!f) return (this.blocks[j] as Buffer).length;
      let size = (HEADERS[j] as Buffer).length + 2;
      for (const p of per) size += (p.ends[j + 1] as number) - (p.ends[j] as number);
      return size;
    });
    sizes.push(tailChanged ? Buffer.byteLength(tail) : (this.blocks[METRICS] as Buffer).length);
    const page = Buffer.allocUnsafe(sizes.reduce((a, b) => a + b, 0));
    let at = 0;
    const blocks = new Array<Buffer>(METRICS + 1);
    for (let j = 0; j < METRICS; j++) {
      const start = at;
      if (!fresh[j]) at += (this.blocks[j] as Buffer).copy(page, at);
      else {
        at += (HEADERS[j] as Buffer).copy(page, at);
        for (const p of per) {
          const from = p.ends[j] as number, size = (p.ends[j + 1] as number) - from;
          // TypedArray#set of a view: Buffer#copy's argument checks in JavaScript cost more than the bytes (≈ 9 000 per page).
          page.set(new Uint8Array(p.bytes.buffer, p.bytes.byteOffset + from, size), at);
          at += size;
        }
        page[at++] = NEWLINE;
        page[at++] = NEWLINE;
      }
      blocks[j] = page.subarray(start, at);
    }
    const start = at;
    at += tailChanged ? page.write(tail, at) : (this.blocks[METRICS] as Buffer).copy(page, at);
    blocks[METRICS] = page.subarray(start, at);
    this.blocks = blocks;
    this.page = page;
    return renderedPage(page);
  }

  render(source: CadvisorSource): string {
    return this.renderPage(source).bytes.toString();
  }

  /** Which metrics' blocks differ from the last render's: all when the containers changed, else per rewritten container. */
  private changedMetrics(per: ContainerLines[]): boolean[] {
    const dirty = new Array<boolean>(METRICS).fill(false);
    const same = per.length === this.order.length && per.every((p, i) => (this.order[i] as ContainerLines).id === p.id);
    if (!same) return dirty.fill(true);
    per.forEach((p, i) => {
      const o = this.order[i] as ContainerLines;
      if (o !== p) for (let j = 0; j < METRICS; j++) dirty[j] ||= differs(p, o, j);
    });
    return dirty;
  }
}

/** One render with nothing kept (tests, one-off pages). */
export function renderCadvisorMetrics(source: CadvisorSource): string {
  return new CadvisorRenderer().render(source);
}
