// Exec over WebSocket on 10250, as kube-apiserver forwards pods/exec to the kubelet: the query names the
// kubelet's stream options input / output / error = 1 (pkg/registry/core/pod/strategy.go streamParams) and the
// client's subprotocol passes through (kube-apiserver 1.28 proxies the upgrade; the kubelet proxies it to the
// runtime's CRI streaming server, ours or containerd's).
// Upstream: "[sig-node] Pods should support remote command execution over websockets [NodeConformance]
// [Conformance]" (test/e2e/common/node/pods.go): channel.k8s.io, stdout=1&stderr=1, `echo remote execution test`;
// every message with data must be on channel 1.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openChannelSession } from '@nodelet/runtime/testing';
import type { SuiteContext } from './suite-context.ts';
import { containerStatus as cs, ctr, fullName, NS, removePod, waitPod, writePod } from './pods.ts';

const STDOUT = 1;
const STDERR = 2;
const ERROR = 3;

export function defineExecScenarios(ctx: SuiteContext): void {
  describe('exec over WebSocket with the API server\'s parameters', () => {
    const execUrl = (script: string, extra = 'output=1&error=1') => {
      const cmd = ['sh', '-c', script].map((c) => `command=${encodeURIComponent(c)}`).join('&');
      return `${ctx.agent.kubeletUrl.replace(/^https:/, 'wss:')}/exec/${NS}/${fullName(ctx.agent, 'execws')}/main?${cmd}&${extra}`;
    };
    const exec = async (script: string, protocol: string, extra?: string) => {
      const s = await openChannelSession(execUrl(script, extra), [protocol], ctx.agent.tls());
      assert.equal(s.protocol, protocol);
      await s.closed;
      return s;
    };

    it('the pod runs', async () => {
      writePod(ctx.agent, 'execws', { terminationGracePeriodSeconds: 1, containers: [ctr('main', ctx.rt.image, 'echo container is alive; sleep 600')] });
      await waitPod(ctx.agent, 'execws', 'running', (p) => Boolean(cs(p, 'main')?.state?.running), 180_000); // starts beside the other scenarios' pods
    });

    it('channel.k8s.io: the output on channel 1 and no data on any other channel (the upstream spec)', async () => {
      const s = await exec('echo remote execution test', 'channel.k8s.io');
      assert.equal(s.text(STDOUT), 'remote execution test\n');
      const others = [...s.channels].filter(([ch, data]) => ch !== STDOUT && data.length > 0);
      assert.deepEqual(others.map(([ch, d]) => `${ch}: ${d.toString()}`), []);
    });

    it('v4.channel.k8s.io: stdout, stderr and the Status JSON (Success; NonZeroExitCode with the ExitCode cause)', async () => {
      const ok = await exec('echo hi; echo err >&2', 'v4.channel.k8s.io');
      assert.equal(ok.text(STDOUT), 'hi\n');
      assert.equal(ok.text(STDERR), 'err\n');
      assert.deepEqual(JSON.parse(ok.text(ERROR)), { metadata: {}, status: 'Success' });
      const bad = await exec('echo hi; exit 3', 'v4.channel.k8s.io');
      assert.equal(bad.text(STDOUT), 'hi\n');
      const st = JSON.parse(bad.text(ERROR)) as { status: string; reason: string; details: { causes: unknown[] } };
      assert.deepEqual([st.status, st.reason, st.details.causes], ['Failure', 'NonZeroExitCode', [{ reason: 'ExitCode', message: '3' }]]);
    });

    // containerd 1.6's CRI streaming server speaks channel.k8s.io and v4 (binary and base64) but not v5: it
    // refuses the upgrade with 403, which the kubelet relays (kubectl then falls back to SPDY; kube-apiserver
    // >= 1.30 translates v5 to SPDY before the kubelet, TranslateStreamCloseWebsocketRequests).
    it('v5.channel.k8s.io: stdin (input=1) ends with the close of channel 0; the Status JSON (containerd 1.6: 403)', async () => {
      if (ctx.rt.name === 'containerd') {
        await assert.rejects(openChannelSession(execUrl('cat', 'input=1&output=1'), ['v5.channel.k8s.io'], ctx.agent.tls()), /upgrade refused: 403/);
        return;
      }
      const s = await openChannelSession(execUrl('cat; echo done', 'input=1&output=1&error=1'), ['v5.channel.k8s.io'], ctx.agent.tls());
      assert.equal(s.protocol, 'v5.channel.k8s.io');
      s.write(0, 'typed\n');
      s.closeChannel(0);
      await s.closed;
      assert.equal(s.text(STDOUT), 'typed\ndone\n');
      assert.deepEqual(JSON.parse(s.text(ERROR)), { metadata: {}, status: 'Success' });
    });

    it('refused with 400 when no stream is asked for', async () => {
      await assert.rejects(exec('true', 'v4.channel.k8s.io', 'tty=1'), /upgrade refused: 400 you must specify at least 1 of stdin, stdout, stderr/);
    });

    it('the pod goes', () => removePod(ctx.agent, 'execws'));
  });
}
