/**
 * The certificate managers' metrics on /metrics, names, types, help and buckets as the kubelet
 * (pkg/kubelet/certificate/kubelet.go, cmd/kubelet/app/server.go): registered only for the managers that run
 * (client: rotateCertificates; server: serverTLSBootstrap). The agent's own Registry, appended to the core
 * kubelet registry's text on /metrics.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CertificateManager } from './manager.ts';

/** certificate_manager_server_rotation_seconds: 1 minute, 1 hour, 4 hours, 1 day, 1 week, 1/3/6 months, 1/4 years. */
export const ROTATION_AGE_BUCKETS = [60, 3600, 14400, 86400, 604800, 2592000, 7776000, 15552000, 31104000, 124416000];

export interface CertificateMetrics {
  registry: Registry;
  clientRenewErrors(): void;
  serverRenewErrors(): void;
  serverRotationAge(seconds: number): void;
  /** Registers the ttl gauge of a manager once it exists. */
  track(kind: 'client' | 'server', manager: CertificateManager): void;
}

export function createCertificateMetrics(): CertificateMetrics {
  const registry = new Registry();
  let clientErrors: Counter | undefined;
  let serverErrors: Counter | undefined;
  let serverAge: Histogram | undefined;
  const ttl = (name: string, help: string, m: CertificateManager) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(m.ttlSeconds());
      },
    });
  return {
    registry,
    clientRenewErrors: () => clientErrors?.inc(),
    serverRenewErrors: () => serverErrors?.inc(),
    serverRotationAge: (s) => serverAge?.observe(s),
    track(kind, m) {
      if (kind === 'client') {
        clientErrors ??= new Counter({ name: 'kubelet_certificate_manager_client_expiration_renew_errors', help: 'Counter of certificate renewal errors.', registers: [registry] });
        ttl(
          'kubelet_certificate_manager_client_ttl_seconds',
          "Gauge of the TTL (time-to-live) of the Kubelet's client certificate. The value is in seconds until certificate expiry (negative if already expired). If client certificate is invalid or unused, the value will be +INF.",
          m,
        );
        return;
      }
      serverErrors ??= new Counter({ name: 'kubelet_server_expiration_renew_errors', help: 'Counter of certificate renewal errors.', registers: [registry] });
      serverAge ??= new Histogram({
        name: 'kubelet_certificate_manager_server_rotation_seconds',
        help: 'Histogram of the number of seconds the previous certificate lived before being rotated.',
        buckets: ROTATION_AGE_BUCKETS,
        registers: [registry],
      });
      ttl(
        'kubelet_certificate_manager_server_ttl_seconds',
        "Gauge of the shortest TTL (time-to-live) of the Kubelet's serving certificate. The value is in seconds until certificate expiry (negative if already expired). If serving certificate is invalid or unused, the value will be +INF.",
        m,
      );
    },
  };
}
