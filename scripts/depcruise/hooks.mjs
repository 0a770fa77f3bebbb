// ESM resolve hook for register.mjs: dependency-cruiser's `import("typescript")` gets the esbuild shim.
const SHIM = new URL('./typescript-shim/index.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'typescript' && context.parentURL?.includes('/node_modules/dependency-cruiser/')) {
    return { url: SHIM, shortCircuit: true, format: 'module' };
  }
  return next(specifier, context);
}
