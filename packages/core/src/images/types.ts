/** Image manager: makes sure a container's image is present according to its pull policy. */
import type { V1Container, V1Pod, V1Secret } from '@kubernetes/client-node';
import type { ImageStatusResponse__Output } from '../cri/types.ts';

export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';

/** Kubelet image error reasons (waiting reasons of the container). */
export type ImageErrorReason = 'ErrImagePull' | 'ImagePullBackOff' | 'ErrImageNeverPull' | 'InvalidImageName' | 'ImageInspectError';

/** The image an ImageStatus read found (uid, username, id). */
export type StatusImage = NonNullable<ImageStatusResponse__Output['image']>;

/**
 * `image`: the ImageStatus read that found the image present (no pull), for the caller's getImageUser, which
 * would read the same status again (one CRI round trip less per container start).
 */
export type EnsureImageResult =
  | { ok: true; imageRef: string; image?: StatusImage }
  | { ok: false; reason: ImageErrorReason; message: string };

export interface ImageManager {
  /**
   * Pulls when the policy says so (events Pulling/Pulled/Failed/BackOff), with the credentials of the pod's
   * pull secrets (the Secrets its imagePullSecrets name) and the node's; returns the image reference (id).
   */
  ensureImageExists(pod: V1Pod, container: V1Container, pullSecrets?: readonly V1Secret[]): Promise<EnsureImageResult>;
  /**
   * Asks the runtime for the containers' images' status now (while the pod's sandbox starts), for the pod's next
   * EnsureImageExists of each to use instead of asking again; a pull, if one is needed, and every event still come
   * from EnsureImageExists, in order. Returns what drops the answers not used (call it when the sync ends).
   */
  inspectAhead?(pod: V1Pod, containers: readonly V1Container[]): () => void;
}
