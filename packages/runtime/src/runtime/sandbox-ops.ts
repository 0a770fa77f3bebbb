import { hostname as osHostname } from 'node:os';
import { join } from 'node:path';
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import type { PodSandboxConfig__Output } from '../../../../proto/gen/runtime/v1/PodSandboxConfig.ts';
import { DEFAULT_CGROUP_PARENT, normaliseCgroupPath } from '../linux/cgroup-layout.ts';
import { launch } from '../linux/launch.ts';
import { PAUSE_SCRIPT } from '../linux/scripts.ts';
import type { SandboxNamespaces, SandboxRecord } from '../state/types.ts';
import { newId } from '../util/ids.ts';
import { isAlive, procStartTime, signal } from '../util/proc.ts';
import { nowNs } from '../util/time.ts';
import type { RuntimeContext } from './context.ts';
import type { ContainerEventType } from './events.ts';
import { removeContainer, stopContainer } from './container-ops.ts';
import { watchChild, waitExited } from './watch.ts';
import { fail, ok, type OpResult } from './result.ts';
import { resolveHandler } from './handlers.ts';

/** A sysctl name as the API server accepts it (pkg/apis/core/validation SysctlContainSlashFmt): no "..", no leading "-". */
const SYSCTL_NAME = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;

/**
 * Namespaces a sandbox holds, from its namespace options (NODE = share the host's); a user namespace when the
 * runtime is not root or the handler asks for one (handlers.ts).
 */
export function sandboxNamespaces(config: PodSandboxConfig__Output, privileged: boolean, userNamespace = false): SandboxNamespaces {
  const o = config.linux?.securityContext?.namespaceOptions;
  const hostNet = o?.network === 'NODE';
  return { user: !privileged || userNamespace, net: !hostNet, uts: !hostNet, ipc: o?.ipc !== 'NODE', pid: o?.pid !== 'NODE' };
}

