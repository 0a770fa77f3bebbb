import { join } from 'node:path';
import type { ImageServiceHandlers } from '../../../../proto/gen/runtime/v1/ImageService.ts';
import type { AuthConfig__Output } from '../../../../proto/gen/runtime/v1/AuthConfig.ts';
import type { ImageFailureReason, ImageStoreApi, RegistryAuth } from '../images/types.ts';
import type { CriCode } from '../runtime/result.ts';
import { fail, ok } from '../runtime/result.ts';
import { dirUsage } from '../runtime/stats.ts';
import type { Logger } from '../util/logger.ts';
import { nowNs } from '../util/time.ts';
import { toCriImage } from './convert.ts';
import { unary, unimplementedStream } from './unary.ts';

const PULL_CODES: Record<ImageFailureReason, CriCode> = {
  NotFound: 'NOT_FOUND',
  Unauthorized: 'UNKNOWN',
  Unreachable: 'UNKNOWN',
  Invalid: 'INVALID_ARGUMENT',
};

function authOf(a: AuthConfig__Output | null): RegistryAuth | undefined {
  if (!a) return undefined;
  const out: RegistryAuth = {};
  if (a.username) out.username = a.username;
  if (a.password) out.password = a.password;
  if (a.auth) out.auth = a.auth;
  if (a.identityToken) out.identityToken = a.identityToken;
  if (a.registryToken) out.registryToken = a.registryToken;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** CRI ImageService: delegates to the image store. */
export function imageServiceHandlers(images: ImageStoreApi, logger: Logger, rootDir: string): ImageServiceHandlers {
  return {
    ListImages: unary(logger, 'ListImages', (req) => {
      const ref = req.filter?.image?.image;
      if (ref) {
        const one = images.status(ref);
        return ok({ images: one ? [toCriImage(one)] : [] });
      }
      return ok({ images: images.list().map(toCriImage) });
    }),
    ImageStatus: unary(logger, 'ImageStatus', (req) => {
      const img = images.status(req.image?.image ?? '');
      return ok({ image: img ? toCriImage(img) : null, info: {} });
    }),
    PullImage: unary(logger, 'PullImage', async (req) => {
      const ref = req.image?.image ?? '';
      const t0 = Date.now();
      const auth = authOf(req.auth);
      const r = await images.pull(ref, auth ? { auth } : {});
      if (!r.ok) {
        logger.warn('pull failed', { ref, reason: r.reason, err: r.message });
        return fail(PULL_CODES[r.reason], `failed to pull and unpack image "${ref}": ${r.message}`);
      }
      logger.info('image pulled', { ref, id: r.image.id, ms: Date.now() - t0 });
      return ok({ imageRef: r.image.id });
    }),
    RemoveImage: unary(logger, 'RemoveImage', async (req) => {
      const ref = req.image?.image ?? '';
      const removed = await images.remove(ref);
      logger.info('image remove', { ref, removed });
      return ok({});
    }),
    ImageFsInfo: unary(logger, 'ImageFsInfo', () => {
      const fs = images.fsInfo();
      const ts = nowNs();
      const containers = join(rootDir, 'containers');
      const cu = dirUsage(containers);
      return ok({
        imageFilesystems: [{ timestamp: ts, fsId: { mountpoint: fs.mountpoint }, usedBytes: { value: fs.usedBytes }, inodesUsed: { value: fs.inodesUsed } }],
        containerFilesystems: [{ timestamp: ts, fsId: { mountpoint: containers }, usedBytes: { value: cu.bytes }, inodesUsed: { value: cu.inodes } }],
      });
    }),
    StreamImages: unimplementedStream('StreamImages'),
  } as ImageServiceHandlers;
}
