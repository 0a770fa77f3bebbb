/** ContainerConfig from a container spec: metadata, image, command/args/env, labels & annotations, log path, linux. */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { ContainerConfig } from '../cri/types.ts';
import {
  CONTAINER_HASH_ANNOTATION,
  CONTAINER_NAME_LABEL,
  CONTAINER_PORTS_ANNOTATION,
  CONTAINER_RESTART_COUNT_ANNOTATION,
  CONTAINER_TERMINATION_MESSAGE_PATH_ANNOTATION,
  CONTAINER_TERMINATION_MESSAGE_POLICY_ANNOTATION,
  POD_NAME_LABEL,
  POD_NAMESPACE_LABEL,
  POD_TERMINATION_GRACE_PERIOD_ANNOTATION,
  POD_UID_LABEL,
} from '../container/labels.ts';
import { hashContainer } from '../container/hash.ts';
import { expandVars, makeEnvironment, type EnvContext } from './container-env.ts';
import { containerResources } from './qos.ts';
import { hostPathMounts } from './host-path-mounts.ts';
import { containerLogPathErrors } from './log-path-checks.ts';
import type { VolumeHost } from '../volume/types.ts';
import { containerSecurityContext, type ImageUser, type SecurityContextOptions } from './security-context.ts';
import { DEFAULT_SECCOMP_ROOT } from './seccomp-profile.ts';
import { isSafeUid } from '../volume/volume-paths.ts';
import { makeHostsMount } from './etc-hosts.ts';

export type ContainerConfigResult = { ok: true; config: ContainerConfig; /** Warning events (InvalidEnvironmentVariableNames). */ warnings?: string[] } | { ok: false; message: string };

export function containerLabels(pod: V1Pod, c: V1Container): Record<string, string> {
  const m = pod.metadata ?? {};
  return { [POD_NAME_LABEL]: m.name ?? '', [POD_NAMESPACE_LABEL]: m.namespace ?? 'default', [POD_UID_LABEL]: m.uid ?? '', [CONTAINER_NAME_LABEL]: c.name };
}

export function containerAnnotations(pod: V1Pod, c: V1Container, restartCount: number): Record<string, string> {
  const a: Record<string, string> = {
    [CONTAINER_HASH_ANNOTATION]: hashContainer(c),
    [CONTAINER_RESTART_COUNT_ANNOTATION]: String(restartCount),
    [CONTAINER_TERMINATION_MESSAGE_PATH_ANNOTATION]: c.terminationMessagePath ?? '/dev/termination-log',
    [CONTAINER_TERMINATION_MESSAGE_POLICY_ANNOTATION]: c.terminationMessagePolicy ?? 'File',
  };
  const grace = pod.spec?.terminationGracePeriodSeconds;
  if (grace !== undefined) a[POD_TERMINATION_GRACE_PERIOD_ANNOTATION] = String(grace);
  if (c.ports && c.ports.length > 0) a[CONTAINER_PORTS_ANNOTATION] = JSON.stringify(c.ports);
  return a;
}

/**
 * The container's CRI config. Env comes from makeEnvironment (ctx.objects resolves ConfigMap / Secret refs);
 * mounts from the volume manager when there is one, else the hostPath volumes alone. Failures are the
 * kubelet's CreateContainerConfigError messages; a pod field that cannot name the container's log path on
 * the host (log-path-checks.ts) is one, before anything else is read. With the volume manager's pod dir the
 * kubelet-managed /etc/hosts mount follows the volume mounts (etc-hosts.ts).
 */
export async function generateContainerConfig(
  pod: V1Pod,
  c: V1Container,
  restartCount: number,
  imageRef: string,
  ctx: EnvContext,
  volumes?: Pick<VolumeHost, 'containerMounts'> & Partial<Pick<VolumeHost, 'podDir'>>,
  imageUser?: ImageUser,
  securityOpts?: SecurityContextOptions,
): Promise<ContainerConfigResult> {
  const unsafe = containerLogPathErrors(pod, c);
  if (unsafe.length > 0) return { ok: false, message: `invalid container log path: ${unsafe.join(', ')}` };
  const env = await makeEnvironment(pod, c, ctx);
  if (!env.ok) return env;
  const vars = new Map(env.env.map((e) => [e.key, e.value]));
  const mounts = volumes ? await volumes.containerMounts(pod, c, vars) : { ok: true as const, mounts: hostPathMounts(pod, c) };
  if (!mounts.ok) return mounts;
  const uid = pod.metadata?.uid ?? '';
  if (volumes?.podDir && isSafeUid(uid)) {
    const hosts = await makeHostsMount(pod, c, { podDir: volumes.podDir(uid), podIPs: ctx.podIps }).catch((err: unknown) => ({ error: String((err as Error).message ?? err) }));
    if (hosts && 'error' in hosts) return { ok: false, message: `failed to write the pod's hosts file: ${hosts.error}` };
    if (hosts) mounts.mounts.push(hosts);
  }
  const security = containerSecurityContext(pod, c, imageUser ?? { uid: 0 }, securityOpts ?? { seccompRoot: DEFAULT_SECCOMP_ROOT });
  if (!security.ok) return security;
  const config: ContainerConfig = {
    metadata: { name: c.name, attempt: restartCount },
    image: { image: imageRef, userSpecifiedImage: c.image ?? '' },
    command: (c.command ?? []).map((s) => expandVars(s, vars)),
    args: (c.args ?? []).map((s) => expandVars(s, vars)),
    workingDir: c.workingDir ?? '',
    envs: env.env.map((e) => ({ key: e.key, value: Buffer.from(e.value, 'utf8') })),
    labels: containerLabels(pod, c),
    annotations: containerAnnotations(pod, c, restartCount),
    logPath: `${c.name}/${restartCount}.log`,
    mounts: mounts.mounts,
    stdin: c.stdin ?? false,
    stdinOnce: c.stdinOnce ?? false,
    tty: c.tty ?? false,
    linux: {
      resources: containerResources(pod, c),
      securityContext: security.sc,
    },
  };
  return { ok: true, config, ...(env.warnings ? { warnings: env.warnings } : {}) };
}
