// Pod scenarios: phases, init order, restart policies, CrashLoopBackOff, exit reasons, logs, ExecSync, networking,
// image pulls. All pods are written at once (the agent starts them side by side), then each test waits for its own.
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { before, describe, it } from 'node:test';
import type { V1PodSpec } from '@kubernetes/client-node';
import type { SuiteContext } from './suite-context.ts';
import { findCniBinDir } from '@nodelet/runtime';
import { bareId, containerStatus as cs, ctr, logs, waitPod, writePod } from './pods.ts';

const LOOP = 'while true; do sleep 0.2; done';

function pods(img: string, registry: string | undefined): Record<string, V1PodSpec> {
  const out: Record<string, V1PodSpec> = {
    job: { restartPolicy: 'Never', containers: [ctr('work', img, 'echo computing; echo done')] },
    'fail-never': { restartPolicy: 'Never', containers: [ctr('work', img, 'echo oops >&2; exit 3')] },
    'onfailure-ok': { restartPolicy: 'OnFailure', containers: [ctr('work', img, 'exit 0')] },
    'onfailure-bad': { restartPolicy: 'OnFailure', containers: [ctr('work', img, 'exit 2')] },
    'always-zero': { restartPolicy: 'Always', containers: [ctr('work', img, 'sleep 0.3; exit 0')] },
    crash: { restartPolicy: 'Always', containers: [ctr('crash', img, 'echo starting; echo boom >&2; exit 1')] },
    init: {
      restartPolicy: 'Always',
      initContainers: [ctr('i1', img, 'sleep 1; echo one'), ctr('i2', img, 'echo two')],
      containers: [ctr('app', img, LOOP)],
    },
    oom: {
      restartPolicy: 'Never',
      containers: [ctr('hog', img, 'tail /dev/zero', { resources: { limits: { memory: '32Mi' }, requests: { memory: '32Mi' } } })],
    },
    starterr: { restartPolicy: 'Never', containers: [{ name: 'bad', image: img, imagePullPolicy: 'IfNotPresent', command: ['/no/such/binary'] }] },
    talk: {
      restartPolicy: 'Always',
      containers: [ctr('talk', img, 'echo out1; echo err1 >&2; echo out2; echo out3; ' + LOOP), ctr('ticker', img, 'i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.2; done')],
    },
    net: { restartPolicy: 'Always', containers: [ctr('c', img, `cat /proc/net/dev; ${LOOP}`)] },
    hostnet: { restartPolicy: 'Always', hostNetwork: true, containers: [ctr('c', img, `cat /proc/net/dev; ${LOOP}`)] },
  };
  if (registry) {
    out['pull-always'] = { restartPolicy: 'Always', containers: [{ ...ctr('c', `${registry}/busybox:latest`, LOOP), imagePullPolicy: 'Always' }] };
    out['pull-never'] = { restartPolicy: 'Always', containers: [{ ...ctr('c', `${registry}/busybox:absent`, LOOP), imagePullPolicy: 'Never' }] };
    out['pull-missing'] = { restartPolicy: 'Always', containers: [{ ...ctr('c', `${registry}/busybox:absent`, LOOP), imagePullPolicy: 'IfNotPresent' }] };
  }
  return out;
}

