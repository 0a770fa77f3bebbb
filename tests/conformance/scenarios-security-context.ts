// Security context on the real agent, checked inside the containers on both runtimes. Our own runs of the upstream
// specs (test/e2e/common/node/security_context.go at v1.28, and test/e2e/node/security_context.go for seccomp):
// "Security Context When creating a container with runAsUser should run the container with uid 65534",
// "... with runAsNonRoot should not run without a specified user ID" / "should not run with an explicit root user
// ID" / "should run with an explicit non-root user ID", "... with readOnlyRootFilesystem should run the container
// with readonly rootfs when readOnlyRootFilesystem=true" / "with writable rootfs when readOnlyRootFilesystem=false",
// "... with privileged should run the container as unprivileged when false", "... with AllowPrivilegeEscalation
// should not allow privilege escalation when false", "[sig-node] Security Context should support seccomp
// runtime/default" / "should support seccomp unconfined on the container" and the pod- and container-level
// runAsUser / runAsGroup spec. Expected values: the kubelet's messages (security_context_others.go) and the kernel's
// /proc/self/status fields (CapEff of containerd's default set with NET_RAW and MKNOD dropped, SYS_TIME added:
// 0xa80425fb - 0x2000 - 0x08000000 + 0x02000000 = 0xa20405fb).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { SuiteContext } from './suite-context.ts';
import { containerStatus as cs, ctr, fullName, logs, NS, removePod, waitPod, writePod } from './pods.ts';

const STATUS = 'grep -E "^(CapEff|NoNewPrivs|Seccomp):" /proc/self/status';

