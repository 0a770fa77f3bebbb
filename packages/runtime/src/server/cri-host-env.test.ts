/**
 * Integration (root, host image): the pod's environment reaches only the container's command. The host-side
 * helpers that start it, exec into it or stream to it (nsenter, unshare, setpriv, sh, mount, mkdir...) run with
 * the runtime's own fixed environment, so a pod's LD_PRELOAD / LD_AUDIT / LD_LIBRARY_PATH never loads code
 * into them (testing/ld-canary.ts: no canary line may come from a process whose root is the host's). The
 * container commands run the host's static busybox, which loads no library itself.
 * Run: node --import tsx --test packages/runtime/src/server/cri-host-env.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCriLog } from '../streaming/attach-session.ts';
import { ERROR, STDOUT } from '../streaming/channel-protocol.ts';
import { openChannelSession } from '../streaming/testing/channel-client.ts';
import { containerConfig, sandboxConfig, startInProcess, until, type Harness } from '../testing/harness.ts';
import { buildLdCanary, hasGcc, type LdCanary } from '../testing/ld-canary.ts';

const BUSYBOX = '/bin/busybox';
const missing = [process.getuid?.() !== 0 && 'root', !hasGcc() && 'gcc', !existsSync(BUSYBOX) && 'busybox-static']
  .filter((x): x is string => !!x);
if (missing.length > 0 && process.env.CI === 'true') throw new Error(`host-env test cannot run under CI: no ${missing.join(', ')}`);
const skip = missing.length > 0 && `needs ${missing.join(', ')}`;

let h: Harness;
let logDir: string;
let canary: LdCanary;
let so: string;

before(async () => {
  if (skip) return;
  h = await startInProcess();
  logDir = join(h.dir, 'logs');
  canary = buildLdCanary(join(h.dir, 'canary'));
  so = canary.so;
});
after(async () => {
  await h?.cleanup();
});

async function runPod(name: string): Promise<{ id: string; config: object }> {
  const config = sandboxConfig(name, logDir);
  return { id: (await h.rt.RunPodSandbox({ config })).podSandboxId as string, config };
}

async function start(pod: { id: string; config: object }, name: string, cmd: string[], extra: Record<string, unknown>): Promise<string> {
  const { containerId } = await h.rt.CreateContainer({ podSandboxId: pod.id, config: containerConfig(name, cmd, extra), sandboxConfig: pod.config });
  await h.rt.StartContainer({ containerId });
  return containerId as string;
}

async function exitedLog(id: string, name: string): Promise<string> {
  await until(async () => (await h.rt.ContainerStatus({ containerId: id })).status.state === 'CONTAINER_EXITED', `${name} to exit`);
  return parseCriLog(readFileSync(join(logDir, name, '0.log'), 'utf8')).pieces.map((p) => p.text).join('');
}

// All pods share one log directory: container names are unique in this file.

const hostHits = () => canary.hostHits();

// KeyValue.value is bytes in this repo's api.proto (wire-compatible with upstream's string).
const envsOf = (env: Record<string, string>) => Object.entries(env).map(([key, value]) => ({ key, value: Buffer.from(value) }));
// The CRI log ends the last (unterminated) piece with a newline of its own.
const environ = (text: string) => text.replace(/\0\n$/, '\0').split('\0').filter(Boolean).sort();

test('LD_PRELOAD / LD_AUDIT / LD_LIBRARY_PATH of a pod load nothing into host helpers (start, ExecSync, streaming exec)', { skip }, async () => {
  const pod = await runPod('preload');
  const variants: Array<[string, Record<string, string>]> = [
    ['preload', { LD_PRELOAD: so }],
    ['audit', { LD_AUDIT: so }],
    ['libpath', { LD_LIBRARY_PATH: canary.libDir }],
  ];
  for (const [name, env] of variants) {
    const id = await start(pod, name, [BUSYBOX, 'sh', '-c', 'echo up; exec sleep 1000'], { envs: envsOf(env) });
    await until(() => existsSync(join(logDir, name, '0.log')) && readFileSync(join(logDir, name, '0.log'), 'utf8').includes('up'), `${name} up`);
    const r = await h.rt.ExecSync({ containerId: id, cmd: [BUSYBOX, 'echo', 'probed'], timeout: 10 });
    assert.equal(r.stdout.toString(), 'probed\n', name);
    assert.equal(r.stderr.toString(), '', name);
    const { url } = await h.rt.Exec({ containerId: id, cmd: [BUSYBOX, 'echo', 'streamed'], stdout: true, stderr: true });
    const s = await openChannelSession(url.replace(/^http:/, 'ws:'), ['v5.channel.k8s.io']);
    await s.closed;
    assert.equal(s.text(STDOUT), 'streamed\n', name);
    assert.equal(JSON.parse(s.text(ERROR)).status, 'Success', name);
    assert.deepEqual(hostHits(), [], `${name}: code ran in host helpers`);
  }
  // tty: the container and an exec run under util-linux script on a pty
  const tty = await start(pod, 'tty', [BUSYBOX, 'sh', '-c', 'echo up; exec sleep 1000'], { envs: envsOf({ LD_PRELOAD: so }), tty: true });
  await until(() => existsSync(join(logDir, 'tty', '0.log')) && readFileSync(join(logDir, 'tty', '0.log'), 'utf8').includes('up'), 'tty up');
  const { url } = await h.rt.Exec({ containerId: tty, cmd: [BUSYBOX, 'echo', 'on a tty'], tty: true, stdout: true });
  const s = await openChannelSession(url.replace(/^http:/, 'ws:'), ['v5.channel.k8s.io']);
  await s.closed;
  assert.equal(s.text(STDOUT), 'on a tty\r\n');
  assert.deepEqual(hostHits(), [], 'tty: code ran in host helpers');
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
  assert.deepEqual(hostHits(), []);
});

test('LD_PRELOAD=/nonexistent.so: no "cannot be preloaded" from host helpers in the log or exec output', { skip }, async () => {
  const pod = await runPod('nonexistent');
  const envs = envsOf({ LD_PRELOAD: '/nonexistent.so', LD_AUDIT: '/nonexistent-audit.so' });
  const id = await start(pod, 'gone', [BUSYBOX, 'sh', '-c', 'echo out; echo err >&2'], { envs });
  const log = await exitedLog(id, 'gone');
  assert.doesNotMatch(log, /cannot be (pre)?loaded/);
  assert.deepEqual(log.split('\n').filter(Boolean).sort(), ['err', 'out']);
  const live = await start(pod, 'gone-live', [BUSYBOX, 'sleep', '1000'], { envs });
  const r = await h.rt.ExecSync({ containerId: live, cmd: [BUSYBOX, 'sh', '-c', 'echo x'], timeout: 10 });
  assert.equal(r.stderr.toString(), '');
  assert.equal(r.stdout.toString(), 'x\n');
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

const ODD: Record<string, string> = {
  SPACES: 'a b  c ',
  QUOTES: `it's "quoted" \\ back`,
  SUBST: '$(touch /tmp/nodelet-subst) `id` ${HOME} $$',
  NEWLINES: 'line1\nline2\n',
  EQUALS: 'a=b=c',
  EMPTY: '',
  UNICODE: 'ünïcødé ✓ 日本',
  'my.dotted-name': 'odd but valid',
  '-i': 'looks like an option',
};

test('the container and its execs see exactly the pod env (odd values and names, the pod PATH)', { skip }, async () => {
  const pod = await runPod('exact');
  const env = { ...ODD, PATH: '/custom/bin:/bin' };
  const want = Object.entries({ ...env, HOSTNAME: 'exact' }).map(([k, v]) => `${k}=${v}`).sort();
  const id = await start(pod, 'environ', [BUSYBOX, 'cat', '/proc/self/environ'], { envs: envsOf(env) });
  assert.deepEqual(environ(await exitedLog(id, 'environ')), want);
  const noPath = await start(pod, 'imagepath', [BUSYBOX, 'cat', '/proc/self/environ'], { envs: envsOf({ A: '1' }) });
  assert.deepEqual(environ(await exitedLog(noPath, 'imagepath')), ['A=1', 'HOSTNAME=exact', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin']);
  const live = await start(pod, 'live', [BUSYBOX, 'sleep', '1000'], { envs: envsOf(env) });
  // right after StartContainer (a postStart hook's moment) the exec already runs in the container's root
  const early = await h.rt.ExecSync({ containerId: live, cmd: [BUSYBOX, 'cat', '/etc/hostname'], timeout: 10 });
  assert.equal(early.stdout.toString(), 'exact\n');
  const r = await h.rt.ExecSync({ containerId: live, cmd: [BUSYBOX, 'cat', '/proc/self/environ'], timeout: 10 });
  assert.deepEqual(environ(r.stdout.toString()), want);
  assert.equal(existsSync('/tmp/nodelet-subst'), false);
  // env(1) applies the env: a command name with "=" is refused clearly rather than taken for a variable
  await assert.rejects(h.rt.ExecSync({ containerId: live, cmd: ['A=B', 'x'], timeout: 10 }), /a command name with "=" cannot be run/);
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

test('an image without env(1): the same exact env through the host static busybox; bare command names still found', { skip }, async () => {
  const pod = await runPod('noenv');
  const blank = join(h.dir, 'blank');
  writeFileSync(blank, '', { mode: 0o644 });
  const mounts = [{ containerPath: '/usr/bin/env', hostPath: blank, readonly: true }];
  const id = await start(pod, 'noenv-environ', [BUSYBOX, 'cat', '/proc/self/environ'], { envs: envsOf(ODD), mounts });
  assert.deepEqual(environ(await exitedLog(id, 'noenv-environ')), Object.entries({ ...ODD, HOSTNAME: 'noenv', PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' }).map(([k, v]) => `${k}=${v}`).sort());
  // busybox's env would run its own applet for a bare name: the command's path (found along PATH) is argv[0]
  const bare = await start(pod, 'noenv-bare', ['busybox', 'cat', '/proc/self/cmdline'], { mounts });
  // cmdline ends without a newline: the log keeps it a partial (P) line, as containerd does, so none is added
  assert.match(await exitedLog(bare, 'noenv-bare'), /^\/usr\/(local\/)?s?bin\/busybox\0cat\0\/proc\/self\/cmdline\0$/);
  const live = await start(pod, 'noenv-live', [BUSYBOX, 'sleep', '1000'], { envs: envsOf({ LD_PRELOAD: so }), mounts });
  const r = await h.rt.ExecSync({ containerId: live, cmd: ['busybox', 'cat', '/proc/self/environ'], timeout: 10 });
  assert.equal(r.stderr.toString(), '');
  assert.deepEqual(environ(r.stdout.toString()), ['HOSTNAME=noenv', `LD_PRELOAD=${so}`, 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin']);
  // as another user: the fd and the busybox are reachable after the switch
  const user = { linux: { securityContext: { runAsUser: { value: 65534 }, runAsGroup: { value: 65534 }, namespaceOptions: { pid: 'CONTAINER' } } } };
  const nobody = await start(pod, 'noenv-nobody', [BUSYBOX, 'sh', '-c', 'id -u; exec sleep 1000'], { envs: envsOf({ A: 'b c' }), mounts, ...user });
  await until(() => existsSync(join(logDir, 'noenv-nobody', '0.log')) && readFileSync(join(logDir, 'noenv-nobody', '0.log'), 'utf8').includes('65534'), 'nobody up');
  const asNobody = await h.rt.ExecSync({ containerId: nobody, cmd: [BUSYBOX, 'sh', '-c', 'echo "$(id -u) $A"; ls /proc/self/fd'], timeout: 10 });
  const [who, ...fds] = asNobody.stdout.toString().trim().split('\n');
  assert.equal(who, '65534 b c');
  assert.ok(!fds.includes('9'), `no fd 9 left open: ${fds.join(' ')}`);
  assert.deepEqual(hostHits(), []);
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

test('a working dir climbing out of the root stays inside the container', { skip }, async () => {
  const pod = await runPod('wd');
  const name = `nodelet-wd-escape-${process.pid}`;
  const id = await start(pod, 'wd', [BUSYBOX, 'pwd'], { workingDir: `/${'../'.repeat(12)}tmp/${name}` });
  assert.equal(await exitedLog(id, 'wd'), `/tmp/${name}\n`);
  assert.equal(existsSync(`/tmp/${name}`), false, 'no directory made on the host');
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

test('a mount path with a newline or tab cannot forge another mount; relative paths are refused', { skip }, async () => {
  const pod = await runPod('mounts');
  const data = join(h.dir, 'mount-src');
  mkdirSync(data);
  const cases = [
    { containerPath: '/x\nrw\t/etc\t/hostetc', hostPath: data },
    { containerPath: '/x', hostPath: `${data}\trw` },
    { containerPath: 'relative', hostPath: data },
    { containerPath: '/x', hostPath: '-o' },
  ];
  for (const m of cases) {
    await assert.rejects(
      h.rt.CreateContainer({ podSandboxId: pod.id, config: containerConfig('forged', [BUSYBOX, 'ls', '/hostetc'], { mounts: [m] }), sandboxConfig: pod.config }),
      /INVALID_ARGUMENT.*must be absolute, without tabs or newlines/,
      JSON.stringify(m),
    );
  }
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

test('a mount point under a volume is made inside the root even through a symlink the pod planted there', { skip }, async () => {
  const pod = await runPod('planted');
  const vol = join(h.dir, 'planted-vol');
  const hostSide = join(h.dir, 'host-side');
  const other = join(h.dir, 'planted-other');
  for (const d of [vol, hostSide, other]) mkdirSync(d);
  symlinkSync(hostSide, join(vol, 'sub')); // what a container of the pod can do in its emptyDir
  const mounts = [{ containerPath: '/data', hostPath: vol }, { containerPath: '/data/sub/x', hostPath: other }];
  const id = await start(pod, 'planted', [BUSYBOX, 'true'], { mounts });
  await exitedLog(id, 'planted');
  assert.equal(existsSync(join(hostSide, 'x')), false, 'no mount point made on the host through the symlink');
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});
