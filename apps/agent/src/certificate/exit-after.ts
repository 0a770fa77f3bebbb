/**
 * The kubelet's rotating transport check (pkg/kubelet/certificate/transport.go, UpdateTransport with exitAfter =
 * 5 minutes, as cmd/kubelet/app/server.go passes it): every 10 s the client certificate manager's pair is looked at;
 * when there has been no valid one (none, or expired: Current() hides an expired pair) for exitAfter and the API
 * server is responsive, the process exits non-zero so that its supervisor restarts it and the TLS bootstrap runs
 * again; while the server is not responsive it only says so, every 10 s.
 */
import type { X509Certificate } from 'node:crypto';
import type { Clock, Logger, TimerHandle } from '@nodelet/core/util';

/** exitAfter and the check period of UpdateTransport. */
export const EXIT_AFTER_MS = 5 * 60_000;
export const CHECK_PERIOD_MS = 10_000;

export interface ClientCertificateSource {
  current(): { leaf: X509Certificate } | undefined;
  serverHealthy(): boolean;
}

export interface ExitWatchdogDeps {
  manager: ClientCertificateSource;
  clock: Clock;
  logger: Logger;
  /** Ends the process with this code (the agent: stop, then process.exit). */
  exit: (code: number) => void;
  exitAfterMs?: number;
  periodMs?: number;
}

/** Starts the check (lastCertAvailable = now, as when the transport is built); returns its stop. */
export function watchClientCertificate(d: ExitWatchdogDeps): () => void {
  const exitAfterMs = d.exitAfterMs ?? EXIT_AFTER_MS;
  let lastCertAvailable = d.clock.now();
  let exited = false;
  const fields = () => ({ lastCertificateAvailabilityTime: new Date(lastCertAvailable).toISOString(), shutdownThreshold: `${exitAfterMs / 60_000}m0s` });
  const check = () => {
    if (exited) return;
    const curr = d.manager.current();
    const now = d.clock.now();
    if (!curr) {
      // The certificate was deleted from disk, is otherwise corrupt, or has expired.
      if (now <= lastCertAvailable + exitAfterMs) return;
      if (!d.manager.serverHealthy()) {
        d.logger.error('No valid client certificate is found but the server is not responsive. A restart may be necessary to retrieve new initial credentials.', fields());
        return;
      }
      d.logger.error('No valid client certificate is found and the server is responsive, exiting.', fields());
    } else {
      lastCertAvailable = now;
      if (now <= Date.parse(curr.leaf.validTo)) return;
      if (!d.manager.serverHealthy()) {
        d.logger.error('The currently active client certificate has expired, but the server is not responsive. A restart may be necessary to retrieve new initial credentials.');
        return;
      }
      d.logger.error('The currently active client certificate has expired and the server is responsive, exiting.');
    }
    exited = true;
    timer.cancel();
    d.exit(1);
  };
  const timer: TimerHandle = d.clock.setInterval(check, d.periodMs ?? CHECK_PERIOD_MS);
  return () => timer.cancel();
}
