'use client';
import { useEffect, useState } from 'react';
import { useLive } from '../live/live-provider.tsx';

/**
 * A banner while the console cannot reach the agent: the socket.io connection is down (reconnecting, with the
 * attempt count) or the browser itself is offline. Gone as soon as the agent says hello again.
 */
export function OfflineBanner() {
  const live = useLive();
  const [browserOffline, setBrowserOffline] = useState(false);
  useEffect(() => {
    const update = () => setBrowserOffline(!navigator.onLine);
    update();
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  if (live.state !== 'reconnecting' && !browserOffline) return null;
  return (
    <div className="offline-banner" role="status" aria-live="polite" data-testid="offline-banner" data-attempt={live.attempt}>
      <strong>{browserOffline ? 'This browser is offline.' : 'Lost the connection to the agent.'}</strong>{' '}
      <span>
        Reconnecting{live.attempt ? ` (attempt ${live.attempt})` : ''}… The data shown is from before the connection dropped and
        refreshes when it is back.
      </span>
    </div>
  );
}
