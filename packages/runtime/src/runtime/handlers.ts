/**
 * The runtime handlers this runtime offers (CRI RunPodSandboxRequest.runtime_handler, reported in
 * StatusResponse.runtime_handlers): "" (the default) and "runc" run pods as before — in the host's user namespace
 * when the runtime is root, in a user namespace of the runtime's own user otherwise; "userns" always gives the pod
 * its own user namespace (`unshare --user --map-root-user`), so its processes hold their capabilities only
 * there. Only one id is mapped (the pod's 0 is the runtime's user) and setgroups is denied there, so in a "userns"
 * pod a container runs as uid 0 / gid 0 of that namespace without supplementary groups; asking for another user
 * or groups is refused. Any other handler is refused, with containerd's message.
 */
import type { RuntimeHandler } from '../../../../proto/gen/runtime/v1/RuntimeHandler.ts';
import { fail, ok, type OpResult } from './result.ts';

export const USERNS_HANDLER = 'userns';

export interface HandlerSpec {
  /** The pod gets a user namespace of its own even when the runtime runs as root. */
  userNamespace: boolean;
}

const HANDLERS: Record<string, HandlerSpec> = {
  '': { userNamespace: false },
  runc: { userNamespace: false },
  [USERNS_HANDLER]: { userNamespace: true },
};

export function resolveHandler(name: string | undefined): OpResult<HandlerSpec> {
  const spec = Object.hasOwn(HANDLERS, name ?? '') ? HANDLERS[name ?? ''] : undefined;
  return spec ? ok(spec) : fail('UNKNOWN', `failed to get sandbox runtime: no runtime for ${JSON.stringify(name)} is configured`);
}

/** StatusResponse.runtime_handlers: every handler with its features (the default one is named ""). */
export function runtimeHandlers(privileged: boolean): RuntimeHandler[] {
  return Object.entries(HANDLERS).map(([name, h]) => ({ name, features: { recursiveReadOnlyMounts: false, userNamespaces: h.userNamespace || !privileged } }));
}

/** The sandbox has a user namespace because of its handler (the runtime is root): only 0 is mapped there. */
export function ownUserNamespace(handler: string, privileged: boolean): boolean {
  return privileged && Object.hasOwn(HANDLERS, handler) && HANDLERS[handler]!.userNamespace;
}

/** A container of such a sandbox runs as its root: another uid / gid, or a supplementary group, cannot be had. */
export function userNamespaceIdError(handler: string, uid: number | undefined, gid: number | undefined, groups: Array<number | string>): string | undefined {
  const extra = groups.map(Number).filter((g) => g !== 0);
  if ((uid ?? 0) === 0 && (gid ?? 0) === 0 && extra.length === 0) return undefined;
  const who = extra.length > 0 ? `supplementary groups ${extra.join(',')}` : `user ${uid ?? 0}:${gid ?? 0}`;
  return `runtime handler ${JSON.stringify(handler)} maps only uid 0 and gid 0 into the pod's user namespace: ${who} cannot be used there`;
}
