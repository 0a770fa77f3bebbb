// `npm test`: installs what is missing, type-checks (`npm run typecheck`, one check), checks the dependency rules
// (`npm run lint:deps`, one check), runs every
// unit and integration test (node's test runner), then the browser e2e suite (Playwright driving Debian's
// chromium), and prints one closing line "tests: N passed, N failed". Options: --unit (dependency rules and node
// tests only), --e2e (browser tests only).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureDependencies, ensureWebBuilt, log, repoRoot, run } from './lib.mjs';
import { failedTests } from './tap-failures.mjs';

const args = new Set(process.argv.slice(2));
const only = args.has('--unit') ? 'unit' : args.has('--e2e') ? 'e2e' : 'all';
const totals = { passed: 0, failed: 0, skipped: 0 };

ensureDependencies();

function findTests(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === '.next' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) findTests(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** One npm script counted as one check (the type check, the dependency rules): a failure fails the run. */
function runCheck(script, what) {
  log(`${what} (npm run ${script})`);
  const r = spawnSync('npm', ['run', '-s', script], { stdio: 'inherit', cwd: repoRoot });
  if (r.status === 0) totals.passed += 1;
  else {
    totals.failed += 1;
    log(`${what}: failed (exit ${r.status ?? r.signal}), listed above`);
  }
}

/** The dependency rules (.dependency-cruiser.cjs) and the type check of the agent, packages and console. */
function runDependencyRules() {
  runCheck('typecheck', 'type-checking');
  runCheck('lint:deps', 'checking the dependency rules');
}

// The runtime conformance suites and the *.integration.test.ts files run real agents with many pods (minutes on a
// loaded 2-core machine): they get a longer per-file timeout than the rest (180 s), which stays short so a hung
// file is caught quickly.
const LONG_TESTS = /^tests\/conformance\/|\.integration\.test\.ts$/;
const CONFORMANCE = /^tests\/conformance\//;

function runNodeTests() {
  const files = ['packages', 'apps', 'bench', 'scripts', 'tests']
    .flatMap((d) => findTests(join(repoRoot, d)))
    .map((f) => relative(repoRoot, f))
    .sort();
  log(`running ${files.length} test files with node's test runner`);
  // Not under test-results/: Playwright empties that folder when it starts.
  mkdirSync(join(repoRoot, '.test-output'), { recursive: true });
  const groups = [
    // Two files at a time: most of a short file's time is tsx compiling it and waiting on child processes, so two
    // cut the pass on 2 cores from 846 s to 565 s (quiet machine, 2026-11-26).
    { name: 'node-tests', timeoutMs: 180_000, concurrency: 2, files: files.filter((f) => !LONG_TESTS.test(f)) },
    // The *.integration files two at a time as well: most of their time is waiting on back-offs, eviction passes and
    // pods (each has its own agent on port 0, root dir, --cgroup-root and containerd), as the short files that
    // start agents and containerd (probes, stats, eviction order) already do two at a time.
    { name: 'long', timeoutMs: 600_000, concurrency: 2, files: files.filter((f) => LONG_TESTS.test(f) && !CONFORMANCE.test(f)) },
    // The conformance suites keep the machine to themselves: their disruption and deadline scenarios check
    // sub-second timings (a TERM-handling container stopped within 3.5 s of a 4 s grace).
    { name: 'conformance', timeoutMs: 600_000, concurrency: 1, files: files.filter((f) => CONFORMANCE.test(f)) },
  ];
  let passed = 0;
  let failed = 0;
  let status = 0;
  const failures = [];
  for (const g of groups) {
    if (g.files.length === 0) continue;
    const tap = join(repoRoot, '.test-output', `${g.name}.tap`);
    rmSync(tap, { force: true });
    const r = spawnSync(
      process.execPath,
      [
        '--import', 'tsx', '--test', `--test-timeout=${g.timeoutMs}`, `--test-concurrency=${g.concurrency}`,
        '--test-reporter=spec', '--test-reporter-destination=stdout',
        '--test-reporter=tap', `--test-reporter-destination=${tap}`,
        ...g.files,
      ],
      { stdio: 'inherit', cwd: repoRoot },
    );
    const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
    const count = (k) => Number(new RegExp(`^# ${k} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const gFailed = count('fail') + count('cancelled');
    passed += count('pass');
    failed += gFailed + (r.status !== 0 && gFailed === 0 ? 1 : 0);
    totals.skipped += count('skipped') + count('todo'); // node's summary says "# skipped N"
    if (r.status !== 0) status = r.status ?? 1;
    failures.push(...failedTests(text));
  }
  // Repeated at the end, where a CI log's tail is read: the spec output above has them among thousands of lines.
  if (failures.length > 0) log(`failed tests, with their errors:\n${failures.join('\n').slice(0, 12_000)}`);
  totals.passed += passed;
  totals.failed += failed;
  log(`node tests: ${passed} passed, ${failed} failed (exit ${status})`);
}

function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return true;
  if (process.getuid?.() === 0) {
    log('installing Debian chromium for the e2e tests…');
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'chromium'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return existsSync('/usr/bin/chromium');
  }
  log('e2e needs /usr/bin/chromium: run `sudo apt-get install chromium` (Debian package)');
  return false;
}

function runE2e() {
  if (!ensureChromium()) {
    totals.failed += 1;
    return;
  }
  ensureWebBuilt();
  const report = join(repoRoot, 'test-results', 'e2e.json');
  rmSync(report, { force: true });
  mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
  const r = spawnSync('npx', ['playwright', 'test'], {
    stdio: 'inherit',
    cwd: repoRoot,
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report, NEXT_TELEMETRY_DISABLED: '1' },
  });
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (existsSync(report)) {
    const s = JSON.parse(readFileSync(report, 'utf8')).stats ?? {};
    passed = (s.expected ?? 0) + (s.flaky ?? 0);
    failed = s.unexpected ?? 0;
    skipped = s.skipped ?? 0;
  }
  if (r.status !== 0 && failed === 0) failed = 1;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  log(`e2e tests: ${passed} passed, ${failed} failed`);
}

if (only !== 'e2e') runDependencyRules();
if (only !== 'e2e') runNodeTests();
if (only !== 'unit') runE2e();
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
