/** The reserved host image: the host's root filesystem as an image (read-only, pinned, never removed). */
import { createHash } from 'node:crypto';
import { HOST_IMAGE_REF, type ImageConfig, type ImageRecord } from './types.ts';

export const HOST_IMAGE_ID = 'sha256:' + createHash('sha256').update('nodelet.local/host image v1').digest('hex');

export const HOST_IMAGE_CONFIG: ImageConfig = {
  entrypoint: [],
  cmd: [],
  env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
  workingDir: '',
  user: '',
  labels: { 'io.nodelet.image': 'host' },
};

export function hostImageRecord(): ImageRecord {
  return { id: HOST_IMAGE_ID, repoTags: [HOST_IMAGE_REF], repoDigests: [], size: 0, pinned: true };
}
