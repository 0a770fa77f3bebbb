// The one TypeScript call dependency-cruiser makes with tsPreCompilationDeps off: transpileModule(source) →
// { outputText }, answered by esbuild (see ../register.mjs for why). Type-only imports and re-exports are kept as
// plain ones first, so the rules also see them (as tsPreCompilationDeps would): apps/web imports the agent's
// types only, and a deep `import type` is as much a deep import as any other.
import { transformSync } from 'esbuild';
import shim from './package.json' with { type: 'json' };

const TYPE_IMPORT = /(^|[\s;])import\s+type\s+(?=[{*]|[A-Za-z_$][\w$]*\s+from\s*['"])/g;
const TYPE_REEXPORT = /(^|[\s;])export\s+type\s+(?=[{*])/g;

export function transpileModule(source, options = {}) {
  const jsx = Boolean(options.compilerOptions?.jsx);
  const kept = source.replace(TYPE_IMPORT, '$1import ').replace(TYPE_REEXPORT, '$1export ');
  const { code } = transformSync(kept, {
    loader: jsx ? 'tsx' : 'ts',
    format: 'esm',
    target: 'es2022',
    // Keeps every import, also one whose names are all types (`import { type A }` stays `import {}`).
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
  });
  return { outputText: code };
}

export const version = shim.version;
// Read when dependency-cruiser loads its tsc extractor, which the config keeps off (tsPreCompilationDeps: false).
export const SyntaxKind = {};
export default { transpileModule, version, SyntaxKind };
