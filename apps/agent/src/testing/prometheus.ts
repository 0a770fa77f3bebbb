/** A real Prometheus (Debian's /usr/bin/prometheus) scraping given targets, for integration tests. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, stopPid } from './processes.ts';

export const PROMETHEUS_BIN = '/usr/bin/prometheus';

export function hasPrometheus(): boolean {
  return spawnSync(PROMETHEUS_BIN, ['--version']).status === 0;
}

export interface ScrapeJob {
  name: string;
  target: string;
  path: string;
}

export interface PrometheusHandle {
  url: string;
  /** Instant query; returns the result vector. */
  query(q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  stop(): Promise<void>;
}

export async function startPrometheus(jobs: ScrapeJob[]): Promise<PrometheusHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-prom-'));
  const scrape = jobs
    .map((j) => `  - job_name: ${j.name}\n    metrics_path: ${j.path}\n    static_configs:\n      - targets: ['${j.target}']`)
    .join('\n');
  writeFileSync(join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n${scrape}\n`);
  const port = await freePort();
  const child: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async query(q) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(q)}`);
      const body = (await res.json()) as { status: string; data?: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      return body.status === 'success' ? (body.data?.result ?? []) : [];
    },
    async stop() {
      if (child.pid && child.exitCode === null) await stopPid(child.pid, 5000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
