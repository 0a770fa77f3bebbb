/**
 * Dependency rules, checked by `npm run lint:deps` (dependency-cruiser; part of `npm test`, so CI fails on a
 * violation). The layering is described in docs/architecture.md:
 *   - packages never import apps; packages/core imports no other workspace package (it is the bottom layer);
 *   - anything outside a package reaches it only through an entry listed in its package.json `exports`
 *     (`@nodelet/core/kubelet`, `@nodelet/core/util`, …): no deep imports, also not by relative path;
 *   - apps/web imports from the agent its types entry only (`@nodelet/agent/types`, type-only); its tests and
 *     its mock agent (dev/) may also use `@nodelet/agent/testing`;
 *   - no import cycles (type-only imports count too).
 * TypeScript sources are read through scripts/depcruise/register.mjs (see there why).
 */
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const WORKSPACES = ['packages', 'apps'];

/** Every file a workspace package exports, as repo-relative paths (its public entries). */
function entryFiles() {
  const files = [];
  for (const dir of WORKSPACES) {
    for (const name of readdirSync(join(__dirname, dir))) {
      let manifest;
      try {
        manifest = JSON.parse(readFileSync(join(__dirname, dir, name, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      const exportsField = typeof manifest.exports === 'string' ? { '.': manifest.exports } : (manifest.exports ?? {});
      for (const target of Object.values(exportsField)) {
        if (typeof target === 'string' && !target.includes('*')) files.push(`${dir}/${name}/${target.replace(/^\.\//, '')}`);
      }
    }
  }
  return files;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ENTRY = `^(${entryFiles().map(escape).join('|')})$`;
const WEB_TESTS_AND_DEV = '^apps/web/(dev/|server/testing/|.*\\.test\\.tsx?$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: move what both sides need into a module both import (docs/architecture.md).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'packages-not-to-apps',
      comment: 'Packages are the layer below the apps and never import them.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'core-stands-alone',
      comment: 'packages/core is the bottom layer: it imports no other workspace package.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^(packages/(?!core/)|apps/)' },
    },
    {
      name: 'no-deep-import',
      comment:
        "Reach another package only through an entry in its package.json `exports` (e.g. @nodelet/core/util), " +
        'never a file inside it: add what you need to that entry.',
      severity: 'error',
      from: { path: '^((?:packages|apps)/[^/]+)/' },
      to: { path: '^(packages|apps)/[^/]+/', pathNot: ['^$1/', ENTRY] },
    },
    {
      name: 'no-deep-import-from-outside',
      comment: 'tests/, bench/, e2e/ and scripts/ use the packages through their entries too.',
      severity: 'error',
      from: { pathNot: '^(packages|apps)/' },
      to: { path: '^(packages|apps)/', pathNot: ENTRY },
    },
    {
      name: 'web-imports-agent-types-only',
      comment: 'The console imports from the workspace only the agent\'s types: @nodelet/agent/types.',
      severity: 'error',
      from: { path: '^apps/web/', pathNot: WEB_TESTS_AND_DEV },
      to: { path: '^(packages|apps/agent)/', pathNot: '^apps/agent/src/types\\.ts$' },
    },
    {
      name: 'web-tests-use-agent-entries',
      comment: "The console's tests and mock agent use @nodelet/agent/types and @nodelet/agent/testing only.",
      severity: 'error',
      from: { path: WEB_TESTS_AND_DEV },
      to: { path: '^(packages|apps/agent)/', pathNot: '^apps/agent/src/(types|testing/index)\\.ts$' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing (e.g. a path a package does not export).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.next[^/]*|dist|test-results|\\.test-output)/' },
    moduleSystems: ['es6', 'cjs'],
    // Type-only imports are kept as plain imports by the esbuild transpile (scripts/depcruise/); the tsc
    // extractor (TypeScript < 7) is not available here.
    tsPreCompilationDeps: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      mainFields: ['module', 'main'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