export function definePodScenarios(ctx: SuiteContext): void {
  describe('pods', () => {
    before(() => {
      for (const [name, spec] of Object.entries(pods(ctx.rt.image, ctx.rt.registry))) writePod(ctx.agent, name, { terminationGracePeriodSeconds: 2, ...spec });
    });

    it('phases: Succeeded, Failed, Running', async () => {
      const a = ctx.agent;
      await waitPod(a, 'job', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
      await waitPod(a, 'fail-never', 'Failed', (p) => p.status?.phase === 'Failed');
      await waitPod(a, 'onfailure-ok', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
      await waitPod(a, 'init', 'Running', (p) => p.status?.phase === 'Running');
    });

    it('exit codes and reasons: Completed, Error, OOMKilled, StartError', async () => {
      const a = ctx.agent;
      const cases = [
        { pod: 'job', c: 'work', reason: 'Completed', code: 0 },
        { pod: 'fail-never', c: 'work', reason: 'Error', code: 3 },
        { pod: 'oom', c: 'hog', reason: 'OOMKilled', code: 137 },
        { pod: 'starterr', c: 'bad', reason: 'StartError', code: 128 },
      ];
      for (const k of cases) {
        const p = await waitPod(a, k.pod, `terminated ${k.reason}`, (x) => cs(x, k.c)?.state?.terminated !== undefined, 60_000);
        const t = cs(p, k.c)?.state?.terminated;
        assert.deepEqual({ reason: t?.reason, exitCode: t?.exitCode }, { reason: k.reason, exitCode: k.code }, k.pod);
      }
    });

    it('init containers run in order, each to completion, before the app', async () => {
      const p = await waitPod(ctx.agent, 'init', 'app running', (x) => Boolean(cs(x, 'app')?.state?.running));
      const i1 = cs(p, 'i1', true)?.state?.terminated;
      const i2 = cs(p, 'i2', true)?.state?.terminated;
      assert.equal(i1?.reason, 'Completed');
      assert.equal(i2?.reason, 'Completed');
      assert.ok(new Date(String(i2?.startedAt)).getTime() >= new Date(String(i1?.finishedAt)).getTime() - 1000, 'i2 started after i1 finished');
      const app = cs(p, 'app')?.state?.running;
      assert.ok(new Date(String(app?.startedAt)).getTime() >= new Date(String(i2?.finishedAt)).getTime() - 1000, 'app after i2');
      assert.equal((await logs(ctx.agent, 'init', 'i1')).body.trim(), 'one');
    });

    it('restart policies: OnFailure restarts failures, Always restarts exits, Never does not', async () => {
      const a = ctx.agent;
      await waitPod(a, 'onfailure-bad', 'restarted', (p) => (cs(p, 'work')?.restartCount ?? 0) >= 1);
      await waitPod(a, 'always-zero', 'restarted', (p) => (cs(p, 'work')?.restartCount ?? 0) >= 1);
      for (const pod of ['onfailure-ok', 'fail-never', 'job']) {
        const p = await waitPod(a, pod, 'terminated', (x) => cs(x, 'work')?.state?.terminated !== undefined);
        assert.equal(cs(p, 'work')?.restartCount, 0, pod);
      }
    });

    it('CrashLoopBackOff on the shortened back-off', async () => {
      const p = await waitPod(ctx.agent, 'crash', 'CrashLoopBackOff after 2 restarts', (x) => {
        const c = cs(x, 'crash');
        return (c?.restartCount ?? 0) >= 2 && c?.state?.waiting?.reason === 'CrashLoopBackOff';
      }, 45_000);
      const c = cs(p, 'crash');
      assert.match(c?.state?.waiting?.message ?? '', /back-off \d+s restarting failed container=crash/);
      assert.deepEqual([c?.lastState?.terminated?.reason, c?.lastState?.terminated?.exitCode], ['Error', 1]);
    });

    it('/containerLogs: both streams, tail, timestamps, previous, follow', async () => {
      const a = ctx.agent;
      await waitPod(a, 'talk', 'running', (p) => Boolean(cs(p, 'talk')?.state?.running));
      await new Promise((r) => setTimeout(r, 300));
      const all = (await logs(a, 'talk', 'talk')).body.trim().split('\n');
      assert.deepEqual([...all].sort(), ['err1', 'out1', 'out2', 'out3']);
      assert.deepEqual((await logs(a, 'talk', 'talk', 'tailLines=2')).body.trim().split('\n').length, 2);
      const ts = (await logs(a, 'talk', 'talk', 'timestamps=true')).body.trim().split('\n');
      for (const l of ts) assert.match(l, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z (out\d|err1)$/);
      await waitPod(a, 'crash', 'restarted', (p) => (cs(p, 'crash')?.restartCount ?? 0) >= 1);
      const prev = await logs(a, 'crash', 'crash', 'previous=true');
      assert.equal(prev.status, 200);
      assert.deepEqual(prev.body.trim().split('\n').sort(), ['boom', 'starting']);
      const follow = await followFor(ctx, 'talk', 'ticker', 4, 20_000);
      const ticks = follow.split('\n').filter((l) => l.startsWith('tick'));
      assert.ok(ticks.length >= 4, `follow streamed new lines: ${JSON.stringify(follow.slice(-200))}`);
    });

    it('ExecSync: stdout, stderr, exit code', async () => {
      const p = await waitPod(ctx.agent, 'talk', 'running', (x) => Boolean(cs(x, 'talk')?.state?.running));
      const id = bareId(cs(p, 'talk')?.containerID);
      const r = await ctx.cri.execSync({ containerId: id, cmd: ['sh', '-c', 'echo out; echo err >&2; exit 3'], timeout: 10 });
      assert.deepEqual([Buffer.from(r.stdout).toString(), Buffer.from(r.stderr).toString(), r.exitCode], ['out\n', 'err\n', 3]);
    });

    it('pod network and hostNetwork', async () => {
      const a = ctx.agent;
      const net = await waitPod(a, 'net', 'running', (p) => Boolean(cs(p, 'c')?.state?.running));
      const host = await waitPod(a, 'hostnet', 'running', (p) => Boolean(cs(p, 'c')?.state?.running));
      const ifaces = async (pod: string) =>
        (await logs(a, pod, 'c')).body.split('\n').slice(2).map((l) => l.split(':')[0]?.trim()).filter((x): x is string => Boolean(x));
      const hostIfaces = Object.keys(networkInterfaces()).filter((n) => n !== 'lo');
      const hn = await ifaces('hostnet');
      assert.ok(hostIfaces.some((n) => hn.includes(n)), `hostNetwork pod sees the host's interfaces: ${hn.join(',')}`);
      const pn = await ifaces('net');
      // Both runtimes: a hostNetwork pod has the node's IP (containerd reports none; the kubelet fills it in), and
      // every pod carries the node's IP as hostIP.
      const nodeIps = Object.values(networkInterfaces()).flat().map((x) => x?.address);
      assert.ok(host.status?.podIP && nodeIps.includes(host.status.podIP), `hostNetwork pod IP ${host.status?.podIP} is a node address`);
      assert.equal(host.status?.podIP, host.status?.hostIP);
      assert.equal(net.status?.hostIP, host.status?.hostIP);
      if (ctx.rt.name === 'containerd') {
        assert.deepEqual([...pn].sort(), ['eth0', 'lo']);
        assert.match(net.status?.podIP ?? '', /^10\.88\./);
        assert.notEqual(host.status?.podIP, net.status?.podIP);
      } else if (process.getuid?.() === 0 && findCniBinDir()) {
        assert.deepEqual([...pn].sort(), ['eth0', 'lo'], 'the embedded runtime as root with CNI plugins: a bridge veth');
        assert.match(net.status?.podIP ?? '', /^10\.89\./);
      } else {
        assert.deepEqual(pn, ['lo'], 'the embedded runtime without root or CNI plugins: a private netns with loopback only');
        assert.equal(net.status?.podIP, undefined);
      }
    });

    it('image pulls from the loopback registry: Always, Never, IfNotPresent', async (t) => {
      const a = ctx.agent;
      if (!ctx.rt.registry) return t.skip('no loopback registry for this runtime');
      await waitPod(a, 'pull-always', 'running after a pull', (p) => Boolean(cs(p, 'c')?.state?.running));
      const never = await waitPod(a, 'pull-never', 'ErrImageNeverPull', (p) => cs(p, 'c')?.state?.waiting?.reason === 'ErrImageNeverPull');
      assert.match(cs(never, 'c')?.state?.waiting?.message ?? '', /pull policy of Never/);
      await waitPod(a, 'pull-missing', 'ErrImagePull or ImagePullBackOff', (p) =>
        ['ErrImagePull', 'ImagePullBackOff'].includes(cs(p, 'c')?.state?.waiting?.reason ?? ''));
    });
  });
}

async function followFor(ctx: SuiteContext, pod: string, container: string, lines: number, ms: number): Promise<string> {
  const { openStream } = await import('@nodelet/agent/testing');
  const url = `${ctx.agent.kubeletUrl}/containerLogs/conf/${pod}-${ctx.agent.nodeName}/${container}?follow=true&tailLines=1`;
  const s = await openStream(url, ctx.agent.tls());
  let text = '';
  s.res.setEncoding('utf8');
  // Until `lines` lines came (the tail line, then new ones as the container writes them), at most `ms`: on a loaded
  // machine the ticker writes slower than its 0.2 s sleep suggests.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    s.res.on('data', (c: string) => {
      text += c;
      if (text.split('\n').filter(Boolean).length >= lines) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  s.destroy();
  return text;
}
