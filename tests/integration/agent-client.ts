// A tiny client for integration tests: calls the agent's 10250 API (tRPC queries) with the console's client
// certificate from the stack's PKI directory.
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Stack } from '../../e2e/harness.ts';

export async function trpcQuery<T>(stack: Stack, path: string, input?: unknown): Promise<T> {
  const pki = join(stack.rootDir, 'pki');
  const qs = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const body = await new Promise<string>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: stack.ports.kubelet,
        path: `/trpc/${path}${qs}`,
        method: 'GET',
        ca: readFileSync(join(pki, 'ca.crt')),
        cert: readFileSync(join(pki, 'console.crt')),
        key: readFileSync(join(pki, 'console.key')),
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (data += d));
        res.on('end', () => (res.statusCode === 200 ? resolve(data) : reject(new Error(`${path}: HTTP ${res.statusCode} ${data}`))));
      },
    );
    req.on('error', reject);
    req.end();
  });
  return (JSON.parse(body) as { result: { data: T } }).result.data;
}
