'use client';
/**
 * One container log request through the console (GET /containerLogs/... on the agent, proxied with the signed-in
 * user's token), read as a stream into a LogBuffer: with follow the response stays open and lines appear as the
 * container writes them. A new URL aborts the old request and starts over; a non-2xx answer shows the agent's
 * message (e.g. `previous terminated container "x" in pod "y" not found`).
 */
import { useEffect, useRef, useState } from 'react';
import { consoleFetch } from '../../lib/trpc.ts';
import { LogBuffer } from './log-buffer.ts';
import { refusalMessage } from './log-query.ts';

export type StreamState =
  | { phase: 'idle' }
  | { phase: 'loading' }
  | { phase: 'streaming' }
  | { phase: 'ended' }
  | { phase: 'error'; status: number; message: string };

/** `reload`: a new value asks again for the same URL (e.g. after a followed log ended when its container stopped). */
export function useLogStream(url: string | null, maxLines?: number, reload = 0): { buffer: LogBuffer; state: StreamState; version: number } {
  const [buffer, setBuffer] = useState(() => new LogBuffer(maxLines));
  const [state, setState] = useState<StreamState>({ phase: 'idle' });
  const [version, setVersion] = useState(0);
  const frame = useRef<number | null>(null);

  useEffect(() => {
    if (!url) {
      setState({ phase: 'idle' });
      return;
    }
    const b = new LogBuffer(maxLines);
    setBuffer(b);
    setVersion(0);
    setState({ phase: 'loading' });
    const abort = new AbortController();
    // Many chunks a second become one render per animation frame.
    const changed = () => {
      if (frame.current !== null) return;
      frame.current = requestAnimationFrame(() => {
        frame.current = null;
        setVersion(b.version);
      });
    };
    (async () => {
      const res = await consoleFetch(url, { signal: abort.signal, headers: { accept: 'text/plain' }, cache: 'no-store' });
      if (!res.ok || !res.body) {
        setState({ phase: 'error', status: res.status, message: refusalMessage(res.status, await res.text()) });
        return;
      }
      setState({ phase: 'streaming' });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (b.append(value) > 0) changed();
      }
      b.finish();
      setVersion(b.version);
      setState({ phase: 'ended' });
    })().catch((err: unknown) => {
      if (abort.signal.aborted) return;
      b.finish();
      setVersion(b.version);
      setState({ phase: 'error', status: 0, message: `the log stream broke: ${(err as Error).message}` });
    });
    return () => {
      abort.abort();
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    };
  }, [url, maxLines, reload]);

  return { buffer, state, version };
}
