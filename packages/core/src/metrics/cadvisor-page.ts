/**
 * /metrics/cadvisor's page, rendered on the first scrape after its data changed and kept until the next change:
 * its bytes, the text when asked and (for clients that accept gzip, as Prometheus does) the gzipped bytes. Nothing is
 * rendered while nobody scrapes. The key is a generation number that changes with the data (the stats
 * provider's: a new sample, a container tracked, dropped or relabelled, new filesystem figures), so a scrape
 * never gets an older page than the data; scrapes of one generation share its render and its one gzip.
 */
import { gzip } from 'node:zlib';
import type { RenderedPage } from './cadvisor-renderer.ts';

export interface CadvisorPageDeps {
  /** Changes whenever anything the page shows changes. */
  generation: () => number;
  /** The page for the current data (CadvisorRenderer.renderPage; gzip() optional). */
  render: () => Pick<RenderedPage, 'bytes'> & Partial<Pick<RenderedPage, 'gzip'>>;
  /** Compresses a page without gzip() of its own (default gzipAsync). */
  gzip?: (bytes: Buffer) => Promise<Buffer>;
}

const gzipAsync = (bytes: Buffer): Promise<Buffer> => new Promise((resolve, reject) => gzip(bytes, (err, out) => (err ? reject(err) : resolve(out))));

interface Entry {
  generation: number;
  page: Pick<RenderedPage, 'bytes'> & Partial<Pick<RenderedPage, 'gzip'>>;
  text?: string;
  gzipped?: Promise<Buffer>;
}

export class CadvisorPageCache {
  private entry: Entry | undefined;

  constructor(private readonly deps: CadvisorPageDeps) {}

  /** The page as text (rendered only when the generation moved since the last render). */
  text(): string {
    const e = this.current();
    e.text ??= e.page.bytes.toString();
    return e.text;
  }

  /** The page's bytes, gzipped when `gzip` (the client accepts it). */
  async body(opts: { gzip: boolean }): Promise<{ body: Buffer; contentEncoding?: 'gzip' }> {
    const e = this.current();
    if (!opts.gzip) return { body: e.page.bytes };
    if (!e.gzipped) {
      const p = e.page.gzip ? e.page.gzip() : (this.deps.gzip ?? gzipAsync)(e.page.bytes);
      e.gzipped = p;
      p.catch(() => {
        if (e.gzipped === p) e.gzipped = undefined; // the next scrape tries again
      });
    }
    return { body: await e.gzipped, contentEncoding: 'gzip' };
  }

  private current(): Entry {
    const generation = this.deps.generation();
    if (this.entry?.generation !== generation) this.entry = { generation, page: this.deps.render() };
    return this.entry;
  }
}
