/** POST certificatesigningrequests: the requester recorded in the spec, and the double's own-node rule (auth/csr-policy.ts). */
import type { UserInfo } from '../auth/authn.ts';
import { nodeCsrForbidden } from '../auth/csr-policy.ts';
import type { KubeObject, ResourceInfo } from '../resources.ts';
import { parseCsr } from '../store/csr-parse.ts';
import type { Registry } from '../store/registry.ts';
import { errors } from '../status.ts';

export function createCsr(reg: Registry, r: ResourceInfo, body: KubeObject, user: UserInfo): KubeObject {
  const parsed = parseCsr(Buffer.from(String(body?.spec?.request ?? ''), 'base64').toString('utf8'));
  const denied = nodeCsrForbidden(user, String(body?.spec?.signerName ?? ''), parsed.ok ? parsed.csr : undefined);
  if (denied) {
    const name = body?.metadata?.name;
    throw errors.forbidden(`${r.resource}.${r.group}${name ? ` "${name}"` : ''} is forbidden: ${denied}`, { name, group: r.group, kind: r.resource });
  }
  return reg.create(r, undefined, body, true, user);
}
