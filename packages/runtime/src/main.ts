/**
 * nodelet-runtime daemon: `node dist/runtime/main.js --listen unix:///abs.sock --root DIR` (after `npm run build`;
 * from the source: `node --import tsx packages/runtime/src/main.ts …`).
 * The only file touching argv, signals and exit codes. Logs JSON lines on stderr.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { jsonLogger } from './util/logger.ts';
import { startRuntime } from './index.ts';

const { values } = parseArgs({
  options: {
    listen: { type: 'string' },
    root: { type: 'string' },
    'no-cgroups': { type: 'boolean', default: false },
    'insecure-registry': { type: 'string', multiple: true },
    'shutdown-grace-ms': { type: 'string' },
  },
});

const logger = jsonLogger((line) => process.stderr.write(line), 'runtime-main');
if (!values.listen || !values.root) {
  logger.error('usage: main.ts --listen unix:///abs/path.sock --root DIR');
  process.exit(2);
}
const socketPath = values.listen.replace(/^unix:\/\//, '');
if (!socketPath.startsWith('/')) {
  logger.error('--listen must be unix:///ABSOLUTE/path.sock', { listen: values.listen });
  process.exit(2);
}

const rt = await startRuntime({
  socketPath,
  rootDir: resolve(values.root),
  logger,
  cgroups: !values['no-cgroups'],
  insecureRegistries: values['insecure-registry'] ?? [],
  ...(values['shutdown-grace-ms'] ? { shutdownGraceMs: Number(values['shutdown-grace-ms']) } : {}),
}).catch((err: unknown) => {
  logger.error('startup failed', { err: err instanceof Error ? err.stack : String(err) });
  process.exit(1);
});

let exiting = false;
const shutdown = (sig: string) => {
  if (exiting) return;
  exiting = true;
  logger.info('signal received', { signal: sig });
  rt.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error('shutdown failed', { err: String(err) });
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
