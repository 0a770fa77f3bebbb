import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Providers } from '../lib/providers.tsx';
import { AppHeader } from '../features/layout/app-header.tsx';
import './globals.css';

export const metadata: Metadata = { title: 'nodelet console', description: 'Live view of a nodelet node' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <AppHeader />
          <main className="main">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
