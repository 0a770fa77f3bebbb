/** Unix socket files for watcher tests: a listening net.Server per path; closing one removes its file. */
import net from 'node:net';
import { rm } from 'node:fs/promises';

export interface TestSocket {
  readonly path: string;
  close(): Promise<void>;
}

export async function listenSocket(p: string): Promise<TestSocket> {
  const s = net.createServer();
  await new Promise<void>((resolve, reject) => s.once('error', reject).listen(p, () => resolve()));
  return {
    path: p,
    close: async () => {
      await new Promise<void>((resolve) => s.close(() => resolve()));
      await rm(p, { force: true });
    },
  };
}
