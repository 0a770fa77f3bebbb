/**
 * Integration: the CRI server in this process, real sandboxes and containers (root, host image).
 * Run: node --import tsx --test packages/runtime/src/server/cri-runtime.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { containerConfig, sandboxConfig, startInProcess, until, type Harness } from '../testing/harness.ts';
import { findCniBinDir } from '../network/cni.ts';

let h: Harness;
let logDir: string;
before(async () => {
  h = await startInProcess();
  logDir = join(h.dir, 'logs');
});
after(async () => {
  await h?.cleanup();
});

async function runPod(name: string, extra: Record<string, unknown> = {}): Promise<{ id: string; config: object }> {
  const config = sandboxConfig(name, logDir, extra);
  const { podSandboxId } = await h.rt.RunPodSandbox({ config });
  return { id: podSandboxId as string, config };
}

async function runContainer(pod: { id: string; config: object }, name: string, cmd: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const { containerId } = await h.rt.CreateContainer({ podSandboxId: pod.id, config: containerConfig(name, cmd, extra), sandboxConfig: pod.config });
  await h.rt.StartContainer({ containerId });
  return containerId as string;
}

async function exited(id: string) {
  return until(async () => {
    const s = (await h.rt.ContainerStatus({ containerId: id })).status;
    return s.state === 'CONTAINER_EXITED' && s;
  }, `container ${id} to exit`);
}

const pidOf = async (id: string): Promise<number> =>
  JSON.parse((await h.rt.ContainerStatus({ containerId: id, verbose: true })).info.info).pid;

test('Version and Status', async () => {
  const v = await h.rt.Version({});
  assert.equal(v.runtimeName, 'nodelet-runtime');
  assert.equal(v.runtimeApiVersion, 'v1');
  const s = await h.rt.Status({});
  assert.deepEqual(s.status.conditions.map((c: { type: string; status: boolean }) => [c.type, c.status]), [['RuntimeReady', true], ['NetworkReady', true]]);
});

test('exit codes, reasons and CRI logs', async () => {
  const pod = await runPod('exits');
  const cases: Array<[string, string[], number, string]> = [
    ['fails', ['sh', '-c', 'echo hi; echo err >&2; exit 3'], 3, 'Error'],
    ['succeeds', ['sh', '-c', 'exit 0'], 0, 'Completed'],
  ];
  for (const [name, cmd, code, reason] of cases) {
    const id = await runContainer(pod, name, cmd);
    const st = await exited(id);
    assert.equal(st.exitCode, code, name);
    assert.equal(st.reason, reason, name);
    assert.ok(st.startedAt > 0 && st.finishedAt >= st.startedAt, name);
    assert.equal(st.logPath, join(logDir, name, '0.log'));
  }
  const lines = readFileSync(join(logDir, 'fails/0.log'), 'utf8').trim().split('\n').sort((a, b) => a.split(' ')[1]!.localeCompare(b.split(' ')[1]!));
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z stderr F err$/);
  assert.match(lines[1]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z stdout F hi$/);
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
  assert.equal((await h.rt.ListContainers({ filter: { podSandboxId: pod.id } })).containers.length, 0);
});

test('own PID namespace, sandbox hostname, shared network namespace', async () => {
  const pod = await runPod('nsdemo');
  const a = await runContainer(pod, 'a', ['sh', '-c', 'echo pid=$$ host=$(hostname); exec sleep 1000']);
  const b = await runContainer(pod, 'b', ['sleep', '1000']);
  const [pa, pb] = [await pidOf(a), await pidOf(b)];
  const line = await until(() => readFileSync(join(logDir, 'a/0.log'), 'utf8'), 'log of a');
  assert.match(line, /stdout F pid=1 host=nsdemo$/m);
  const ns = (pid: number, kind: string) => readlinkSync(`/proc/${pid}/ns/${kind}`);
  assert.equal(ns(pa, 'net'), ns(pb, 'net'), 'containers share the pod network namespace');
  assert.notEqual(ns(pa, 'net'), ns(process.pid, 'net'), 'pod network namespace is not the host one');
  assert.equal(ns(pa, 'uts'), ns(pb, 'uts'));
  assert.notEqual(ns(pa, 'pid'), ns(pb, 'pid'), 'each container has its own pid namespace');
  assert.notEqual(ns(pa, 'mnt'), ns(process.pid, 'mnt'));
  const sb = await h.rt.PodSandboxStatus({ podSandboxId: pod.id });
  assert.equal(sb.status.state, 'SANDBOX_READY');
  // Root with the CNI plugins: a bridge address (network/pod-network.ts); else loopback only.
  if (findCniBinDir() && process.getuid?.() === 0) assert.match(sb.status.network.ip, /^10\.89\./);
  else assert.equal(sb.status.network.ip, '');
  assert.equal(sb.containersStatuses.length, 2);
  await h.rt.StopPodSandbox({ podSandboxId: pod.id });
  assert.equal(existsSync(`/proc/${pa}`) || existsSync(`/proc/${pb}`), false, 'StopPodSandbox kills its containers');
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

test('StopContainer: timeout then SIGKILL, or a prompt exit when the signal is handled', async () => {
  const pod = await runPod('stopper');
  const ignores = await runContainer(pod, 'ignores', ['sleep', '1000']);
  const handles = await runContainer(pod, 'handles', ['sh', '-c', 'trap "exit 143" TERM; while :; do sleep 0.05; done']);
  await new Promise((r) => setTimeout(r, 200));
  let t = Date.now();
  await h.rt.StopContainer({ containerId: ignores, timeout: 1 });
  const slow = Date.now() - t;
  assert.ok(slow >= 900 && slow < 5000, `PID 1 ignoring SIGTERM is killed after the timeout (${slow} ms)`);
  assert.equal((await exited(ignores)).exitCode, 137);
  t = Date.now();
  await h.rt.StopContainer({ containerId: handles, timeout: 10 });
  assert.ok(Date.now() - t < 3000, 'a handled SIGTERM stops promptly');
  assert.equal((await exited(handles)).exitCode, 143);
  await assert.rejects(h.rt.StopContainer({ containerId: 'nope', timeout: 1 }), /NOT_FOUND|not found/);
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

test('ExecSync: output, exit code, namespaces, timeout', async () => {
  const pod = await runPod('execer');
  const id = await runContainer(pod, 'main', ['sleep', '1000']);
  const r = await h.rt.ExecSync({ containerId: id, cmd: ['sh', '-c', 'echo out $(hostname); echo err >&2; exit 2'], timeout: 10 });
  assert.equal(r.stdout.toString(), 'out execer\n');
  assert.equal(r.stderr.toString(), 'err\n');
  assert.equal(r.exitCode, 2);
  const ps = await h.rt.ExecSync({ containerId: id, cmd: ['sh', '-c', 'cat /proc/1/cmdline | tr "\\0" " "'], timeout: 10 });
  assert.equal(ps.stdout.toString(), 'sleep 1000 ', 'exec joins the container pid namespace');
  const t = Date.now();
  await assert.rejects(h.rt.ExecSync({ containerId: id, cmd: ['sleep', '30'], timeout: 1 }), /deadline exceeded/i);
  assert.ok(Date.now() - t < 5000);
  await assert.rejects(h.rt.ExecSync({ containerId: id, cmd: ['nope'], timeout: 5 }), /executable file not found/);
  // an exec runs as the container's user with its supplementary groups (runc: the process's additionalGids)
  // (runAsGroup set: without it the gid is that of uid 1000 in the host's /etc/passwd, else 0, as containerd's WithUserID)
  const sc = { runAsUser: { value: 1000 }, runAsGroup: { value: 1000 }, supplementalGroups: [1001, 2000], namespaceOptions: { pid: 'CONTAINER' } };
  const asUser = await runContainer(pod, 'exec-groups', ['sleep', '1000'], { linux: { securityContext: sc } });
  const groups = await h.rt.ExecSync({ containerId: asUser, cmd: ['id', '-G'], timeout: 10 });
  assert.equal(groups.stdout.toString(), '1000 1001 2000\n');
  // ContainerStatus reports the process's user: uid, gid and its groups (the gid first, as containerd's additionalGids)
  const user = (await h.rt.ContainerStatus({ containerId: asUser })).status.user?.linux;
  assert.deepEqual({ uid: Number(user?.uid), gid: Number(user?.gid), groups: user?.supplementalGroups.map(Number) }, { uid: 1000, gid: 1000, groups: [1000, 1001, 2000] });
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

test('missing command: StartError 128', async () => {
  const pod = await runPod('missing');
  const { containerId } = await h.rt.CreateContainer({ podSandboxId: pod.id, config: containerConfig('nope', ['nope']), sandboxConfig: pod.config });
  await assert.rejects(h.rt.StartContainer({ containerId }), (err: { code: number; details: string }) => {
    assert.equal(err.code, 2); // UNKNOWN
    assert.match(err.details, /failed to create containerd task: .*exec: "nope": executable file not found in \$PATH/);
    return true;
  });
  const st = (await h.rt.ContainerStatus({ containerId })).status;
  assert.equal(st.state, 'CONTAINER_EXITED');
  assert.equal(st.exitCode, 128);
  assert.equal(st.reason, 'StartError');
  assert.match(st.message, /executable file not found/);
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

test('error codes: unknown ids, duplicate names, absent image', async () => {
  await assert.rejects(h.rt.ContainerStatus({ containerId: 'unknown' }), /NOT_FOUND/);
  await assert.rejects(h.rt.PodSandboxStatus({ podSandboxId: 'unknown' }), /NOT_FOUND/);
  await assert.rejects(h.rt.StopPodSandbox({ podSandboxId: 'unknown' }), /NOT_FOUND/);
  await h.rt.RemovePodSandbox({ podSandboxId: 'unknown' });
  const pod = await runPod('dups');
  await h.rt.CreateContainer({ podSandboxId: pod.id, config: containerConfig('x', ['true']), sandboxConfig: pod.config });
  await assert.rejects(
    h.rt.CreateContainer({ podSandboxId: pod.id, config: containerConfig('x', ['true']), sandboxConfig: pod.config }),
    /UNKNOWN.*failed to reserve container name/,
  );
  await assert.rejects(
    h.rt.CreateContainer({ podSandboxId: pod.id, config: containerConfig('y', ['true'], { image: { image: 'absent.example/none:1' } }), sandboxConfig: pod.config }),
    /NOT_FOUND/,
  );
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

test('container spec: working dir, run-as user, CRI mounts, shared pod pid namespace', async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const data = join(h.dir, 'data');
  mkdirSync(data);
  writeFileSync(join(data, 'in'), 'from-host');
  const escapee = `nodelet-escape-${process.pid}`;
  const pod = await runPod('spec', { linux: { securityContext: { namespaceOptions: { pid: 'POD' } }, sysctls: { 'net.ipv4.ip_unprivileged_port_start': '80', 'net.ipv4.ip_local_port_range': '1024 65535' } } });
  const cases: Array<[string, string, Record<string, unknown>, RegExp]> = [
    ['wd', 'pwd', { workingDir: '/tmp' }, /^\/tmp$/],
    ['user', 'echo $(id -u):$(id -g)', { linux: { securityContext: { runAsUser: { value: 65534 }, runAsGroup: { value: 65534 }, namespaceOptions: { pid: 'CONTAINER' } } } }, /^65534:65534$/],
    // CRI supplementalGroups (the kubelet puts fsGroup first) are the process's groups; without them none are kept
    ['groups', 'id -G', { linux: { securityContext: { runAsUser: { value: 1000 }, runAsGroup: { value: 1000 }, supplementalGroups: [1001, 2000], namespaceOptions: { pid: 'CONTAINER' } } } }, /^1000 1001 2000$/],
    // a uid the image's /etc/passwd lacks gets gid 0 and no other group (containerd's WithUserID / WithAdditionalGIDs)
    ['nogroups', 'echo $(id -u) $(id -G)', { linux: { securityContext: { runAsUser: { value: 4242 }, namespaceOptions: { pid: 'CONTAINER' } } } }, /^4242 0$/],
    ['rw', 'cat /data/in && echo out > /data/out && echo wrote', { mounts: [{ containerPath: '/data', hostPath: data }] }, /^from-hostwrote$/m],
    ['ro', 'echo x > /data/ro-test || echo refused', { mounts: [{ containerPath: '/data', hostPath: data, readonly: true }] }, /refused$/],
    // /var/run is a symlink to /run: the mount point resolves inside the root, never on the host's /run
    ['linked', `cat /var/run/${escapee}/in 2>/dev/null || echo skipped`, { mounts: [{ containerPath: `/var/run/${escapee}`, hostPath: data }] }, /^(from-host|skipped)$/],
    ['podpid', 'tr "\\0" " " < /proc/1/cmdline', { linux: { securityContext: { namespaceOptions: { pid: 'POD' } } } }, /catatonit|sleep/],
    ['hostname', 'cat /etc/hostname; echo $HOSTNAME', {}, /^spec$\n.*spec$/m],
    ['caps', 'grep CapBnd /proc/self/status; mount -t tmpfs t /tmp 2>/dev/null || echo no-mount; (echo 1 > /proc/sys/vm/drop_caches) 2>/dev/null || echo ro-sys',
      {}, /^CapBnd:\s+00000000a80425fb$\n^no-mount$\n^ro-sys$/m],
    ['sysctl', 'cat /proc/sys/net/ipv4/ip_unprivileged_port_start', {}, /^80$/],
    // a value with a space is one value (runc writes it whole): the kernel echoes the range tab-separated
    ['sysctlspace', 'cat /proc/sys/net/ipv4/ip_local_port_range', {}, /^1024\t65535$/],
    ['oomadj', 'cat /proc/self/oom_score_adj', { linux: { resources: { oomScoreAdj: 1000 }, securityContext: { namespaceOptions: { pid: 'CONTAINER' } } } }, /^1000$/],
    // CRI maskedPaths / readonlyPaths: none sent → containerd's defaults (files read as /dev/null, directories empty)
    ['masked', 'wc -c < /proc/timer_list; ls -A /sys/firmware | wc -l; (echo x > /proc/sysrq-trigger) 2>/dev/null || echo ro-sysrq', {}, /^0\n0\nro-sysrq$/],
    ['ownmasks', 'wc -c < /proc/cpuinfo; head -c 1 /proc/timer_list | wc -c',
      { linux: { securityContext: { maskedPaths: ['/proc/cpuinfo'], readonlyPaths: ['/proc/sys'], namespaceOptions: { pid: 'CONTAINER' } } } }, /^0\n1$/],
    // CRI seccomp RuntimeDefault: the process runs in filter mode (seccomp/seccomp.test.ts checks what it refuses)
    ['seccomp', 'grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status', { linux: { securityContext: { seccomp: { profileType: 'RuntimeDefault' }, namespaceOptions: { pid: 'CONTAINER' } } } }, /^NoNewPrivs:\s+0\nSeccomp:\s+2$/],
    ['unconfined', 'grep "^Seccomp:" /proc/self/status', { linux: { securityContext: { seccomp: { profileType: 'Unconfined' }, namespaceOptions: { pid: 'CONTAINER' } } } }, /^Seccomp:\s+0$/],
    ['privileged', 'grep CapBnd /proc/self/status', { linux: { securityContext: { privileged: true, namespaceOptions: { pid: 'CONTAINER' } } } }, /^CapBnd:\s+0{5}1fff/m],
  ];
  for (const [name, script, extra, want] of cases) {
    const id = await runContainer(pod, name, ['sh', '-c', script], extra);
    const st = await exited(id);
    const out = readFileSync(join(logDir, name, '0.log'), 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ').slice(3).join(' ')).join('\n');
    assert.equal(st.exitCode, 0, `${name}: ${out}`);
    assert.match(out, want, name);
  }
  assert.equal(readFileSync(join(data, 'out'), 'utf8'), 'out\n');
  assert.equal(existsSync(join(data, 'ro-test')), false);
  assert.equal(existsSync(`/run/${escapee}`), false, 'no mount point created on the host through /var/run');
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});

test('ReopenContainerLog: after rotation output goes to a fresh file at log_path', async () => {
  const { renameSync } = await import('node:fs');
  const pod = await runPod('rotate');
  const id = await runContainer(pod, 'ticker', ['sh', '-c', 'i=0; while :; do i=$((i+1)); echo tick $i; sleep 0.05; done']);
  const path = join(logDir, 'ticker/0.log');
  await until(() => existsSync(path) && readFileSync(path, 'utf8').includes('tick 2'), 'first lines');
  renameSync(path, `${path}.1`);
  await h.rt.ReopenContainerLog({ containerId: id });
  await until(() => existsSync(path) && readFileSync(path, 'utf8').split('\n').length > 2, 'lines in the new file');
  const old = readFileSync(`${path}.1`, 'utf8').trim().split('\n');
  const fresh = readFileSync(path, 'utf8').trim().split('\n');
  const n = (l: string) => Number(l.split(' ').pop());
  assert.ok(n(fresh[0]!) > n(old[old.length - 1]!), 'the new file continues where the rotated one ended');
  await assert.rejects(h.rt.ReopenContainerLog({ containerId: 'unknown' }), /NOT_FOUND/);
  await h.rt.RemovePodSandbox({ podSandboxId: pod.id });
});
