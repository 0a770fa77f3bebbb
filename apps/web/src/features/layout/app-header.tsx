'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc.ts';
import { useLive } from '../live/live-provider.tsx';
import { ThemeToggle } from './theme-toggle.tsx';

const LINKS = [
  { href: '/', label: 'Node & pods' },
  { href: '/events', label: 'Lifecycle tail' },
  { href: '/recorder', label: 'Recorder' },
  { href: '/containers', label: 'Containers' },
  { href: '/images', label: 'Images' },
  { href: '/resources', label: 'Resources' },
  { href: '/gc', label: 'GC' },
  { href: '/nodes', label: 'Nodes' },
];

const isActive = (pathname: string, href: string) => (href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`));

export function AppHeader() {
  const trpc = useTRPC();
  const live = useLive();
  const node = useQuery(trpc.node.get.queryOptions());
  const pathname = usePathname();
  const name = node.data?.name ?? live.node?.name ?? '…';
  return (
    <header className="app-header">
      <div className="brand">
        <span className="logo" aria-hidden>◆</span>
        <span>nodelet</span>
        <span className="node-name" data-testid="node-name">{name}</span>
      </div>
      <nav className="nav">
        {LINKS.map((l) => (
          <Link key={l.href} href={l.href} className={isActive(pathname, l.href) ? 'active' : undefined} data-testid={`nav-${l.href === '/' ? 'home' : l.href.slice(1)}`}>
            {l.label}
          </Link>
        ))}
      </nav>
      <span className={`conn conn-${live.state}`} data-testid="connection-status" data-state={live.state} title="socket.io connection to the agent">
        <span className="dot" aria-hidden />
        {live.state}
      </span>
      <ThemeToggle />
      <form method="post" action="/sign-out" className="sign-out">
        <button type="submit" data-testid="sign-out" title="End this console session">Sign out</button>
      </form>
    </header>
  );
}
