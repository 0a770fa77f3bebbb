/**
 * Runs CNI plugins the way a CNI-aware runtime does (CNI spec: CNI_COMMAND / CNI_CONTAINERID / CNI_NETNS /
 * CNI_IFNAME / CNI_PATH in the environment, the network config on stdin, a result or an error JSON on
 * stdout). Only what the embedded runtime needs: a bridge with host-local IPAM, ADD and DEL.
 */
import { spawn } from 'node:child_process';
import { isExecutable } from '../util/bins.ts';
import { join } from 'node:path';

/** Where Debian (containernetworking-plugins) and upstream tarballs put the plugins. */
export const CNI_BIN_DIRS = ['/opt/cni/bin', '/usr/lib/cni'];
export const REQUIRED_PLUGINS = ['bridge', 'host-local'];
export const CNI_VERSION = '0.4.0';

export type CniCommand = 'ADD' | 'DEL';
export type CniOutcome = { ok: true; stdout: string } | { ok: false; message: string };
/** Runs one plugin binary; injectable for tests. */
export type CniExec = (binary: string, env: Record<string, string>, stdin: string) => Promise<CniOutcome>;

/** The first dir holding every required plugin, or undefined. */
export function findCniBinDir(dirs = CNI_BIN_DIRS, executable: (p: string) => boolean = isExecutable): string | undefined {
  return dirs.find((d) => REQUIRED_PLUGINS.every((p) => executable(join(d, p))));
}

export interface BridgeNetwork {
  name: string;
  bridge: string;
  subnet: string;
  /** host-local's state dir (one file per leased address). */
  dataDir: string;
}

/** The network config handed to the bridge plugin (ipMasq off: pods talk to the node, not the world). */
export function bridgeConfig(n: BridgeNetwork): string {
  return JSON.stringify({
    cniVersion: CNI_VERSION,
    name: n.name,
    type: 'bridge',
    bridge: n.bridge,
    isGateway: true,
    ipMasq: false,
    hairpinMode: true,
    ipam: { type: 'host-local', ranges: [[{ subnet: n.subnet }]], dataDir: n.dataDir },
  });
}

/** The pod address (without prefix length) from an ADD result of any spec version, or undefined. */
export function resultIp(stdout: string): string | undefined {
  try {
    const r = JSON.parse(stdout) as { ips?: Array<{ address?: string; version?: string }>; ip4?: { ip?: string } };
    const addr = r.ips?.find((i) => i.address && !i.address.includes(':'))?.address ?? r.ips?.[0]?.address ?? r.ip4?.ip;
    return addr?.split('/')[0] || undefined;
  } catch {
    return undefined;
  }
}

/** The message of a plugin's error result (`{ code, msg, details }`), else the raw output. */
export function errorMessage(stdout: string, stderr: string, code: number | null): string {
  try {
    const e = JSON.parse(stdout) as { msg?: string; details?: string };
    if (e.msg) return e.details ? `${e.msg}: ${e.details}` : e.msg;
  } catch {
    /* not JSON */
  }
  return (stderr || stdout).trim() || `plugin exited with ${code}`;
}

export interface CniInvocation {
  command: CniCommand;
  containerId: string;
  /** Path of the network namespace; '' on a DEL whose namespace is gone (IPAM release only). */
  netns: string;
  ifname: string;
  binDir: string;
}

/** One plugin call: `binDir/<type>` with the CNI env and the config on stdin. */
export async function invokePlugin(exec: CniExec, type: string, inv: CniInvocation, config: string): Promise<CniOutcome> {
  const env: Record<string, string> = {
    CNI_COMMAND: inv.command,
    CNI_CONTAINERID: inv.containerId,
    CNI_NETNS: inv.netns,
    CNI_IFNAME: inv.ifname,
    CNI_PATH: inv.binDir,
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  };
  return exec(join(inv.binDir, type), env, config);
}

/** The real exec: a child process, its stdout collected; a non-zero exit is an error result. */
export const spawnPlugin: CniExec = (binary, env, stdin) =>
  new Promise((resolve) => {
    const child = spawn(binary, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => resolve({ ok: false, message: e.message }));
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString();
      if (code === 0) resolve({ ok: true, stdout });
      else resolve({ ok: false, message: errorMessage(stdout, Buffer.concat(err).toString(), code) });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
