// Original file: proto/runtime/v1/api.proto

import type { ImageFilter as _runtime_v1_ImageFilter, ImageFilter__Output as _runtime_v1_ImageFilter__Output } from '../../runtime/v1/ImageFilter.ts';

export interface StreamImagesRequest {
  'filter'?: (_runtime_v1_ImageFilter | null);
}

export interface StreamImagesRequest__Output {
  'filter': (_runtime_v1_ImageFilter__Output | null);
}
