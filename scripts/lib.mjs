// Shared helpers for the repo's top-level scripts (npm start, npm test). Plain ESM, no dependencies, so they
// run before `npm install` has happened.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function log(msg) {
  process.stdout.write(`[nodelet] ${msg}\n`);
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: repoRoot, ...opts });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed with ${r.status ?? r.signal}`);
  }
}

/**
 * Installs npm dependencies: a clean `npm ci` when node_modules is missing, an incremental `npm install` when
 * package-lock.json lists packages that node_modules lacks (never wipes a working tree's node_modules).
 */
export function ensureDependencies() {
  const marker = join(repoRoot, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) {
    log('installing npm dependencies (npm ci)…');
    run('npm', ['ci', '--no-audit', '--no-fund']);
    return;
  }
  const want = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')).packages ?? {};
  const have = new Set(Object.keys(JSON.parse(readFileSync(marker, 'utf8')).packages ?? {}));
  // Optional packages (other platforms' binaries) are never installed here: only required ones count.
  const missing = Object.keys(want).filter((k) => k !== '' && !want[k].optional && !have.has(k));
  if (missing.length === 0) return;
  log(`installing ${missing.length} missing npm packages (npm install)…`);
  run('npm', ['install', '--no-audit', '--no-fund']);
}

function hashTree(dir, h, skip) {
  for (const name of readdirSync(dir).sort()) {
    if (skip.has(name) || name.startsWith('.next')) continue; // .next and private NEXT_DIST_DIR builds
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) hashTree(p, h, skip);
    else h.update(`${p}:${st.size}:${st.mtimeMs}\n`);
  }
}

/** Builds the Next.js console when its sources (or the agent's router types) changed since the last build. */
export function ensureWebBuilt() {
  const web = join(repoRoot, 'apps/web');
  const h = createHash('sha256');
  const distDir = process.env.NEXT_DIST_DIR || '.next';
  hashTree(web, h, new Set(['node_modules', 'test-results']));
  hashTree(join(repoRoot, 'apps/agent/src/trpc'), h, new Set());
  h.update(readFileSync(join(repoRoot, 'package-lock.json')));
  const digest = h.digest('hex');
  const stamp = join(web, distDir, 'nodelet-build-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  log('building the console (next build)…');
  run('npm', ['run', 'build', '-w', '@nodelet/web'], { env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, digest);
}
