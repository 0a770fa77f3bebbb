// `npm run build`'s output is the daemon users run: it starts with plain node (no tsx, no TypeScript compiler in
// the process), spawns the compiled embedded runtime, and serves healthz, pods and a running static pod. Its
// bundle loads @kubernetes/client-node's index (API clients, KubeConfig) only through import() in API-server mode.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot, waitUntil } from '../../e2e/harness.ts';
import { benchPodManifest } from '../../bench/runtimes.ts';
import { daemonNodeArgs } from '@nodelet/agent/testing';
import { createAgentProcess } from '../conformance/agent-process.ts';
import { removeCgroupRoot } from '../conformance/cgroups.ts';

interface Meta {
  inputs: Record<string, unknown>;
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }> }>;
}

/** Every external module `entry` loads when it starts: its static imports and those of the chunks it imports. */
function staticExternals(meta: Meta, entry: string): Set<string> {
  const seen = new Set<string>();
  const out = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of meta.outputs[file]?.imports ?? []) {
      if (i.kind !== 'import-statement') continue;
      if (i.external) out.add(i.path);
      else visit(i.path);
    }
  };
  visit(entry);
  return out;
}

// Inside the repo, so that the bundles find node_modules as dist/ does.
mkdirSync(join(repoRoot, '.test-output'), { recursive: true });
const work = mkdtempSync(join(repoRoot, '.test-output', 'compiled-'));
const dist = join(work, 'dist');
after(() => rmSync(work, { recursive: true, force: true }));

test('npm run build: bundles of the agent, the embedded runtime and the console server', () => {
  execFileSync(process.execPath, [join(repoRoot, 'scripts/build.mjs'), '--out', dist], { cwd: repoRoot, stdio: 'pipe' });
  const meta = JSON.parse(readFileSync(join(dist, 'agent', 'meta.json'), 'utf8')) as Meta;
  const main = relative(repoRoot, join(dist, 'agent', 'main.js')); // metafile paths are relative to the build's cwd
  const loaded = staticExternals(meta, main);
  assert.ok(loaded.has('@grpc/grpc-js'), `the walk sees the agent's static imports: ${[...loaded].join(' ')}`);
  assert.ok(!loaded.has('@kubernetes/client-node'), 'client-node\'s index is not loaded at start');
  assert.ok(!loaded.has('@kubernetes/client-node/dist/gen/models/all.js'), 'nor all its models: only those of a pod (config/pod-models.ts)');
  assert.ok(loaded.has('@kubernetes/client-node/dist/gen/models/V1Pod.js'), 'the pod schema for manifest type checks');
  assert.ok(!loaded.has('node-forge'), 'node-forge only when a certificate is created (pki/certs.ts)');
  const dynamic = Object.values(meta.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
  assert.ok(dynamic.includes('@kubernetes/client-node'), 'API-server mode loads it by import()');
  const compilers = Object.keys(meta.inputs).filter((f) => /node_modules\/(tsx|typescript|esbuild)\//.test(f));
  assert.deepEqual(compilers, [], 'no TypeScript compiler bundled');
  // The protos the agent loads by path at run time, where its loaders look from the bundle (proto/*/load.ts).
  for (const p of ['agent/runtime/v1/api.proto', 'agent/deviceplugin/v1beta1/api.proto', 'containerd/services/events/v1/events.proto', 'containerd/events/task.proto', 'containerd/events/container.proto', 'containerd/types/mount.proto']) {
    assert.ok(existsSync(join(dist, p)), `${p} is in the build`);
  }
  // ASCII only: one non-ASCII character (a `→` in a comment) makes V8 keep a bundle's whole source as a two-byte
  // string (2 MiB of the agent's heap for main.js instead of 1).
  for (const d of ['agent', 'runtime', 'web']) {
    for (const f of readdirSync(join(dist, d)).filter((n) => n.endsWith('.js'))) {
      const at = readFileSync(join(dist, d, f), 'utf8').search(/[^\x00-\x7f]/);
      assert.equal(at, -1, `${d}/${f} has a non-ASCII character at ${at}`);
    }
  }
  // The escaped µ still means µ: the compiled flag parser reads a Go duration in µs (and refuses a bad unit).
  const help = (d: string) => execFileSync(process.execPath, [join(dist, 'agent', 'main.js'), '--file-check-frequency', d, '--help'], { encoding: 'utf8', stdio: 'pipe' });
  assert.match(help('2000000µs'), /^Usage:/);
  assert.throws(() => help('2xs'), /invalid duration "2xs"/);
});

test('the compiled agent runs with plain node, spawns the compiled runtime and runs a static pod', async () => {
  const cgroupRoot = `/nodelet-compiled-${process.pid}`;
  const a = await createAgentProcess({ nodeName: 'compiled', compiledMain: join(dist, 'agent', 'main.js'), args: ['--cgroup-root', cgroupRoot] });
  try {
    await a.start();
    const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    // node, the daemons' node flags (daemon-env.ts: the old-space limit), then the script: no --import tsx.
    const daemonArgs = daemonNodeArgs();
    assert.deepEqual(cmdline(a.pid() ?? 0).slice(1, 2 + daemonArgs.length), [...daemonArgs, join(dist, 'agent', 'main.js')], 'plain node, no --import tsx');
    const runtimePid = Number(readFileSync(join(a.rootDir, 'runtime', 'runtime.pid'), 'utf8').trim());
    assert.deepEqual(cmdline(runtimePid).slice(1, 2 + daemonArgs.length), [...daemonArgs, join(dist, 'runtime', 'main.js')], 'the compiled embedded runtime');
    await waitUntil('healthz ok', async () => (await fetch(`http://127.0.0.1:${a.ports.healthz}/healthz`)).status === 200, 30_000);
    writeFileSync(join(a.manifests, 'c.json'), benchPodManifest('c', 'nodelet.local/host:latest', 1));
    await waitUntil('static pod Running', async () => {
      const pods = (await (await fetch(`${a.readOnlyUrl}/pods`)).json()) as { items: Array<{ status?: { phase?: string } }> };
      return pods.items[0]?.status?.phase === 'Running';
    }, 60_000);
    assert.doesNotMatch(a.logTail(1_000_000), /\.proto|include paths/, 'every proto the agent loads is found (device manager included)');
    rmSync(join(a.manifests, 'c.json'));
    await waitUntil('pod removed', async () => ((await (await fetch(`${a.readOnlyUrl}/pods`)).json()) as { items: unknown[] }).items.length === 0, 60_000);
  } catch (e) {
    throw new Error(`${String(e)}\n--- agent log ---\n${a.logTail()}`);
  } finally {
    await a.dispose();
    for (let i = 0; i < 20 && removeCgroupRoot(cgroupRoot).length > 0; i++) await new Promise((r) => setTimeout(r, 250));
  }
});
