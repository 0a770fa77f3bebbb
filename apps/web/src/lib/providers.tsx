'use client';
import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TRPCProvider, makeTrpcClient } from './trpc.ts';
import { LiveProvider } from '../features/live/live-provider.tsx';
import { LiveCacheSync } from '../features/live/live-cache-sync.tsx';

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5_000, retry: 2, retryDelay: (n) => Math.min(1000 * 2 ** n, 8000), refetchOnWindowFocus: false },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <LiveProvider>
          <LiveCacheSync />
          {children}
        </LiveProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
