// Preload for `npm run lint:deps`: lets dependency-cruiser 17 read the TypeScript sources of this repo.
//
// dependency-cruiser turns .ts into JavaScript with the `typescript` package (typescript.transpileModule) and
// accepts TypeScript < 7 only; this repo compiles with TypeScript 7, whose package has no JavaScript API. So, for
// dependency-cruiser alone, `typescript` resolves to ./typescript-shim, which transpiles with esbuild (a root
// devDependency). Everything else — walking the files, resolving imports through the packages' `exports`, the
// rules in .dependency-cruiser.cjs, the report — is dependency-cruiser's own. Drop this file (and the --import in
// package.json) once dependency-cruiser reads TypeScript 7 sources (or @swc/core is added: options.parser "swc").
import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';

register('./hooks.mjs', import.meta.url);

// Its version check and require.resolve('typescript') go through CommonJS resolution.
const shimDir = fileURLToPath(new URL('./typescript-shim/', import.meta.url));
const CJS_SHIM = { typescript: `${shimDir}index.mjs`, 'typescript/package.json': `${shimDir}package.json` };
const original = Module._resolveFilename;
Module._resolveFilename = function resolveFilename(request, parent, ...rest) {
  if (Object.hasOwn(CJS_SHIM, request) && parent?.filename?.includes('/node_modules/dependency-cruiser/')) {
    return CJS_SHIM[request];
  }
  return original.call(this, request, parent, ...rest);
};
