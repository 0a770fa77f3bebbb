// Integration: the CLI as a real process; a client-node client uses the kubeconfig it prints.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { waitFor } from './testing/wait.ts';

test('main.ts serves on --port 0, prints node kubeconfigs, exits and cleans up on SIGTERM', async (t) => {
  const main = fileURLToPath(new URL('./main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main, '--port', '0', '--node', 'node-a'], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => child.exitCode === null && child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const path = await waitFor(() => /node node-a kubeconfig: (\S+)/.exec(out)?.[1], 'kubeconfig line', 60_000);
  assert.match(out, /apiserver double \(NOT kube-apiserver\) listening on https:\/\/127\.0\.0\.1:\d+/);
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  const list = await kc.makeApiClient(CoreV1Api).listNamespace();
  assert.ok(list.items.some((n) => n.metadata?.name === 'kube-node-lease'));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.equal(existsSync(path), false, 'temp kubeconfigs removed on stop');
});
