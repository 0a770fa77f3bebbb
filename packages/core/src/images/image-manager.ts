/**
 * The kubelet's image manager (EnsureImageExists): honours the pull policy, records Pulling/Pulled/Failed/
 * BackOff events, and backs off failed pulls per (pod UID, image): ErrImagePull, then ImagePullBackOff.
 * Pulls carry the credentials the pod's pull secrets and the node's keyring hold for the image's registry
 * (pull-credentials.ts).
 */
import type { V1Container, V1Pod, V1Secret } from '@kubernetes/client-node';
import type { CriClient } from '../cri/types.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { Backoff, IMAGE_BACKOFF, type BackoffConfig } from '../util/backoff.ts';
import type { EventSink } from '../kuberuntime/types.ts';
import { applyDefaultImageTag, pullPolicyOf } from './image-ref.ts';
import type { EnsureImageResult, ImageManager, StatusImage } from './types.ts';
import { ImagePuller, type PullerConfig } from './image-puller.ts';
import type { DockerKeyring } from '../credentialprovider/keyring.ts';
import { errText } from '../kuberuntime/start-container.ts';
import { credentialsFor, pullWithCredentials } from './pull-credentials.ts';

export interface ImageManagerDeps {
  cri: Pick<CriClient, 'imageStatus' | 'pullImage'>;
  clock: Clock;
  logger: Logger;
  events: EventSink;
  /** The node's own registry credentials (credentialprovider/node-credentials.ts); none when absent. */
  nodeKeyring?: () => Promise<DockerKeyring>;
}

export interface ImageManagerConfig extends PullerConfig {
  backOff?: BackoffConfig;
}

export class KubeImageManager implements ImageManager {
  private readonly backOff: Backoff;
  private readonly log: Logger;
  private readonly puller: ImagePuller;
  /** ImageStatus answers asked ahead (pod uid + container name → answer), each used once. */
  private readonly ahead = new Map<string, Promise<{ image: StatusImage | null } | { err: unknown }>>();

  constructor(
    private readonly deps: ImageManagerDeps,
    config: ImageManagerConfig = {},
  ) {
    this.backOff = new Backoff(deps.clock, config.backOff ?? IMAGE_BACKOFF);
    this.log = deps.logger.child('images');
    this.puller = new ImagePuller(config);
  }

  async ensureImageExists(pod: V1Pod, c: V1Container, pullSecrets: readonly V1Secret[] = []): Promise<EnsureImageResult> {
    const ev = (type: 'Normal' | 'Warning', reason: string, msg: string) => this.deps.events(pod, type, reason, msg, fieldPath(pod, c));
    const requested = c.image ?? '';
    const tagged = applyDefaultImageTag(requested);
    if (!tagged.ok) {
      const message = `Failed to apply default image tag "${requested}": couldn't parse image name "${requested}": ${tagged.message}`;
      ev('Warning', 'InspectFailed', message);
      return { ok: false, reason: 'InvalidImageName', message };
    }
    const image = tagged.image;
    let imageRef = '';
    let status: StatusImage | null = null;
    const ahead = this.takeAhead(pod, c);
    try {
      const asked = ahead && (await ahead);
      if (asked && 'err' in asked) throw asked.err;
      status = asked ? asked.image : (await this.deps.cri.imageStatus({ image: { image } })).image;
      imageRef = status?.id ?? '';
    } catch (err) {
      const message = `Failed to inspect image "${requested}": ${errText(err)}`;
      ev('Warning', 'Failed', message);
      return { ok: false, reason: 'ImageInspectError', message };
    }
    const policy = pullPolicyOf(c);
    const present = imageRef !== '';
    const shouldPull = policy === 'Always' || (policy === 'IfNotPresent' && !present);
    if (!shouldPull) {
      if (present) {
        ev('Normal', 'Pulled', `Container image "${requested}" already present on machine`);
        return { ok: true, imageRef, ...(status ? { image: status } : {}) };
      }
      const message = `Container image "${requested}" is not present with pull policy of Never`;
      ev('Warning', 'ErrImageNeverPull', message);
      return { ok: false, reason: 'ErrImageNeverPull', message };
    }
    return this.pull(pod, c, image, pullSecrets, ev);
  }

  inspectAhead(pod: V1Pod, containers: readonly V1Container[]): () => void {
    const keys: string[] = [];
    for (const c of containers) {
      const tagged = applyDefaultImageTag(c.image ?? '');
      if (!tagged.ok) continue; // EnsureImageExists reports it
      const key = aheadKey(pod, c);
      keys.push(key);
      this.ahead.set(key, this.deps.cri.imageStatus({ image: { image: tagged.image } }).then((r) => ({ image: r.image }), (err: unknown) => ({ err })));
    }
    return () => {
      for (const k of keys) this.ahead.delete(k);
    };
  }

  private takeAhead(pod: V1Pod, c: V1Container) {
    const key = aheadKey(pod, c);
    const p = this.ahead.get(key);
    this.ahead.delete(key);
    return p;
  }

  private async pull(
    pod: V1Pod,
    c: V1Container,
    image: string,
    pullSecrets: readonly V1Secret[],
    ev: (type: 'Normal' | 'Warning', reason: string, msg: string) => void,
  ): Promise<EnsureImageResult> {
    const requested = c.image ?? '';
    const key = `${pod.metadata?.uid ?? ''}_${requested}`;
    if (this.backOff.isInBackOffSinceUpdate(key, this.deps.clock.now())) {
      const message = `Back-off pulling image "${requested}"`;
      ev('Normal', 'BackOff', message);
      return { ok: false, reason: 'ImagePullBackOff', message };
    }
    ev('Normal', 'Pulling', `Pulling image "${requested}"`);
    const queuedAt = this.deps.clock.monotonic();
    let start = queuedAt;
    try {
      const r = await this.puller.run(async () => {
        start = this.deps.clock.monotonic();
        const creds = credentialsFor(image, pullSecrets, await this.deps.nodeKeyring?.());
        if (!creds.ok) throw new Error(creds.message);
        if (creds.creds.length === 0) this.log.debug('pulling image without credentials', { image: requested });
        return pullWithCredentials(this.deps.cri, image, creds.creds);
      });
      const done = this.deps.clock.monotonic();
      const took = done - start;
      const waited = done - queuedAt;
      const st = await this.deps.cri.imageStatus({ image: { image: r.imageRef || image } });
      const size = st.image?.size ?? 0;
      ev('Normal', 'Pulled', `Successfully pulled image "${requested}" in ${formatSeconds(took)} (${formatSeconds(waited)} including waiting). Image size: ${size} bytes.`);
      this.backOff.gc();
      return { ok: true, imageRef: r.imageRef || st.image?.id || image };
    } catch (err) {
      const message = `Failed to pull image "${requested}": ${errText(err)}`;
      ev('Warning', 'Failed', message);
      this.backOff.next(key, this.deps.clock.now());
      this.log.info('image pull failed', { image: requested, err: errText(err) });
      return { ok: false, reason: 'ErrImagePull', message };
    }
  }
}

function aheadKey(pod: V1Pod, c: V1Container): string {
  return `${pod.metadata?.uid ?? ''}/${c.name}`;
}

function fieldPath(pod: V1Pod, c: V1Container): string {
  const init = (pod.spec?.initContainers ?? []).some((x) => x.name === c.name);
  return `spec.${init ? 'initContainers' : 'containers'}{${c.name}}`;
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}
