/**
 * The tRPC console API handler (/trpc on the kubelet port). Loaded on the first /trpc request (kubelet-server.ts):
 * @trpc/server, the routers and zod are code and module source text a node nobody opens a console on never needs
 * (with socket.io loaded late too, the idle agent's RSS 84 → 80 MiB; docs/performance.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import type { Logger } from '@nodelet/core/util';
import { appRouter } from '../trpc/router.ts';
import type { TrpcContext } from '../trpc/trpc.ts';
import { MAX_TRPC_BODY_BYTES } from './limits.ts';

export function createTrpcHandler(o: { context: (req: IncomingMessage) => TrpcContext; logger: Logger }): (req: IncomingMessage, res: ServerResponse) => void {
  return createHTTPHandler({
    router: appRouter,
    basePath: '/trpc/',
    maxBodySize: MAX_TRPC_BODY_BYTES,
    createContext: ({ req }): TrpcContext => o.context(req),
    onError: ({ path, error }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') o.logger.error('trpc error', { path, err: error.message });
    },
  });
}
