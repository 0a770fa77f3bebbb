import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Providers } from '../lib/providers.tsx';
import { AppHeader } from '../features/layout/app-header.tsx';
import { OfflineBanner } from '../features/layout/offline-banner.tsx';
import { THEME_SCRIPT } from '../features/layout/theme-script.ts';
import './globals.css';

export const metadata: Metadata = { title: 'nodelet console', description: 'Live view of a nodelet node' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // data-theme is set before hydration by THEME_SCRIPT (the user's light / dark choice).
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <Providers>
          <AppHeader />
          <OfflineBanner />
          <main className="main">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
