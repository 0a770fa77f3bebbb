// The CRI security context the kubelet sends. Expected values from the kubelet's source at v1.28:
// security_context_others_test.go (TestVerifyRunAsNonRoot), helpers_test.go (TestFieldProfile / getSeccompProfile),
// security_context.go determineEffectiveSecurityContext, pkg/securitycontext/util.go (masked / read-only paths,
// AddNoNewPrivileges) and kuberuntime_image.go getImageUser (no uid and no name = root).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container, V1Pod, V1PodSecurityContext, V1SecurityContext } from '@kubernetes/client-node';
import { containerSecurityContext, verifyRunAsNonRoot, DEFAULT_MASKED_PATHS, DEFAULT_READONLY_PATHS } from './security-context.ts';
import { seccompProfile } from './seccomp-profile.ts';
import { generatePodSandboxConfig } from './sandbox-config.ts';
import { generateContainerConfig } from './container-config.ts';

const opts = { seccompRoot: '/var/lib/kubelet/seccomp' };

function podWith(psc?: V1PodSecurityContext, sc?: V1SecurityContext): { pod: V1Pod; c: V1Container } {
  const c: V1Container = { name: 'c', image: 'busybox', ...(sc ? { securityContext: sc } : {}) };
  return { pod: { metadata: { name: 'p', namespace: 'ns', uid: 'u1' }, spec: { containers: [c], ...(psc ? { securityContext: psc } : {}) } }, c };
}

test('runAsNonRoot: the kubelet messages for root, an explicit runAsUser 0 and a non-numeric image user', () => {
  const where = '(pod: "p_ns(u1)", container: c)';
  const nonRoot = podWith({ runAsNonRoot: true });
  assert.equal(verifyRunAsNonRoot(nonRoot.pod, nonRoot.c, { uid: 0 }), `container has runAsNonRoot and image will run as root ${where}`);
  assert.equal(verifyRunAsNonRoot(nonRoot.pod, nonRoot.c, { username: 'nobody' }), `container has runAsNonRoot and image has non-numeric user (nobody), cannot verify user is non-root ${where}`);
  assert.equal(verifyRunAsNonRoot(nonRoot.pod, nonRoot.c, { uid: 1000 }), undefined);
  const explicitRoot = podWith({ runAsNonRoot: true }, { runAsUser: 0 });
  assert.equal(verifyRunAsNonRoot(explicitRoot.pod, explicitRoot.c, { uid: 1000 }), `container's runAsUser breaks non-root policy ${where}`);
  // the pod's runAsUser counts too; a non-zero runAsUser passes whatever the image says
  assert.equal(verifyRunAsNonRoot(podWith({ runAsNonRoot: true, runAsUser: 0 }).pod, podWith().c, { uid: 5 }), `container's runAsUser breaks non-root policy ${where}`);
  const fine = podWith({ runAsNonRoot: true }, { runAsUser: 1234 });
  assert.equal(verifyRunAsNonRoot(fine.pod, fine.c, { uid: 0 }), undefined);
  // runAsNonRoot false (container overrides the pod's true) or unset: never refused
  const off = podWith({ runAsNonRoot: true }, { runAsNonRoot: false });
  assert.equal(verifyRunAsNonRoot(off.pod, off.c, { uid: 0 }), undefined);
  assert.equal(verifyRunAsNonRoot(podWith().pod, podWith().c, { uid: 0 }), undefined);
});

test('a runAsNonRoot refusal is the container config error (CreateContainerConfigError)', async () => {
  const { pod, c } = podWith({ runAsNonRoot: true });
  const r = await generateContainerConfig(pod, c, 0, 'sha256:x', { podIp: '', podIps: [], nodeName: 'n' }, undefined, { uid: 0 }, opts);
  assert.deepEqual(r, { ok: false, message: 'container has runAsNonRoot and image will run as root (pod: "p_ns(u1)", container: c)' });
});

test('runAsUser / runAsGroup: the container overrides the pod; else the image uid or user name', () => {
  const a = podWith({ runAsUser: 1000, runAsGroup: 2000 }, { runAsUser: 1001 });
  const sa = containerSecurityContext(a.pod, a.c, { uid: 7 }, opts);
  assert.ok(sa.ok);
  assert.deepEqual([sa.sc.runAsUser, sa.sc.runAsGroup, sa.sc.runAsUsername], [{ value: 1001 }, { value: 2000 }, undefined]);
  const b = podWith();
  const sb = containerSecurityContext(b.pod, b.c, { username: 'www-data' }, opts);
  assert.ok(sb.ok);
  assert.deepEqual([sb.sc.runAsUser, sb.sc.runAsUsername], [undefined, 'www-data']);
  const sc = containerSecurityContext(b.pod, b.c, { uid: 0 }, opts);
  assert.ok(sc.ok);
  assert.deepEqual(sc.sc.runAsUser, { value: 0 });
});

test('supplementalGroups: fsGroup first, then the pod supplementalGroups', () => {
  const { pod, c } = podWith({ fsGroup: 3000, supplementalGroups: [4000, 5000] });
  const r = containerSecurityContext(pod, c, { uid: 0 }, opts);
  assert.ok(r.ok);
  assert.deepEqual(r.sc.supplementalGroups, [3000, 4000, 5000]);
});

