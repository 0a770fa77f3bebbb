/**
 * tRPC v11 instance for the console API (no transformer: plain JSON). Errors carry no stack trace and no host
 * path outside development (NODE_ENV=development): an INTERNAL_SERVER_ERROR's message is replaced by a generic
 * text (the server's onError logs the real one) and absolute paths in other messages become "<path>".
 */
import { initTRPC } from '@trpc/server';
import type { HealthReport, KubeletApi } from '@nodelet/core/kubelet';
import type { UserInfo } from '../servers/auth.ts';
import type { StreamHub } from '../streams/hub.ts';
import type { FlightRecorderApi } from '../recorder/types.ts';
import { redactPaths } from '../servers/http-util.ts';
import type { CertificatesStatus } from '../certificate/managers.ts';

export const INTERNAL_ERROR_MESSAGE = 'internal error (details in the node\'s agent log)';

export interface TrpcContext {
  kubelet: KubeletApi;
  /** The event hub every subscription reads (socket.io shares it). */
  streams: StreamHub;
  user: UserInfo;
  /** The flight recorder (recorder.query, the "why" explainer); absent when it is off. */
  recorder?: FlightRecorderApi;
  /** The health behind /healthz (the agent's checks: shutdown, apiserver); default kubelet.healthz(). */
  health?: () => HealthReport;
  /** The certificate managers' state (certificates.status). */
  certificates?: () => CertificatesStatus;
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    if (process.env.NODE_ENV === 'development') return shape;
    const { stack: _stack, ...data } = shape.data;
    const message = error.code === 'INTERNAL_SERVER_ERROR' ? INTERNAL_ERROR_MESSAGE : redactPaths(shape.message);
    return { ...shape, message, data };
  },
  sse: {
    ping: { enabled: true, intervalMs: 15_000 },
    client: { reconnectAfterInactivityMs: 45_000 },
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
