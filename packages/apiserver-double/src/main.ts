/**
 * Run the apiserver double by hand:
 *   node --import tsx packages/apiserver-double/src/main.ts [--port 6443] [--host 127.0.0.1] [--no-tls]
 *        [--node NAME ...] [--kubeconfig-dir DIR] [--bootstrap-token ID.SECRET ...]
 *        [--cluster-signing-duration 1m] [--csr-auto-approve]
 * Prints the URL, the admin kubeconfig path, one kubeconfig per --node (node client certs) and one bootstrap
 * kubeconfig per --bootstrap-token; Ctrl-C stops.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseGoDuration } from '@nodelet/core/eviction';
import { startApiServerDouble } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '6443' },
    host: { type: 'string', default: '127.0.0.1' },
    'no-tls': { type: 'boolean', default: false },
    node: { type: 'string', multiple: true, default: [] },
    'kubeconfig-dir': { type: 'string' },
    'bootstrap-token': { type: 'string', multiple: true, default: [] },
    'cluster-signing-duration': { type: 'string' },
    'csr-auto-approve': { type: 'boolean', default: false },
  },
});

const signing = values['cluster-signing-duration'] === undefined ? undefined : parseGoDuration(values['cluster-signing-duration']);
if (signing && (!signing.ok || signing.ms <= 0)) {
  process.stderr.write(`error: --cluster-signing-duration: ${signing.ok ? 'must be positive' : signing.reason}\n`);
  process.exit(1);
}
const double = await startApiServerDouble({
  port: Number(values.port),
  host: values.host,
  tls: !values['no-tls'],
  bootstrapTokens: values['bootstrap-token'],
  csrAutoApprove: values['csr-auto-approve'],
  ...(signing?.ok ? { clusterSigningDurationMs: signing.ms } : {}),
});
const dir = values['kubeconfig-dir'] ? resolve(values['kubeconfig-dir']) : undefined;
if (dir) mkdirSync(dir, { recursive: true });
const at = (file: string) => (dir ? join(dir, file) : undefined);
process.stdout.write(`apiserver double (NOT kube-apiserver) listening on ${double.url}\n`);
process.stdout.write(`admin kubeconfig: ${double.adminKubeconfig(at('admin.kubeconfig'))}\n`);
for (const n of values.node ?? []) {
  process.stdout.write(`node ${n} kubeconfig: ${double.kubeconfigFor(n, { path: at(`${n}.kubeconfig`) })}\n`);
}
for (const t of values['bootstrap-token'] ?? []) {
  const id = t.split('.')[0];
  process.stdout.write(`bootstrap kubeconfig (token ${id}): ${double.bootstrapKubeconfig(t, at(`bootstrap-${id}.kubeconfig`))}\n`);
}
const stop = () => {
  void double.stop().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
