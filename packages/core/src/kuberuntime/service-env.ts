/**
 * Service environment variables (pkg/kubelet/envvars FromServices, kubelet_pods.go getServiceEnvVarMap): for
 * each service with a cluster IP, `<NAME>_SERVICE_HOST`, `<NAME>_SERVICE_PORT` (first port),
 * `<NAME>_SERVICE_PORT_<PORTNAME>` per named port, and the Docker-link variables `<NAME>_PORT`,
 * `<NAME>_PORT_<port>_<PROTO>` with `_PROTO`, `_PORT`, `_ADDR`.
 */
import type { V1Service } from '@kubernetes/client-node';

/** v1helper.IsServiceIPSet: a cluster IP that is neither empty nor "None". */
export function isServiceIPSet(s: V1Service): boolean {
  const ip = s.spec?.clusterIP ?? '';
  return ip !== '' && ip !== 'None';
}

/** makeEnvVariableName: upper case, '-' → '_'. */
function envName(name: string): string {
  return name.replace(/-/g, '_').toUpperCase();
}

/** net.JoinHostPort: IPv6 addresses in brackets. */
function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** envvars.FromServices, in the upstream order. */
export function fromServices(services: V1Service[]): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  for (const s of services) {
    if (!isServiceIPSet(s)) continue;
    const ip = s.spec?.clusterIP ?? '';
    const ports = s.spec?.ports ?? [];
    const prefix = envName(s.metadata?.name ?? '');
    out.push({ name: `${prefix}_SERVICE_HOST`, value: ip });
    out.push({ name: `${prefix}_SERVICE_PORT`, value: String(ports[0]?.port ?? '') });
    for (const p of ports) if (p.name) out.push({ name: `${prefix}_SERVICE_PORT_${envName(p.name)}`, value: String(p.port) });
    ports.forEach((p, i) => {
      const proto = (p.protocol || 'TCP').toLowerCase();
      const url = `${proto}://${hostPort(ip, p.port)}`;
      if (i === 0) out.push({ name: `${prefix}_PORT`, value: url });
      const pp = `${prefix}_PORT_${p.port}_${proto.toUpperCase()}`;
      out.push({ name: pp, value: url }, { name: `${pp}_PROTO`, value: proto }, { name: `${pp}_PORT`, value: String(p.port) }, { name: `${pp}_ADDR`, value: ip });
    });
  }
  return out;
}

const MASTER_SERVICES = new Set(['kubernetes']);

/**
 * getServiceEnvVarMap: the master services of the default namespace always, the services of the pod's
 * namespace when enableServiceLinks (a pod-namespace service of the same name replaces the master one).
 */
export function serviceEnvVarMap(services: V1Service[], ns: string, enableServiceLinks: boolean): Map<string, string> {
  const picked = new Map<string, V1Service>();
  for (const s of services) {
    if (!isServiceIPSet(s)) continue;
    const name = s.metadata?.name ?? '';
    const sns = s.metadata?.namespace ?? '';
    if (sns === 'default' && MASTER_SERVICES.has(name)) {
      if (!picked.has(name)) picked.set(name, s);
    } else if (sns === ns && enableServiceLinks) {
      picked.set(name, s);
    }
  }
  return new Map(fromServices([...picked.values()]).map((e) => [e.name, e.value]));
}
