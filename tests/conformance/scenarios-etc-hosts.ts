// The kubelet-managed /etc/hosts (kubelet_pods.go makeMounts / makeHostsMount) on the real agent. Our own test of
// the behaviour upstream checks in test/e2e/common/node/kubelet_etc_hosts.go ("KubeletManagedEtcHosts should
// test kubelet managed /etc/hosts file") and kubelet.go ("when scheduling an agnhost Pod with hostAliases should
// write entries to /etc/hosts"): every container gets the managed file with the pod's IP and hostAliases, except
// a container that mounts /etc/hosts itself; a hostNetwork pod gets the node's file under the host-network header.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import type { SuiteContext } from './suite-context.ts';
import { ctr, logs, removePod, waitPod, writePod } from './pods.ts';
import { waitUntil } from '../../e2e/harness.ts';

const CAT = 'cat /etc/hosts; while true; do sleep 0.5; done';
// Pods start beside every other scenario's on a shared machine: the waits are generous.

async function logOf(ctx: SuiteContext, pod: string, c: string): Promise<string> {
  let body = '';
  await waitUntil(`${pod}/${c} printed /etc/hosts`, async () => {
    const r = await logs(ctx.agent, pod, c);
    body = r.body;
    return r.status === 200 && body.length > 0;
  }, 30_000);
  return body;
}

export function defineEtcHostsScenarios(ctx: SuiteContext): void {
  describe('kubelet-managed /etc/hosts', () => {
    it('containers get the managed file with the pod IP, hostname and hostAliases; a container mounting /etc/hosts keeps its own', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'etchosts', {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 1,
        hostAliases: [{ ip: '123.45.67.89', hostnames: ['foo', 'bar'] }],
        volumes: [{ name: 'host-etc-hosts', hostPath: { path: '/etc/hosts', type: 'File' } }],
        containers: [
          ctr('busybox-1', rt.image, CAT),
          ctr('busybox-2', rt.image, CAT),
          ctr('busybox-3', rt.image, CAT, { volumeMounts: [{ name: 'host-etc-hosts', mountPath: '/etc/hosts' }] }),
        ],
      });
      const p = await waitPod(a, 'etchosts', 'running', (x) => (x.status?.containerStatuses ?? []).filter((s) => s.state?.running).length === 3, 120_000);
      const ip = p.status?.podIP ?? '';
      assert.ok(ip, 'the pod has an IP');
      for (const c of ['busybox-1', 'busybox-2']) {
        const hosts = await logOf(ctx, 'etchosts', c);
        assert.match(hosts, /^# Kubernetes-managed hosts file\.\n127\.0\.0\.1\tlocalhost\n/, `${c}: the managed header first`);
        assert.ok(hosts.includes(`\n${ip}\t${p.metadata?.name}\n`), `${c}: the pod IP with its hostname:\n${hosts}`);
        assert.ok(hosts.includes('\n# Entries added by HostAliases.\n123.45.67.89\tfoo\tbar\n'), `${c}: the hostAliases:\n${hosts}`);
      }
      const own = await logOf(ctx, 'etchosts', 'busybox-3');
      assert.equal(own, readFileSync('/etc/hosts', 'utf8'), 'busybox-3 mounts the node file itself: not managed');
      removePod(a, 'etchosts');
    });

    it('a hostNetwork pod gets the node /etc/hosts under the host-network header', async () => {
      const { agent: a, rt } = ctx;
      writePod(a, 'etchosts-hostnet', {
        restartPolicy: 'Never',
        hostNetwork: true,
        terminationGracePeriodSeconds: 1,
        hostAliases: [{ ip: '123.45.67.89', hostnames: ['foo'] }],
        containers: [ctr('busybox-1', rt.image, CAT)],
      });
      await waitPod(a, 'etchosts-hostnet', 'running', (x) => Boolean(x.status?.containerStatuses?.[0]?.state?.running), 120_000);
      const hosts = await logOf(ctx, 'etchosts-hostnet', 'busybox-1');
      const want = `# Kubernetes-managed hosts file (host network).\n${readFileSync('/etc/hosts', 'utf8')}\n# Entries added by HostAliases.\n123.45.67.89\tfoo\n`;
      assert.equal(hosts, want);
      assert.ok(!hosts.includes('# Kubernetes-managed hosts file.\n'), 'not the pod-network content (upstream checks this string)');
      removePod(a, 'etchosts-hostnet');
    });
  });
}
