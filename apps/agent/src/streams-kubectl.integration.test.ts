/**
 * The real `kubectl` (SPDY/3.1 and WebSocket clients) through the API server TEST DOUBLE → a real agent on
 * 10250 → the embedded runtime's CRI streaming server: `kubectl port-forward` + an HTTP GET through it,
 * `kubectl exec` (plain, -i with stdin, -t with a pty), `kubectl attach -i` to a container created with stdin, and
 * `kubectl logs --previous` of a crash-looping container (the double proxies pods/log to the kubelet's containerLogs).
 * Skipped (with the reason) when /usr/bin/kubectl is absent.
 * Run: node --import tsx --test apps/agent/src/streams-kubectl.integration.test.ts
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { get } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { ApiServerDouble } from '@nodelet/apiserver-double';
import { startApiNode } from './testing/api-node.ts';
import type { NodeAgent } from './testing/cluster-node.ts';
import { eventually, freePort } from './testing/processes.ts';

const KUBECTL = '/usr/bin/kubectl';
const skip = !existsSync(KUBECTL) && 'kubectl is not installed';
const HTTP = "require('node:http').createServer((q, s) => s.end('hello from ' + q.url)).listen(8080, '127.0.0.1')";
const ECHO = 'while read -r l; do echo "got $l"; done; echo "stdin closed"';
const TERM = 'tty; while read -r l; do echo "got $l"; stty size; done';
// Counts its instances in an emptyDir (kept across restarts), says which one it is, and fails.
const CRASH = 'n=$(cat /d/n 2>/dev/null || echo 0); n=$((n+1)); echo $n > /d/n; echo "crash instance $n"; echo exiting; exit 3';

let api: ApiServerDouble;
let n: NodeAgent;

/** kubectl 1.32 speaks WebSocket (v5.channel.k8s.io; port-forward: SPDY tunnelled in WebSocket) unless told not to. */
const TRANSPORTS = [
  { name: 'WebSocket', env: {} },
  { name: 'SPDY/3.1', env: { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false', KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' } },
] as const;

function kubectl(args: string[], input = '', env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const c = execFile(KUBECTL, ['--kubeconfig', api.adminKubeconfig(), ...args], { timeout: 60_000, env: { ...process.env, ...env } }, (e, out, err) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? -1) : 0, out, err }));
    c.stdin?.end(input);
  });
}