export function defineSecurityContextScenarios(ctx: SuiteContext): void {
  describe('security context', () => {
    const done = (p: V1Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
    const out = async (pod: string, c: string) => (await logs(ctx.agent, pod, c)).body;

    // containerd: its busybox image; the embedded runtime pulls the same from the loopback registry (its host image's
    // root file system is read-only whatever the pod says, so the writable-root check needs a real image)
    const image = () => (ctx.rt.name === 'embedded' && ctx.rt.registry ? `${ctx.rt.registry}/busybox:latest` : ctx.rt.image);

    it('upstream: runAsUser / runAsGroup (pod, container override), supplementalGroups, capabilities, no_new_privs, seccomp, read-only root, masked /proc, unprivileged', async () => {
      const { agent: a } = ctx;
      const rt = { image: image() };
      const seccompDir = join(a.rootDir, 'seccomp');
      mkdirSync(seccompDir, { recursive: true });
      // a Localhost profile under <root-dir>/seccomp: everything allowed but mkdir
      writeFileSync(join(seccompDir, 'no-mkdir.json'), JSON.stringify({ defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: ['mkdir', 'mkdirat'], action: 'SCMP_ACT_ERRNO', errnoRet: 1 }] }));
      writePod(a, 'secctx', {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 1,
        securityContext: { runAsUser: 1000, runAsGroup: 3000, supplementalGroups: [4000], seccompProfile: { type: 'RuntimeDefault' } },
        containers: [
          ctr('inherit', rt.image, `echo "ids $(id -u) $(id -g) $(id -G)"; ${STATUS}`),
          ctr('override', rt.image, 'echo "ids $(id -u) $(id -g)"', { securityContext: { runAsUser: 65534 } }),
          ctr('hardened', rt.image, `${STATUS}; touch /rootfile 2>/dev/null && echo root-rw || echo root-ro; echo "timer_list $(wc -c < /proc/timer_list)"; ip link add dummy0 type dummy 2>&1 | grep -o "Operation not permitted" | head -1`, {
            securityContext: { runAsUser: 0, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['NET_RAW', 'MKNOD'], add: ['SYS_TIME'] } },
          }),
          ctr('open', rt.image, `${STATUS}; touch /rootfile 2>/dev/null && echo root-rw || echo root-ro`, { securityContext: { runAsUser: 0, readOnlyRootFilesystem: false, seccompProfile: { type: 'Unconfined' } } }),
          ctr('localhost', rt.image, `mkdir /tmp/x 2>&1 | grep -o "Operation not permitted"; grep "^Seccomp:" /proc/self/status`, {
            securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'no-mkdir.json' } },
          }),
        ],
      });
      const p = await waitPod(a, 'secctx', 'Succeeded', done, 120_000).catch((e: Error) => {
        throw new Error(`${e.message}\nagent log:\n${a.logTail(4000)}`);
      });
      const texts = Object.fromEntries(await Promise.all(['inherit', 'override', 'hardened', 'open', 'localhost'].map(async (c) => [c, await out('secctx', c)] as const)));
      assert.equal(p.status?.phase, 'Succeeded', `${JSON.stringify(p.status?.containerStatuses?.map((s) => [s.name, s.state]))}\n${JSON.stringify(texts)}`);
      // the pod's runAsUser and runAsGroup; the groups: the gid first, then supplementalGroups (image groups of the user may follow)
      assert.match(texts.inherit!, /^ids 1000 3000 3000 (\d+ )*4000( \d+)*$/m);
      assert.match(texts.inherit!, /^CapEff:\s+0{16}$/m, 'a non-root user holds no capability');
      assert.match(texts.inherit!, /^NoNewPrivs:\s+0$/m);
      assert.match(texts.inherit!, /^Seccomp:\s+2$/m, 'the pod-level RuntimeDefault profile');
      assert.match(texts.override!, /^ids 65534 3000$/m);
      assert.match(texts.hardened!, /^CapEff:\s+00000000a20405fb$/m);
      assert.match(texts.hardened!, /^NoNewPrivs:\s+1$/m);
      assert.match(texts.hardened!, /^Seccomp:\s+2$/m);
      assert.match(texts.hardened!, /^root-ro$/m);
      assert.match(texts.hardened!, /^timer_list 0$/m, 'procMount Default: /proc/timer_list masked');
      assert.match(texts.hardened!, /^Operation not permitted$/m, 'privileged false: no network device can be added');
      assert.match(texts.open!, /^CapEff:\s+00000000a80425fb$/m);
      assert.match(texts.open!, /^NoNewPrivs:\s+0$/m);
      assert.match(texts.open!, /^Seccomp:\s+0$/m);
      if (rt.image !== 'nodelet.local/host:latest') assert.match(texts.open!, /^root-rw$/m);
      assert.match(texts.localhost!, /^Operation not permitted\nSeccomp:\s+2$/m);
      removePod(a, 'secctx');
    });

    it('upstream: runAsNonRoot — a root image user and an explicit runAsUser 0 are refused (CreateContainerConfigError, event), a non-root one runs', async () => {
      const { agent: a } = ctx;
      const rt = { image: image() };
      writePod(a, 'nonroot', {
        terminationGracePeriodSeconds: 1,
        securityContext: { runAsNonRoot: true },
        containers: [
          ctr('image-root', rt.image, 'echo ran'),
          ctr('explicit-root', rt.image, 'echo ran', { securityContext: { runAsUser: 0 } }),
          ctr('nonroot', rt.image, 'echo "uid $(id -u)"; sleep 3600', { securityContext: { runAsUser: 1234 } }),
        ],
      });
      const waiting = (x: V1Pod, c: string) => cs(x, c)?.state?.waiting?.reason === 'CreateContainerConfigError';
      const p = await waitPod(a, 'nonroot', 'refused and running', (x) => waiting(x, 'image-root') && waiting(x, 'explicit-root') && !!cs(x, 'nonroot')?.state?.running, 120_000);
      const pod = `${fullName(a, 'nonroot')}_${NS}(${p.metadata?.uid})`;
      assert.equal(cs(p, 'image-root')?.state?.waiting?.message, `container has runAsNonRoot and image will run as root (pod: "${pod}", container: image-root)`);
      assert.equal(cs(p, 'explicit-root')?.state?.waiting?.message, `container's runAsUser breaks non-root policy (pod: "${pod}", container: explicit-root)`);
      assert.match(await out('nonroot', 'nonroot'), /^uid 1234$/m);
      const r = await a.get(`/trpc/events.recent?input=${encodeURIComponent(JSON.stringify({ types: ['k8sEvent'], limit: 1000 }))}`);
      const events = (JSON.parse(r.body) as { result: { data: Array<{ reason: string; message: string }> } }).result.data;
      assert.ok(events.some((e) => e.reason === 'Failed' && e.message === `Error: container has runAsNonRoot and image will run as root (pod: "${pod}", container: image-root)`), JSON.stringify(events.filter((e) => e.reason === 'Failed')));
      removePod(a, 'nonroot');
    });
  });
}
