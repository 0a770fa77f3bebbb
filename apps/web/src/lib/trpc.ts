'use client';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from './app-router.ts';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** The console's anti-CSRF header: mutations without it are refused by the console server (server/request-checks.ts). */
export const CSRF_HEADERS = { 'x-nodelet-csrf': '1' } as const;

/**
 * fetch for the console's own API: a 401 means the session ended (signed out elsewhere, expired, or the agent no
 * longer accepts the token), so the page reloads and the console shows its sign-in page.
 */
export const consoleFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (res.status === 401 && typeof window !== 'undefined') window.location.reload();
  return res;
};

/**
 * Same-origin client: the console server proxies /trpc to the agent with the signed-in user's token. Queries and
 * mutations only: the console's live data comes over socket.io (features/live/live-provider.tsx).
 */
export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: '/trpc', headers: CSRF_HEADERS, fetch: consoleFetch })],
  });
}
