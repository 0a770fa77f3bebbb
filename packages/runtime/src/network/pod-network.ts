/**
 * Pod networking for isolated sandboxes of the embedded runtime: when running as root with the CNI bridge and
 * host-local plugins installed, each sandbox's network namespace gets a veth on the instance's bridge and an
 * address of the instance's /24 (see subnet.ts); host-local keeps its leases under <root>/cni/networks.
 * One bridge per instance, named after its /24 (`nodelet-e<third octet>`): the bridge plugin refuses a bridge
 * that already holds another subnet's gateway, and containerd's test CNI owns `nodelet0`.
 * Otherwise (unprivileged, no plugins) sandboxes keep loopback only, as before.
 * Operations of one instance are serialised; DEL on a namespace that is gone only releases the lease.
 * A new pod range (UpdateRuntimeConfig) retires the bridge of the old one: running sandboxes keep their ports on
 * it, and it is removed once its last port is gone (checked at once and after each DEL; kept in network.json).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeJsonAtomic } from '../util/atomic-json.ts';
import type { Logger } from '../util/logger.ts';
import { bridgeConfig, findCniBinDir, invokePlugin, resultIp, spawnPlugin, type BridgeNetwork, type CniExec } from './cni.ts';
import { parseCidr, parseProcRoutes, pickSubnet, podRangeOf, POD_SUPERNET, routed, type Route } from './subnet.ts';
import { hostEnv } from '../linux/host-env.ts';

/**
 * The bridge of a /24 of the supernet: `nodelet-e<third octet>` (at most 12 characters, under IFNAMSIZ); of a
 * kubelet's pod range: `nodelet-p<6 hex of its hash>`.
 */
export const bridgeOf = (subnet: string): string =>
  subnet.endsWith('/24') && routed(subnet, [{ iface: '', ...parseCidr(POD_SUPERNET) }])
    ? `nodelet-e${subnet.split('.')[2]}`
    : `nodelet-p${createHash('sha256').update(subnet).digest('hex').slice(0, 6)}`;
export const NETWORK_NAME = 'nodelet-embedded';

export interface PodNetworkDeps {
  rootDir: string;
  logger: Logger;
  privileged: boolean;
  /** CNI plugin dir; undefined = look in /opt/cni/bin and /usr/lib/cni. null = disabled. */
  binDir?: string | null;
  exec?: CniExec;
  routes?: () => Route[];
  /** Sandboxes currently attached (their ADD not yet undone). */
  attached: () => number;
  /** Runs `ip` (bridge cleanup); injectable for tests. */
  ip?: (args: string[]) => Promise<string>;
  /** Ports on a bridge (/sys/class/net/<bridge>/brif); undefined when there is no such bridge. Injectable for tests. */
  ports?: (bridge: string) => number | undefined;
}

export type AddResult = { ok: true; ip: string } | { ok: false; message: string };

const run = promisify(execFile);

