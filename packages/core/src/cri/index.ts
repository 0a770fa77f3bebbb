/** @nodelet/core/cri: the CRI v1 gRPC client. */
export { createCriClient, CRI_CHANNEL_OPTIONS } from './client.ts';
export { CriError, type CriClient } from './types.ts';
