/**
 * The agent process's TLS bootstrap step (before anything else starts, as the kubelet's run()): loadClientCert with
 * SIGINT / SIGTERM ending the wait (exit 0) and an unusable --bootstrap-kubeconfig reported as a configuration
 * error (exit 1). Returns once --kubeconfig is usable.
 */
import type { Clock, Logger } from '@nodelet/core/util';
import type { AgentConfig } from '../config/types.ts';
import { BootstrapConfigError, loadClientCert } from './bootstrap.ts';

export async function bootstrapBeforeStart(config: AgentConfig, logger: Logger, clock: Clock): Promise<void> {
  if (!config.bootstrapKubeconfig || !config.kubeconfig) return;
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info('stopping', { signal });
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await loadClientCert({
      kubeconfigPath: config.kubeconfig,
      bootstrapKubeconfigPath: config.bootstrapKubeconfig,
      certDir: config.certDir,
      nodeName: config.nodeName,
      clock,
      logger: logger.child('certificate'),
      signal: stop.signal,
    });
  } catch (err) {
    if (stop.signal.aborted) process.exit(0);
    const reason = err instanceof BootstrapConfigError ? err.message : `TLS bootstrap failed: ${(err as Error).message}`;
    logger.error(reason);
    process.stderr.write(`error: ${reason}\n`);
    process.exit(1);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
