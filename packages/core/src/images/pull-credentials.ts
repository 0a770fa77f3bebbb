/**
 * PullImage with registry credentials (the kubelet's kuberuntime_image.go PullImage): the pod's pull secrets
 * and the node's keyring are looked up by the image's normalized repository; without a match the image is
 * pulled anonymously, else each matching credential is tried in turn as the CRI AuthConfig until one works,
 * and when none does the errors are joined as the kubelet's error aggregate ("[e1, e2]").
 */
import type { V1Secret } from '@kubernetes/client-node';
import type { CriClient, PullImageResponse__Output } from '../cri/types.ts';
import type { AuthConfig, DockerKeyring } from '../credentialprovider/keyring.ts';
import { makeDockerKeyring } from '../credentialprovider/secrets.ts';
import { errText } from '../kuberuntime/start-container.ts';
import { parseImageRef } from './image-ref.ts';

/** The repository an image pulls from, normalized as Docker does: `busybox` → `docker.io/library/busybox`. */
export function repoToPull(image: string): string {
  const r = parseImageRef(image);
  const name = r.ok ? r.ref.name : image;
  const i = name.indexOf('/');
  const first = i < 0 ? '' : name.slice(0, i);
  let domain: string;
  let rest: string;
  if (i < 0 || (!/[.:]/.test(first) && first !== 'localhost' && first.toLowerCase() === first)) {
    domain = 'docker.io';
    rest = name;
  } else {
    domain = first === 'index.docker.io' ? 'docker.io' : first;
    rest = name.slice(i + 1);
  }
  if (domain === 'docker.io' && !rest.includes('/')) rest = `library/${rest}`;
  return `${domain}/${rest}`;
}

/** The credentials to try for `image` (none: pull anonymously); a pull secret that does not parse is an error. */
export function credentialsFor(image: string, secrets: readonly V1Secret[], node: DockerKeyring | undefined): { ok: true; creds: AuthConfig[] } | { ok: false; message: string } {
  const k = makeDockerKeyring(secrets, node);
  if (!k.ok) return k;
  return { ok: true, creds: k.keyring?.lookup(repoToPull(image)).creds ?? [] };
}

/** Pulls with each credential in turn (anonymously when there are none); throws the joined errors. */
export async function pullWithCredentials(
  cri: Pick<CriClient, 'pullImage'>,
  image: string,
  creds: readonly AuthConfig[],
): Promise<PullImageResponse__Output> {
  if (creds.length === 0) return cri.pullImage({ image: { image } });
  const errs: unknown[] = [];
  for (const c of creds) {
    try {
      return await cri.pullImage({ image: { image }, auth: { username: c.username, password: c.password } });
    } catch (err) {
      errs.push(err);
    }
  }
  if (errs.length === 1) throw errs[0];
  throw new Error(aggregate(errs.map(errText)));
}

/** utilerrors.NewAggregate(...).Error(): one message alone, several deduplicated in brackets. */
export function aggregate(messages: readonly string[]): string {
  const seen = [...new Set(messages)];
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}