test('capabilities passed as written, privileged, read-only root, no_new_privs only for allowPrivilegeEscalation false', () => {
  const { pod, c } = podWith(undefined, { capabilities: { add: ['NET_ADMIN', 'CAP_SYS_TIME'], drop: ['ALL'] }, privileged: false, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
  const r = containerSecurityContext(pod, c, { uid: 0 }, opts);
  assert.ok(r.ok);
  assert.deepEqual(r.sc.capabilities, { addCapabilities: ['NET_ADMIN', 'CAP_SYS_TIME'], dropCapabilities: ['ALL'] });
  assert.equal(r.sc.readonlyRootfs, true);
  assert.equal(r.sc.noNewPrivs, true);
  for (const allow of [true, undefined]) {
    const x = podWith(undefined, allow === undefined ? {} : { allowPrivilegeEscalation: allow });
    const s = containerSecurityContext(x.pod, x.c, { uid: 0 }, opts);
    assert.ok(s.ok);
    assert.equal(s.sc.noNewPrivs, false, `allowPrivilegeEscalation ${allow}`);
    assert.equal(s.sc.capabilities, undefined);
  }
});

test('procMount: Default → the default masked and read-only paths, Unmasked → none', () => {
  assert.deepEqual(DEFAULT_MASKED_PATHS, ['/proc/asound', '/proc/acpi', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list', '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware', '/sys/devices/virtual/powercap']);
  assert.deepEqual(DEFAULT_READONLY_PATHS, ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger']);
  const def = podWith();
  const d = containerSecurityContext(def.pod, def.c, { uid: 0 }, opts);
  assert.ok(d.ok);
  assert.deepEqual([d.sc.maskedPaths, d.sc.readonlyPaths], [DEFAULT_MASKED_PATHS, DEFAULT_READONLY_PATHS]);
  const un = podWith(undefined, { procMount: 'Unmasked' });
  const u = containerSecurityContext(un.pod, un.c, { uid: 0 }, opts);
  assert.ok(u.ok);
  assert.deepEqual([u.sc.maskedPaths, u.sc.readonlyPaths], [[], []]);
});

test('seccomp: container field, else the pod field, else Unconfined (RuntimeDefault with seccompDefault); Localhost under <root-dir>/seccomp', () => {
  const root = '/var/lib/kubelet/seccomp';
  const p = (psc?: V1PodSecurityContext, sc?: V1SecurityContext) => podWith(psc, sc);
  const none = p();
  assert.deepEqual(seccompProfile(none.pod, none.c, root), { ok: true, profile: { profileType: 'Unconfined' } });
  assert.deepEqual(seccompProfile(none.pod, none.c, root, true), { ok: true, profile: { profileType: 'RuntimeDefault' } });
  const podLevel = p({ seccompProfile: { type: 'RuntimeDefault' } });
  assert.deepEqual(seccompProfile(podLevel.pod, podLevel.c, root), { ok: true, profile: { profileType: 'RuntimeDefault' } });
  const override = p({ seccompProfile: { type: 'RuntimeDefault' } }, { seccompProfile: { type: 'Unconfined' } });
  assert.deepEqual(seccompProfile(override.pod, override.c, root, true), { ok: true, profile: { profileType: 'Unconfined' } });
  const local = p({ seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' } });
  assert.deepEqual(seccompProfile(local.pod, local.c, root), { ok: true, profile: { profileType: 'Localhost', localhostRef: '/var/lib/kubelet/seccomp/profiles/audit.json' } });
  const bad = p(undefined, { seccompProfile: { type: 'Localhost' } });
  assert.deepEqual(seccompProfile(bad.pod, bad.c, root), { ok: false, message: 'localhostProfile must be set if seccompProfile type is Localhost.' });
  const r = containerSecurityContext(local.pod, local.c, { uid: 0 }, { seccompRoot: root });
  assert.ok(r.ok);
  assert.deepEqual(r.sc.seccomp, { profileType: 'Localhost', localhostRef: '/var/lib/kubelet/seccomp/profiles/audit.json' });
});

test('the sandbox gets the pod-level seccomp profile (generatePodSandboxLinuxConfig)', () => {
  const cfg = { podLogsDir: '/var/log/pods', rootDir: '/var/lib/nodelet/', nodeName: 'n', crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } };
  const sb = (psc?: V1PodSecurityContext) => generatePodSandboxConfig(podWith(psc, { seccompProfile: { type: 'Unconfined' } }).pod, 0, cfg).linux?.securityContext?.seccomp;
  assert.deepEqual(sb(), { profileType: 'Unconfined' });
  assert.deepEqual(sb({ seccompProfile: { type: 'RuntimeDefault' } }), { profileType: 'RuntimeDefault' });
  assert.deepEqual(sb({ seccompProfile: { type: 'Localhost', localhostProfile: 'a.json' } }), { profileType: 'Localhost', localhostRef: '/var/lib/nodelet/seccomp/a.json' });
});