export class PodNetwork {
  readonly binDir: string | undefined;
  private subnet: string | undefined;
  /** The kubelet's pod range (UpdateRuntimeConfig pod_cidr), kept in <root>/cni/network.json across restarts. */
  private podRange: string | undefined;
  /** Bridges of earlier ranges, removed once no port is left on them. */
  private retired = new Set<string>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly d: PodNetworkDeps) {
    this.binDir = d.binDir === null ? undefined : (d.binDir ?? findCniBinDir());
    for (const b of this.loadSaved().retired ?? []) this.retired.add(b);
    const why = !d.privileged ? 'not running as root' : !this.binDir ? 'CNI bridge/host-local plugins not found in /opt/cni/bin or /usr/lib/cni' : '';
    if (why) d.logger.info('pod network: isolated pods get loopback only (no IP)', { reason: why });
    else d.logger.info('pod network: CNI bridge', { binDir: this.binDir });
  }

  get enabled(): boolean {
    return this.d.privileged && !!this.binDir;
  }

  /** ADD the sandbox's namespace to the bridge; resolves to its address. */
  add(sandboxId: string, netns: string): Promise<AddResult> {
    return this.serial(async () => {
      const net = this.network();
      if (!net) return { ok: false, message: `no free /24 left in ${POD_SUPERNET} for network ${NETWORK_NAME} (the kubelet's podCIDR / --pod-cidr gives pods another range)` };
      const r = await invokePlugin(this.exec(), 'bridge', { command: 'ADD', containerId: sandboxId, netns, ifname: 'eth0', binDir: this.binDir! }, bridgeConfig(net));
      if (!r.ok) return { ok: false, message: `plugin type="bridge" name="${NETWORK_NAME}" failed (add): ${r.message}` };
      const ip = resultIp(r.stdout);
      if (!ip) return { ok: false, message: `plugin type="bridge" name="${NETWORK_NAME}" returned no IP: ${r.stdout.trim()}` };
      return { ok: true, ip };
    });
  }

  /**
   * UpdateRuntimeConfig's pod_cidr: new sandboxes get addresses of this range (its IPv4 part) on a bridge of
   * their own; running ones keep theirs. "" changes nothing. An invalid range is refused with the reason.
   */
  setPodCidr(podCidr: string): Promise<{ ok: true } | { ok: false; message: string }> {
    return this.serial(async () => {
      if (podCidr.trim() === '') return { ok: true as const };
      const r = podRangeOf(podCidr);
      if (!r.ok) return r;
      if (r.cidr === this.podRange && r.cidr === this.subnet) return { ok: true as const };
      const old = this.subnet ?? this.loadSaved().subnet;
      if (old && old !== r.cidr) this.retired.add(bridgeOf(old));
      this.retired.delete(bridgeOf(r.cidr));
      this.podRange = r.cidr;
      this.subnet = r.cidr;
      this.save();
      await this.removeRetired();
      const taken = (this.d.routes ?? hostRoutes)().find((x) => !x.iface.startsWith('nodelet-p') && routed(r.cidr, [x]));
      if (taken) this.d.logger.warn('pod CIDR overlaps a route of another interface', { podCIDR: r.cidr, iface: taken.iface });
      this.d.logger.info('pod network range from the kubelet', { podCIDR: r.cidr, bridge: bridgeOf(r.cidr) });
      return { ok: true as const };
    });
  }

  /** DEL: removes the veth (when the namespace is still there) and releases the lease. */
  del(sandboxId: string, netns: string): Promise<{ ok: true } | { ok: false; message: string }> {
    return this.serial(async () => {
      const net = this.network();
      if (!net) return { ok: true as const };
      const r = await invokePlugin(this.exec(), 'bridge', { command: 'DEL', containerId: sandboxId, netns, ifname: 'eth0', binDir: this.binDir! }, bridgeConfig(net));
      if (r.ok) await this.removeRetired();
      return r.ok ? { ok: true as const } : { ok: false as const, message: `plugin type="bridge" name="${NETWORK_NAME}" failed (delete): ${r.message}` };
    });
  }

  /** Once nothing is attached (runtime shutdown): the instance's bridge goes, unless something still uses a port of it. */
  release(): Promise<void> {
    return this.serial(async () => {
      if (!this.enabled || !this.subnet || this.d.attached() > 0) return;
      const bridge = bridgeOf(this.subnet);
      const ports = this.portsOf(bridge);
      if (ports === undefined) return; // no bridge
      if (ports === 0) await this.removeBridge(bridge);
      this.d.logger.debug('pod network released', { subnet: this.subnet, bridge, ports });
    });
  }

  /** Removes each retired bridge that has no port left (one that is gone is forgotten). Runs inside serial(). */
  private async removeRetired(): Promise<void> {
    if (!this.enabled || this.retired.size === 0) return;
    let changed = false;
    for (const bridge of [...this.retired]) {
      const ports = this.portsOf(bridge);
      if (ports === undefined || (ports === 0 && (await this.removeBridge(bridge)))) {
        this.retired.delete(bridge);
        changed = true;
        if (ports === 0) this.d.logger.info('removed the bridge of the previous pod range', { bridge });
      }
    }
    if (changed) this.save();
  }

  private portsOf(bridge: string): number | undefined {
    if (this.d.ports) return this.d.ports(bridge);
    try {
      return readdirSync(`/sys/class/net/${bridge}/brif`).length;
    } catch {
      return undefined;
    }
  }

  private async removeBridge(bridge: string): Promise<boolean> {
    const ip = this.d.ip ?? (async (args: string[]) => (await run('ip', args, { env: hostEnv() })).stdout);
    try {
      await ip(['link', 'del', bridge]);
      return true;
    } catch (err) {
      this.d.logger.warn('cannot remove bridge', { bridge, err: String(err) });
      return false;
    }
  }

  /** The bridge network of this instance, choosing (and persisting) its subnet on first use. */
  private network(): BridgeNetwork | undefined {
    const dir = join(this.d.rootDir, 'cni');
    if (!this.subnet) {
      const { subnet: saved, podCIDR } = this.loadSaved();
      this.podRange ??= podCIDR;
      const routes = (this.d.routes ?? hostRoutes)();
      // The kubelet's range; else keep the saved subnet while leases use it, or when nobody routes it (else
      // another instance took it).
      this.subnet = this.podRange ?? (saved && (this.d.attached() > 0 || !routed(saved, routes)) ? saved : pickSubnet(this.d.rootDir, routes));
      if (!this.subnet) return undefined;
      if (this.subnet !== saved) {
        this.save();
        this.d.logger.info('pod network subnet', { subnet: this.subnet, bridge: bridgeOf(this.subnet) });
      }
    }
    return { name: NETWORK_NAME, bridge: bridgeOf(this.subnet), subnet: this.subnet, dataDir: join(dir, 'networks') };
  }

  private save(): void {
    const dir = join(this.d.rootDir, 'cni');
    mkdirSync(dir, { recursive: true });
    writeJsonAtomic(join(dir, 'network.json'), {
      subnet: this.subnet,
      ...(this.podRange ? { podCIDR: this.podRange } : {}),
      ...(this.retired.size > 0 ? { retired: [...this.retired] } : {}),
    });
  }

  private loadSaved(): { subnet?: string; podCIDR?: string; retired?: string[] } {
    try {
      return JSON.parse(readFileSync(join(this.d.rootDir, 'cni', 'network.json'), 'utf8')) as { subnet?: string; podCIDR?: string; retired?: string[] };
    } catch {
      return {};
    }
  }

  private exec(): CniExec {
    return this.d.exec ?? spawnPlugin;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

function hostRoutes(): Route[] {
  try {
    return parseProcRoutes(readFileSync('/proc/net/route', 'utf8'));
  } catch {
    return [];
  }
}
