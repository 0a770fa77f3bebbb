// `npm run build`: compiles the daemon to JavaScript under dist/ with esbuild, so that it runs with plain `node`
// (no TypeScript compiler in the running daemon):
//   dist/agent/main.js, dist/agent/tail.js   the agent and `npm run tail` (code split: what only some paths use,
//                                             e.g. the API-server client, sits in chunks loaded by import())
//   dist/runtime/main.js                     the embedded runtime (the agent spawns it from here when compiled)
//   dist/web/server.js                       the console's server (serves apps/web's `next build` output)
// Workspace packages are bundled (resolved through their package.json `exports`); everything under node_modules
// stays external and is loaded from there at run time. Files the code opens by `new URL('./x', import.meta.url)`
// (the .proto files) are copied next to each bundle at the same relative path as next to their source file.
// Source maps sit beside the bundles: `node --enable-source-maps dist/agent/main.js …` maps stack traces to the
// sources (not on by default: it costs the daemon about 12 MiB RSS).
// Writes dist/<app>/meta.json (esbuild's metafile: which module imports which, statically or by import()).
// Also exports the build as a function for scripts/start.mjs (builds when dist/ is older than the sources).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { log, repoRoot } from './lib.mjs';

/** Bare imports of anything but our workspace packages stay imports of node_modules at run time. */
const externalNodeModules = {
  name: 'external-node-modules',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@nodelet/') ? undefined : { path: args.path, external: true }));
  },
};

/** The bundles: output dir → entry points (name → source), and the assets copied beside them. */
const PROTO_ASSETS = [
  ['proto/runtime/v1/api.proto', 'runtime/v1/api.proto'], // proto/load.ts: new URL('./runtime/v1/api.proto', …)
  ['packages/core/src/prober/runners/health.proto', 'health.proto'], // grpc-runner.ts: new URL('./health.proto', …)
];
// The agent's other protos: the device plugin API (proto/deviceplugin/load.ts: `deviceplugin/…` under the CRI
// include dir, i.e. beside the bundle) and containerd's event service (proto/containerd/load.ts: the include dir is
// new URL('..', …), one level above the bundle). Without them the compiled agent's device manager failed to start
// (ENOENT) and its containerd 1.6 event source could not load its service.
const AGENT_PROTO_ASSETS = [
  ['proto/deviceplugin/v1beta1/api.proto', 'deviceplugin/v1beta1/api.proto'],
  ['proto/pluginregistration/v1/api.proto', 'pluginregistration/v1/api.proto'], // the plugin manager (proto/pluginregistration/load.ts)
  ['proto/podresources/v1/api.proto', 'podresources/v1/api.proto'], // the pod resources API (proto/podresources/load.ts)
  ...['services/events/v1/events.proto', 'events/task.proto', 'events/container.proto', 'types/mount.proto'].map((p) => [`proto/containerd/${p}`, `../containerd/${p}`]),
];
/**
 * Escapes every non-ASCII character of a bundle as \uXXXX (esbuild escapes them in strings but keeps the comments it
 * carries over, and `→` or `≈` in one comment made V8 hold the whole 1 MB source of the agent's main.js as a two-byte
 * string: 2 MiB of its heap instead of 1). The escape means the same character in a string, template, regular
 * expression or identifier, and is inert in a comment; the source map's columns move only on those lines.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) return;
  writeFileSync(file, text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

const BUNDLES = [
  { dir: 'agent', entries: { main: 'apps/agent/src/main.ts', tail: 'apps/agent/src/tail.ts' }, assets: [...PROTO_ASSETS, ...AGENT_PROTO_ASSETS] },
  { dir: 'runtime', entries: { main: 'packages/runtime/src/main.ts' }, assets: PROTO_ASSETS },
  { dir: 'web', entries: { server: 'apps/web/server.ts' }, assets: [] },
];

export const distDir = join(repoRoot, 'dist');
const SOURCE_DIRS = ['apps/agent/src', 'apps/web/server', 'apps/web/server.ts', 'packages', 'proto', 'scripts/build.mjs'];

function newestMtime(p) {
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = st.mtimeMs;
  for (const name of readdirSync(p)) if (name !== 'node_modules' && name !== 'dist') m = Math.max(m, newestMtime(join(p, name)));
  return m;
}

/** True when some bundle is missing or older than a source file. */
export function buildIsStale() {
  const stamp = join(distDir, '.built');
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return SOURCE_DIRS.some((d) => existsSync(join(repoRoot, d)) && newestMtime(join(repoRoot, d)) > built);
}

/** Builds every bundle into `outDir` (default dist/; the launcher finds the runtime at <outDir>/runtime/main.js). */
export async function buildAll(outDir = distDir) {
  const t0 = performance.now();
  const { build } = await import('esbuild'); // not at the top: `npm start` imports this before installing packages
  rmSync(outDir, { recursive: true, force: true });
  for (const b of BUNDLES) {
    const outdir = join(outDir, b.dir);
    const r = await build({
      entryPoints: Object.fromEntries(Object.entries(b.entries).map(([k, v]) => [k, join(repoRoot, v)])),
      outdir,
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      metafile: true,
      logLevel: 'warning',
      plugins: [externalNodeModules],
      // Bundled CommonJS (if any) may call require(): give the ESM output one.
      banner: { js: "import { createRequire as __nodeletCreateRequire } from 'node:module'; const require = __nodeletCreateRequire(import.meta.url);" },
    });
    writeFileSync(join(outdir, 'meta.json'), JSON.stringify(r.metafile));
    for (const f of Object.keys(r.metafile.outputs)) if (f.endsWith('.js')) asciiOnly(resolve(f)) // metafile paths are relative to the working directory;
    for (const [from, to] of b.assets) {
      mkdirSync(dirname(join(outdir, to)), { recursive: true });
      copyFileSync(join(repoRoot, from), join(outdir, to));
    }
  }
  writeFileSync(join(outDir, '.built'), `${new Date().toISOString()}\n`);
  log(`built ${outDir} (${BUNDLES.map((b) => b.dir).join(', ')}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

// `node scripts/build.mjs [--if-stale] [--out <dir>]`: --if-stale builds only when buildIsStale() (for `npm run
// agent`); --out builds elsewhere than dist/ (the build test; keep it inside the repo so node_modules resolves).
const argv = process.argv.slice(2);
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && (!argv.includes('--if-stale') || buildIsStale())) {
  const out = argv.includes('--out') ? resolve(argv[argv.indexOf('--out') + 1] ?? '') : distDir;
  await buildAll(out).catch(() => process.exit(1)); // esbuild has printed the errors
}
