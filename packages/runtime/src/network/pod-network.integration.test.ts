/**
 * Integration (root + CNI bridge/host-local plugins): isolated sandboxes of the embedded runtime get an address
 * on the instance's bridge, reachable from the host; a runtime crash (SIGKILL) and restart neither re-ADDs nor
 * loses the lease; StopPodSandbox releases it (no lease file left); hostNetwork sandboxes stay on the host; the
 * bridge goes when the runtime shuts down.
 * Skipped without root or plugins, except under CI=true where that is a failure.
 * Run: node --import tsx --test packages/runtime/src/network/pod-network.integration.test.ts
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startRuntime } from '../index.ts';
import { containerConfig, criClients, sandboxConfig, spawnDaemon, until, waitExit } from '../testing/harness.ts';
import { jsonLogger } from '../util/logger.ts';
import { findCniBinDir } from './cni.ts';

const why = process.getuid?.() !== 0 ? 'needs root' : !findCniBinDir() ? 'needs containernetworking-plugins (bridge, host-local)' : '';
if (why && process.env.CI === 'true') throw new Error(`pod network integration test cannot run under CI: ${why}`);

/** Lease files host-local keeps (one per address) under the runtime's root. */
function leases(root: string): string[] {
  const dir = join(root, 'cni', 'networks', 'nodelet-embedded');
  try {
    return readdirSync(dir).filter((f) => /^\d+\.\d+\.\d+\.\d+$/.test(f));
  } catch {
    return [];
  }
}

/** Resolves with the first line a TCP server at ip:port sends. */
function firstLine(ip: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: ip, port, timeout: 3000 }, () => undefined);
    let buf = '';
    s.on('data', (d) => {
      buf += d.toString();
      if (buf.includes('\n')) (s.destroy(), resolve(buf.split('\n')[0]!));
    });
    s.on('timeout', () => (s.destroy(), reject(new Error('timeout'))));
    s.on('error', reject);
  });
}

/** A runtime daemon on a temp root; `restart(signal)` stops it and starts the next one on the same root. */
interface Daemon { dir: string; root: string; c: ReturnType<typeof criClients>; restart(signal: NodeJS.Signals): Promise<number | null> }

