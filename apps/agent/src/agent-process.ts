/**
 * The agent process: argv → config → logger → agent, signals and exit codes. main.ts runs it with the real
 * kubelet factory; a test entry (testing/agent-main.ts) injects a factory with a shortened kubelet constant.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { createApiClientFromKubeconfig } from '@nodelet/core/apiclient';
import { realClock } from '@nodelet/core/util';
import { createAgent } from './agent.ts';
import { bootstrapBeforeStart } from './certificate/bootstrap-process.ts';
import { helpText } from './config/flag-specs.ts';
import { loadConfig } from './config/load-config.ts';
import type { KubeletFactory } from './kubelet-factory.ts';
import { createAgentLogger } from './log/log-sink.ts';
import { turnWriter } from './log/turn-writer.ts';

export async function runAgentProcess(argv: string[], createKubelet: KubeletFactory): Promise<void> {
  const loaded = loadConfig(argv, {
    readFile: (p) => readFileSync(p, 'utf8'),
    hostname,
    cwd: () => process.cwd(),
  });
  if (loaded.ok && loaded.help) {
    process.stdout.write(helpText('npm run agent --'));
    process.exit(0);
  }
  if (!loaded.ok) {
    process.stderr.write(`error: ${loaded.reason}\n`);
    process.exit(1);
  }
  const { config, warnings, configFile } = loaded;
  // An unusable --kubeconfig is a configuration error: report it before anything (PKI, embedded runtime) starts.
  // With --bootstrap-kubeconfig, TLS bootstrap (below) checks it and writes a new one when needed.
  if (config.kubeconfig && !config.bootstrapKubeconfig) {
    const kc = await createApiClientFromKubeconfig(config.kubeconfig, { clock: realClock });
    if (!kc.ok) {
      process.stderr.write(`error: ${kc.reason}\n`);
      process.exit(1);
    }
    kc.client.close();
  }
  const pretty = process.stdout.isTTY === true && process.env.NODELET_LOG_FORMAT !== 'json';
  const out = turnWriter((chunk) => process.stdout.write(chunk));
  process.on('exit', out.flush); // every process.exit below, and an uncaught exception's
  const logger = createAgentLogger({ write: out.write, pretty, verbosity: config.verbosity });
  for (const w of warnings) logger.warn(w);
  logger.info('loaded config', {
    configFile,
    nodeName: config.nodeName,
    rootDir: config.rootDir,
    podManifestPath: config.podManifestPath,
    manifestUrl: config.manifestUrl,
    runtimeEndpoint: config.containerRuntimeEndpoint ?? '(embedded)',
    authorizationMode: config.authorizationMode,
    anonymousAuth: config.anonymousAuth,
  });

  await bootstrapBeforeStart(config, logger, realClock);
  const agent = createAgent(config, { logger, clock: realClock, createKubelet });
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) {
      logger.warn('second signal: exiting now', { signal });
      process.exit(1);
    }
    logger.info('stopping', { signal });
    const graceful = signal === 'SIGTERM' && config.shutdownOnSigterm ? shutdownOnSignal() : Promise.resolve();
    void graceful.then(() => agent.stop()).then((results) => {
      const clean = results.every((r) => r.outcome === 'done');
      logger.info('stopped', { clean });
      process.exit(0);
    });
  };
  // --shutdown-on-sigterm: the node shuts down with the agent; its pods get their graceful node shutdown first.
  const shutdownOnSignal = async () => {
    logger.info('SIGTERM treated as an imminent node shutdown (--shutdown-on-sigterm)');
    const ran = await agent.shutdownNode().catch((err: unknown) => {
      logger.error('graceful node shutdown failed', { err: String(err) });
      return true;
    });
    if (!ran) logger.info('No graceful configuration specified, node shutdown will be immediate');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('unhandledRejection', (err) => logger.error('unhandled rejection', { err: err instanceof Error ? err.stack : String(err) }));

  try {
    await agent.start();
    logger.info('agent started', { ports: agent.ports });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const reason = e.code === 'EADDRINUSE' ? `address already in use: ${e.message.replace(/^listen EADDRINUSE: address already in use /, '')}` : e.message;
    logger.error('agent failed to start', { reason, err: e.stack });
    process.stderr.write(`error: ${reason}\n`);
    await agent.stop();
    process.exit(1);
  }
}