export async function runSandbox(ctx: RuntimeContext, config: PodSandboxConfig__Output, handler: string): Promise<OpResult<string>> {
  const h = resolveHandler(handler);
  if (!h.ok) return h;
  const id = newId();
  const t0 = Date.now();
  const ns = sandboxNamespaces(config, ctx.privileged, h.value.userNamespace);
  const cgroupParent = normaliseCgroupPath(config.linux?.cgroupParent);
  const rec: SandboxRecord = {
    id, config, runtimeHandler: handler, state: 'SANDBOX_NOTREADY', createdAt: nowNs(), namespaces: ns,
    // A host-network sandbox reports no IP, as containerd: the kubelet gives such a pod the node's IPs (--node-ip).
    ip: '', cgroupParent,
  };
  if (ctx.cgroups) {
    const made = ctx.cgroups.create(cgroupParent);
    if (made.ok) {
      if (made.created.length > 0) {
        for (const d of made.created) ctx.store.podCgroupDirs.add(d);
        ctx.store.savePodCgroupDirs();
      }
    } else ctx.logger.warn('cannot create pod cgroup', { id, cgroupParent, err: made.message });
  }
  writeSandboxFiles(join(ctx.rootDir, 'sandboxes', id), config, ns.uts ? config.hostname : osHostname());
  const flags = [
    ...(ns.user ? ['--user', '--map-root-user'] : []),
    ...(ns.net ? ['--net'] : []), ...(ns.ipc ? ['--ipc'] : []), ...(ns.uts ? ['--uts'] : []),
    ...(ns.pid ? ['--pid', '--fork'] : []),
  ];
  // Pod strings (hostname, sysctls) are positional arguments of the holder script; its env is the runtime's.
  const sysctls = Object.entries(config.linux?.sysctls ?? {});
  const badSysctl = sysctls.find(([k]) => !SYSCTL_NAME.test(k));
  if (badSysctl) {
    cleanupSandboxCgroups(ctx, rec);
    rmSync(join(ctx.rootDir, 'sandboxes', id), { recursive: true, force: true });
    return fail('INVALID_ARGUMENT', `failed to start sandbox "${id}": invalid sysctl name ${JSON.stringify(badSysctl[0])}`);
  }
  const sh = [ctx.bins.sh, '-c', PAUSE_SCRIPT, 'pause', ns.uts ? config.hostname : '', ...sysctls.map(([k, v]) => `${k}=${v}`)];
  const argv = flags.length > 0 ? [ctx.bins.unshare, ...flags, '--', ...sh] : sh;
  const env = { NODELET_NETNS: ns.net ? '1' : '', NODELET_PAUSE: ctx.bins.catatonit ?? '' };
  const r = await launch(argv, { env, output: 'ignore' });
  if (!r.ok) {
    r.child.kill('SIGKILL');
    cleanupSandboxCgroups(ctx, rec);
    rmSync(join(ctx.rootDir, 'sandboxes', id), { recursive: true, force: true });
    ctx.logger.error('RunPodSandbox failed', { id, err: r.message });
    return fail('UNKNOWN', `failed to start sandbox container task "${id}": ${r.message}`);
  }
  if (ns.net && ctx.network.enabled) {
    const netns = `/proc/${r.initPid}/ns/net`;
    const added = await ctx.network.add(id, netns);
    if (!added.ok) {
      await ctx.network.del(id, netns);
      signal(r.initPid, 'SIGKILL');
      r.child.kill('SIGKILL');
      cleanupSandboxCgroups(ctx, rec);
      rmSync(join(ctx.rootDir, 'sandboxes', id), { recursive: true, force: true });
      ctx.sandboxFailures.report(config.metadata ?? {}, id, 'RunPodSandbox: network setup failed', added.message);
      return fail('UNKNOWN', `failed to setup network for sandbox "${id}": ${added.message}`);
    }
    rec.ip = added.ip;
    rec.cni = true;
  }
  ctx.sandboxFailures.clear(config.metadata?.uid);
  rec.state = 'SANDBOX_READY';
  rec.pausePid = r.initPid;
  rec.pauseStart = procStartTime(r.initPid);
  ctx.store.saveSandbox(rec);
  watchChild(ctx.sandboxProcs, id, r.child, () => onPauseExit(ctx, id));
  // Sandboxes appear in the event stream under their own id, as containerd reports them.
  sandboxEvent(ctx, id, 'CONTAINER_CREATED_EVENT');
  sandboxEvent(ctx, id, 'CONTAINER_STARTED_EVENT');
  ctx.logger.info('sandbox started', {
    id, pod: `${config.metadata?.namespace}/${config.metadata?.name}`, pid: r.initPid, namespaces: ns, ms: Date.now() - t0,
  });
  return ok(id);
}

function sandboxEvent(ctx: RuntimeContext, id: string, type: ContainerEventType): void {
  ctx.events.emit({ type, containerId: id, sandboxId: id, createdAt: nowNs() });
}

/** The holder is gone (killed or died): the sandbox is NOTREADY. */
export function onPauseExit(ctx: RuntimeContext, id: string): void {
  const rec = ctx.store.sandboxes.get(id);
  if (!rec || rec.state === 'SANDBOX_NOTREADY') return;
  rec.state = 'SANDBOX_NOTREADY';
  ctx.store.saveSandbox(rec);
  sandboxEvent(ctx, id, 'CONTAINER_STOPPED_EVENT');
  ctx.logger.info('sandbox holder exited', { id });
}

export async function stopSandbox(ctx: RuntimeContext, id: string): Promise<OpResult<void>> {
  const rec = ctx.store.findSandbox(id);
  if (!rec) return fail('NOT_FOUND', `an error occurred when try to find sandbox "${id}": not found`);
  await Promise.all(ctx.store.containersOf(rec.id).map((c) => stopContainer(ctx, c.id, 0)));
  // As containerd: the network is torn down while the namespace still exists, then the holder goes.
  const released = await teardownNetwork(ctx, rec);
  if (rec.pausePid && ctx.sandboxProcs.has(rec.id)) {
    signal(rec.pausePid, 'SIGKILL');
    const gone = await waitExited(ctx.sandboxProcs, rec.id);
    ctx.logger.debug('sandbox holder killed', { id: rec.id, pid: rec.pausePid, gone });
  } else ctx.logger.debug('sandbox holder not running', { id: rec.id, pid: rec.pausePid, watched: ctx.sandboxProcs.has(rec.id) });
  onPauseExit(ctx, rec.id);
  if (!released.ok) return released;
  ctx.logger.info('sandbox stopped', { id: rec.id });
  return ok(undefined);
}