async function withDaemon(fn: (d: Daemon) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-podnet-'));
  const sock = join(dir, 'cri.sock');
  const root = join(dir, 'root');
  let child = (await spawnDaemon(sock, root)).child;
  const d: Daemon = {
    dir, root, c: criClients(sock),
    restart: async (signal) => {
      d.c.close();
      child.kill(signal);
      const code = await waitExit(child);
      child = (await spawnDaemon(sock, root)).child;
      d.c = criClients(sock);
      return code;
    },
  };
  try {
    await fn(d);
    d.c.close();
    child.kill('SIGTERM');
    assert.equal(await waitExit(child), 0);
  } finally {
    d.c.close();
    if (child.exitCode === null) child.kill('SIGTERM');
    await waitExit(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

const bridgeOfIp = (ip: string) => `/sys/class/net/nodelet-e${ip.split('.')[2]}`;

test('isolated sandboxes get a bridge address; crash + restart keep it; removal releases it', { skip: why || false, timeout: 120_000 }, async () => {
  let bridge = '';
  await withDaemon(async (d) => {
    const config = sandboxConfig('netpod', join(d.dir, 'logs'));
    const { podSandboxId: id } = await d.c.rt.RunPodSandbox({ config });
    const ip = (await d.c.rt.PodSandboxStatus({ podSandboxId: id })).status.network.ip as string;
    assert.match(ip, /^10\.89\.\d+\.\d+$/, 'an address of the runtime subnet');
    assert.deepEqual(leases(d.root), [ip]);
    const subnet = JSON.parse(readFileSync(join(d.root, 'cni', 'network.json'), 'utf8')).subnet as string;
    assert.equal(subnet.split('.').slice(0, 3).join('.'), ip.split('.').slice(0, 3).join('.'));
    bridge = bridgeOfIp(ip);
    assert.equal(readdirSync(join(bridge, 'brif')).length, 1, 'one veth on the instance bridge');
    // A server in the pod, reached from the host over the bridge (not over loopback).
    const cmd = ['sh', '-c', 'echo hello > /tmp/m; exec busybox nc -ll -p 7070 -e cat /tmp/m'];
    const { containerId } = await d.c.rt.CreateContainer({ podSandboxId: id, config: containerConfig('srv', cmd), sandboxConfig: config });
    await d.c.rt.StartContainer({ containerId });
    const line = await until(() => firstLine(ip, 7070).catch(() => ''), `a reply from ${ip}:7070`, 20_000);
    assert.match(line, /hello$/);

    const host = sandboxConfig('hostpod', join(d.dir, 'logs'), { linux: { securityContext: { namespaceOptions: { network: 'NODE' } } } });
    const { podSandboxId: hostId } = await d.c.rt.RunPodSandbox({ config: host });
    assert.doesNotMatch((await d.c.rt.PodSandboxStatus({ podSandboxId: hostId })).status.network.ip, /^10\.89\./, 'hostNetwork: no bridge address');
    assert.deepEqual(leases(d.root), [ip], 'hostNetwork sandboxes lease nothing');

    // Crash: the holder and the container live on; the next runtime adopts them without a second ADD.
    await d.restart('SIGKILL');
    const st = await d.c.rt.PodSandboxStatus({ podSandboxId: id });
    assert.equal(st.status.state, 'SANDBOX_READY');
    assert.equal(st.status.network.ip, ip, 'same address after the restart');
    assert.deepEqual(leases(d.root), [ip], 'no second lease');
    assert.match(await firstLine(ip, 7070), /hello$/);

    await d.c.rt.StopPodSandbox({ podSandboxId: id });
    assert.deepEqual(leases(d.root), [], 'StopPodSandbox releases the lease');
    await d.c.rt.RemovePodSandbox({ podSandboxId: id });
    await d.c.rt.RemovePodSandbox({ podSandboxId: hostId });
    assert.deepEqual(leases(d.root), []);
  });
  assert.equal(existsSync(bridge), false, 'the bridge is removed at shutdown');
});

test('SIGTERM gives every lease back and removes the bridge; the restarted runtime removes the sandbox', { skip: why || false, timeout: 60_000 }, async () => {
  await withDaemon(async (d) => {
    const { podSandboxId: id } = await d.c.rt.RunPodSandbox({ config: sandboxConfig('termpod', join(d.dir, 'logs')) });
    const ip = (await d.c.rt.PodSandboxStatus({ podSandboxId: id })).status.network.ip as string;
    assert.deepEqual(leases(d.root), [ip]);
    assert.equal(await d.restart('SIGTERM'), 0);
    assert.deepEqual(leases(d.root), [], 'no lease after a shutdown');
    assert.equal(existsSync(bridgeOfIp(ip)), false);
    assert.equal((await d.c.rt.PodSandboxStatus({ podSandboxId: id })).status.state, 'SANDBOX_NOTREADY');
    await d.c.rt.RemovePodSandbox({ podSandboxId: id });
    assert.deepEqual(leases(d.root), []);
    assert.equal(existsSync(bridgeOfIp(ip)), false, 'no ADD again');
  });
});

test('a failing ADD fails RunPodSandbox with the plugin message, undoes it and leaves no sandbox', { skip: why || false, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-podnet-'));
  const bin = join(dir, 'cni');
  mkdirSync(bin);
  const calls = join(dir, 'calls');
  writeFileSync(join(bin, 'bridge'), `#!/bin/sh
cat > /dev/null
echo "$CNI_COMMAND $CNI_IFNAME $CNI_NETNS" >> ${calls}
[ "$CNI_COMMAND" = ADD ] && { echo '{"code":11,"msg":"failed to allocate","details":"range full"}'; exit 1; }
exit 0
`);
  chmodSync(join(bin, 'bridge'), 0o755);
  const sock = join(dir, 'cri.sock');
  const rt = await startRuntime({ socketPath: sock, rootDir: join(dir, 'root'), logger: jsonLogger(() => undefined), shutdownGraceMs: 500, cniBinDir: bin });
  const c = criClients(sock);
  try {
    await assert.rejects(c.rt.RunPodSandbox({ config: sandboxConfig('failpod', join(dir, 'logs')) }), (err: Error) => {
      assert.match(err.message, /^2 UNKNOWN: failed to setup network for sandbox "[0-9a-f]+": plugin type="bridge" name="nodelet-embedded" failed \(add\): failed to allocate: range full$/);
      return true;
    });
    const lines = readFileSync(calls, 'utf8').trim().split('\n');
    assert.deepEqual(lines.map((l) => l.split(' ').slice(0, 2).join(' ')), ['ADD eth0', 'DEL eth0'], 'a failed ADD is undone');
    const netns = lines[0]!.split(' ')[2]!;
    assert.match(netns, /^\/proc\/\d+\/ns\/net$/);
    assert.equal((await c.rt.ListPodSandbox({})).items.length, 0);
    await until(() => !existsSync(netns.replace('/ns/net', '')), 'the holder to be gone');
  } finally {
    c.close();
    await rt.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
