/** tRPC v11 instance for the console API (no transformer: plain JSON). */
import { initTRPC } from '@trpc/server';
import type { HealthReport, KubeletApi } from '@nodelet/core/kubelet/types.ts';
import type { UserInfo } from '../servers/auth.ts';

export interface TrpcContext {
  kubelet: KubeletApi;
  user: UserInfo;
  /** The health behind /healthz (the agent's checks: shutdown, apiserver); default kubelet.healthz(). */
  health?: () => HealthReport;
}

const t = initTRPC.context<TrpcContext>().create({
  sse: {
    ping: { enabled: true, intervalMs: 15_000 },
    client: { reconnectAfterInactivityMs: 45_000 },
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