describe('kubectl against the API server double and the embedded runtime', { skip, timeout: 240_000 }, () => {
  before(async () => {
    ({ api, agent: n } = await startApiNode('node-k', { staticPod: false, trustApiServerCa: true, args: () => ['--cgroups-per-qos=false'] }));
    const image = { image: 'nodelet.local/host:latest', imagePullPolicy: 'Never' };
    api.store.create({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' },
      spec: { nodeName: 'node-k', terminationGracePeriodSeconds: 1, containers: [
        { name: 'c', ...image, command: ['node', '-e', HTTP] },
        { name: 'term', ...image, command: ['sh', '-c', TERM], stdin: true, tty: true },
        ...TRANSPORTS.map((_, i) => ({ name: `echo${i}`, ...image, command: ['sh', '-c', ECHO], stdin: true, stdinOnce: true })),
      ] },
    });
    api.store.create({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'crash', namespace: 'default' },
      spec: { nodeName: 'node-k', terminationGracePeriodSeconds: 1, volumes: [{ name: 'd', emptyDir: {} }], containers: [
        { name: 'main', ...image, command: ['sh', '-c', CRASH], volumeMounts: [{ name: 'd', mountPath: '/d' }] },
      ] },
    });
    await eventually(async () => {
      const p = api.store.get('pods', 'default', 'web') as V1Pod | undefined;
      return p?.status?.containerStatuses?.every((s) => s.state?.running) && p.status.containerStatuses.length === 2 + TRANSPORTS.length ? true : undefined;
    }, 90_000, 'pod web running');
  });

  after(async () => {
    await n?.cleanup();
    await api?.stop();
  });

  // #16: `kubectl logs --previous` through the API server (pods/log → the kubelet's /containerLogs?previous=true).
  it('kubectl logs --previous prints the output of the crashed instance named by lastState.terminated', async () => {
    const last = await eventually(async () => {
      const s = (api.store.get('pods', 'default', 'crash') as V1Pod | undefined)?.status?.containerStatuses?.[0];
      return s?.lastState?.terminated ? s : undefined;
    }, 60_000, 'crash restarted');
    const r = await kubectl(['logs', 'crash', '-c', 'main', '--previous']);
    assert.equal(r.code, 0, r.err);
    const m = /^crash instance (\d+)\nexiting\n$/.exec(r.out);
    assert.ok(m, `one whole instance's output: ${JSON.stringify(r.out)}`);
    assert.ok(Number(m[1]) >= 1, `${m[1]} (restartCount ${last.restartCount})`);
    // with timestamps (forwarded by the double): the same lines, each after an RFC3339Nano time
    const ts = await kubectl(['logs', 'crash', '-c', 'main', '--previous', '--timestamps']);
    assert.match(ts.out, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z crash instance \d+\n\S+ exiting\n$/);
    // bad input is refused by the API server as the real one does
    const bad = await kubectl(['logs', 'crash', '-c', 'nope']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.err, /container nope is not valid for pod crash/);
    // gone before the other tests (a container restarting while the node is torn down would race its cleanup)
    api.store.delete('pods', 'default', 'crash');
    await eventually(async () => (api.store.get('pods', 'default', 'crash') ? undefined : true), 30_000, 'crash pod deleted');
  });

  TRANSPORTS.forEach((t, i) => {
    it(`${t.name}: kubectl exec: output and exit code`, async () => {
      const r = await kubectl(['exec', 'web', '-c', 'c', '--', 'sh', '-c', 'echo hi; echo err >&2; exit 3'], '', t.env);
      assert.deepEqual([r.code, r.out], [3, 'hi\n']);
      assert.match(r.err, /^err\n/);
      assert.deepEqual(await kubectl(['exec', 'web', '-c', 'c', '--', 'echo', 'hi'], '', t.env), { code: 0, out: 'hi\n', err: '' });
    });

    it(`${t.name}: kubectl exec -i: stdin reaches the command and its end closes it`, async () => {
      const r = await kubectl(['exec', '-i', 'web', '-c', 'c', '--', 'sh', '-c', 'cat; echo done'], 'line 1\nline 2\n', t.env);
      assert.deepEqual([r.code, r.out], [0, 'line 1\nline 2\ndone\n']);
    });

    // kubectl only asks for a tty when its own stdin is a terminal: run it on one (util-linux script) of 33x99.
    it(`${t.name}: kubectl exec -it: the command runs on a pty (/dev/pts/N) sized as the client terminal`, async () => {
      const onTerminal = (remote: string) => new Promise<{ code: number; out: string }>((resolve) => {
        const cmd = `stty rows 33 cols 99; ${KUBECTL} --kubeconfig ${api.adminKubeconfig()} exec -it web -c c -- ${remote}`;
        // stdin stays open (no input, no EOF that script would turn into a byte on the terminal) until kubectl is done
        const c = execFile('script', ['--quiet', '--return', '--command', cmd, '/dev/null'], { timeout: 60_000, env: { ...process.env, ...t.env } }, (e, out) => {
          c.stdin?.destroy();
          resolve({ code: e ? Number((e as { code?: number }).code ?? -1) : 0, out });
        });
      });
      const tty = await onTerminal('tty');
      assert.equal(tty.code, 0, tty.out);
      assert.match(tty.out, /^\/dev\/pts\/\d+\r\n$/);
      const size = await onTerminal('sh -c "sleep 1; stty size"');
      assert.equal(size.out, '33 99\r\n');
    });

    it(`${t.name}: kubectl port-forward: an HTTP GET through the tunnel reaches the pod`, async () => {
      const local = await freePort();
      const pf = spawn(KUBECTL, ['--kubeconfig', api.adminKubeconfig(), 'port-forward', '-v=4', 'pod/web', `${local}:8080`], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...t.env } });
      let log = '';
      pf.stdout.on('data', (d: Buffer) => (log += d.toString()));
      pf.stderr.on('data', (d: Buffer) => (log += d.toString()));
      try {
        await eventually(async () => (log.includes('Forwarding from') ? true : undefined), 30_000, `port-forward ready (${log})`);
        for (const path of ['/first', '/second']) {
          const body = await new Promise<string>((resolve, reject) => {
            get(`http://127.0.0.1:${local}${path}`, (res) => {
              let b = '';
              res.on('data', (d: Buffer) => (b += d.toString()));
              res.on('end', () => resolve(b));
            }).on('error', reject);
          });
          assert.equal(body, `hello from ${path}`, log);
        }
        // the transport asked for was used: no fallback from the WebSocket tunnel to plain SPDY
        assert.doesNotMatch(log, /fallback/i, log);
      } finally {
        pf.kill('SIGTERM');
      }
    });

    it(`${t.name}: kubectl attach -it to a container on a pty: input, echo and the client's window size`, async () => {
      const logs = await eventually(async () => {
        const out = (await kubectl(['logs', 'web', '-c', 'term'])).out;
        return out.length > 0 ? out : undefined;
      }, 30_000, 'term log');
      assert.match(logs, /^\/dev\/pts\/\d+\r\n/, 'the container itself runs on a pty');
      // a size per transport: the pty keeps the last one, so each run must set its own
      const cmd = `stty rows ${33 + i} cols 99; ${KUBECTL} --kubeconfig ${api.adminKubeconfig()} attach -it web -c term`;
      const c = spawn('script', ['--quiet', '--command', cmd, '/dev/null'], { detached: true, stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, ...t.env } });
      let out = '';
      c.stdout.on('data', (d: Buffer) => void (out += d.toString()));
      const seen = (re: RegExp) => new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${re} in ${JSON.stringify(out)}`)), 30_000);
        const check = () => re.test(out) && (c.stdout.off('data', check), clearTimeout(timer), resolve());
        c.stdout.on('data', check);
      });
      try {
        await seen(/If you don't see a command prompt/);
        // the window size is applied asynchronously (as by the kubelet): ask again until the answer shows it
        for (let n = 1; ; n++) {
          c.stdin.write(`hello ${i}\n`);
          await seen(new RegExp(`(got hello ${i}\\r\\n\\d+ \\d+\\r\\n.*){${n}}`, 's'));
          if (out.includes(`got hello ${i}\r\n${33 + i} 99\r\n`)) break;
          assert.ok(n < 20, out);
        }
      } finally {
        process.kill(-c.pid!, 'SIGTERM');
      }
    });

    it(`${t.name}: kubectl attach -i: input goes to the container stdin; stdinOnce closes it when the session ends`, async () => {
      const r = await kubectl(['attach', '-i', 'web', '-c', `echo${i}`], 'one\ntwo\n', t.env);
      assert.match(r.out, /got one\ngot two\n/, `${r.out}\n${r.err}`);
      // stdinOnce: the container's stdin closed, so its loop ended and it exited (then restarted: its log is the previous one)
      const logs = async () => [...(await Promise.all([[], ['--previous']].map((p) => kubectl(['logs', 'web', '-c', `echo${i}`, ...p]))))].map((x) => x.out).join('');
      await eventually(async () => ((await logs()).includes('stdin closed') ? true : undefined), 30_000, 'stdin closed after attach');
  });
});
});
