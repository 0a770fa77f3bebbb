/**
 * The kubelet's getPullSecretsForPod: the Secrets a pod's imagePullSecrets name, fetched through the secret
 * manager on every sync. A Secret that cannot be fetched is left out (the pull goes on without it): logged, and
 * one Warning event FailedToRetrieveImagePullSecret names every missing one. Entries without a name are skipped
 * (the API server allowed them).
 */
import type { V1Pod, V1Secret } from '@kubernetes/client-node';
import type { Logger } from '../util/logger.ts';
import type { PodObjectSource } from '../podobjects/types.ts';
import type { EventSink } from './types.ts';

export async function pullSecretsForPod(
  deps: { objects?: PodObjectSource | undefined; events: EventSink; log: Logger },
  pod: V1Pod,
): Promise<V1Secret[]> {
  const secrets: V1Secret[] = [];
  const failed: string[] = [];
  for (const ref of pod.spec?.imagePullSecrets ?? []) {
    const name = ref.name ?? '';
    if (name === '') continue;
    const r = deps.objects ? await deps.objects.getSecret(pod, name) : { ok: false as const, message: `secret "${name}" not found` };
    if (r.ok) {
      secrets.push(r.object);
      continue;
    }
    deps.log.info('Unable to retrieve pull secret, the image pull may not succeed.', {
      pod: `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`,
      secret: `${pod.metadata?.namespace ?? 'default'}/${name}`,
      err: r.message,
    });
    failed.push(name);
  }
  if (failed.length > 0) {
    deps.events(pod, 'Warning', 'FailedToRetrieveImagePullSecret', `Unable to retrieve some image pull secrets (${failed.join(', ')}); attempting to pull the image may not succeed.`);
  }
  return secrets;
}
