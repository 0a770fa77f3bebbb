/**
 * Who may do what with CertificateSigningRequests in the double, as a kubeadm cluster's RBAC has it: system:masters
 * anything; nodes (system:nodes) and bootstrappers (system:bootstrappers, role system:node-bootstrapper) create, get,
 * list and watch; nobody else, and only masters use /approval and /status (the approver and signer are the
 * double's own controllers). Wraps the double's built-in policies; other resources go to the wrapped one.
 * One rule is the double's own (documented in the README): a node may request kubelet certificates only for itself.
 */
import type { AuthorizePolicy, UserInfo } from './authn.ts';
import type { ParsedCsr } from '../store/csr-parse.ts';

const REQUESTER_VERBS = new Set(['create', 'get', 'list', 'watch']);
const KUBELET_SIGNERS = new Set(['kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving']);

export function withCsrRules(policy: AuthorizePolicy): AuthorizePolicy {
  return (a) => {
    if (a.group !== 'certificates.k8s.io' || a.resource !== 'certificatesigningrequests') return policy(a);
    if (a.groups.includes('system:masters')) return { allowed: true };
    const requester = a.groups.includes('system:nodes') || a.groups.includes('system:bootstrappers');
    if (requester && !a.subresource && REQUESTER_VERBS.has(a.verb)) return { allowed: true };
    return { allowed: false, reason: '' };
  };
}

/** The Forbidden message when a node asks for a kubelet certificate naming another node, else undefined. */
export function nodeCsrForbidden(user: UserInfo, signerName: string, req: ParsedCsr | undefined): string | undefined {
  const m = /^system:node:(.+)$/.exec(user.username);
  if (!m || !user.groups.includes('system:nodes') || !KUBELET_SIGNERS.has(signerName) || !req) return undefined;
  if (req.commonName === user.username) return undefined;
  return `node "${m[1]}" may only request certificates for itself (subject CN "${user.username}"), not for "${req.commonName}"`;
}