export async function removeSandbox(ctx: RuntimeContext, id: string): Promise<OpResult<void>> {
  const rec = ctx.store.findSandbox(id);
  if (!rec) return ok(undefined);
  const stopped = await stopSandbox(ctx, rec.id);
  if (!stopped.ok) return stopped;
  for (const c of ctx.store.containersOf(rec.id)) {
    const removed = await removeContainer(ctx, c.id);
    if (!removed.ok) return fail(removed.code, `failed to remove container "${c.id}": ${removed.message}`);
  }
  cleanupSandboxCgroups(ctx, rec);
  rmSync(join(ctx.rootDir, 'sandboxes', rec.id), { recursive: true, force: true });
  sandboxEvent(ctx, rec.id, 'CONTAINER_DELETED_EVENT');
  ctx.store.deleteSandbox(rec.id);
  ctx.logger.info('sandbox removed', { id: rec.id });
  return ok(undefined);
}

/**
 * CNI DEL for a sandbox still attached: in its namespace while the holder lives (checked by start time, so
 * a reused pid is never entered), else only the lease is released. Idempotent.
 */
export async function teardownNetwork(ctx: RuntimeContext, rec: SandboxRecord): Promise<OpResult<void>> {
  if (!rec.cni) return ok(undefined);
  const alive = !!rec.pausePid && isAlive(rec.pausePid, rec.pauseStart);
  const r = await ctx.network.del(rec.id, alive ? `/proc/${rec.pausePid}/ns/net` : '');
  if (!r.ok) {
    ctx.logger.warn('network teardown failed', { id: rec.id, err: r.message });
    return fail('UNKNOWN', `failed to destroy network for sandbox "${rec.id}": ${r.message}`);
  }
  rec.cni = false;
  ctx.store.saveSandbox(rec);
  ctx.logger.debug('sandbox network torn down', { id: rec.id, ip: rec.ip, inNamespace: alive });
  return ok(undefined);
}

/**
 * Once no other sandbox uses the pod's cgroup parent, remove the dirs of it (and its ancestors) that this
 * runtime created, deepest first; the default parent is tried even when another runtime instance made it.
 */
function cleanupSandboxCgroups(ctx: RuntimeContext, rec: SandboxRecord): void {
  const cg = ctx.cgroups;
  if (!cg) return;
  const stillUsed = [...ctx.store.sandboxes.values()].some((s) => s.id !== rec.id && s.cgroupParent === rec.cgroupParent);
  if (stillUsed) return;
  const parentDirs = cg.dirs(rec.cgroupParent);
  const mine = [...ctx.store.podCgroupDirs].filter((d) => parentDirs.some((p) => p === d || p.startsWith(`${d}/`)));
  const ours = rec.cgroupParent === DEFAULT_CGROUP_PARENT ? parentDirs : [];
  for (const dir of [...new Set([...mine, ...ours])].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(dir);
      ctx.store.podCgroupDirs.delete(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') ctx.store.podCgroupDirs.delete(dir);
    }
  }
  ctx.store.savePodCgroupDirs();
}

/**
 * Files containers of the sandbox get read-only: /etc/hostname, and /etc/resolv.conf from the pod's
 * DNS config (else the host's).
 */
function writeSandboxFiles(dir: string, config: PodSandboxConfig__Output, hostname: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'hostname'), `${hostname}\n`);
  const dns = config.dnsConfig;
  let resolv: string;
  if (dns && (dns.servers.length || dns.searches.length || dns.options.length)) {
    resolv = [
      ...dns.servers.map((s) => `nameserver ${s}`),
      ...(dns.searches.length ? [`search ${dns.searches.join(' ')}`] : []),
      ...(dns.options.length ? [`options ${dns.options.join(' ')}`] : []),
    ].join('\n') + '\n';
  } else {
    try {
      resolv = readFileSync('/etc/resolv.conf', 'utf8');
    } catch {
      resolv = '';
    }
  }
  writeFileSync(join(dir, 'resolv.conf'), resolv);
}
