/**
 * Run the apiserver double by hand:
 *   node --import tsx packages/apiserver-double/src/main.ts [--port 6443] [--host 127.0.0.1] [--no-tls]
 *        [--node NAME ...] [--kubeconfig-dir DIR]
 * Prints the URL, the admin kubeconfig path and one kubeconfig per --node (node client certs); Ctrl-C stops.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startApiServerDouble } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '6443' },
    host: { type: 'string', default: '127.0.0.1' },
    'no-tls': { type: 'boolean', default: false },
    node: { type: 'string', multiple: true, default: [] },
    'kubeconfig-dir': { type: 'string' },
  },
});

const double = await startApiServerDouble({ port: Number(values.port), host: values.host, tls: !values['no-tls'] });
const dir = values['kubeconfig-dir'] ? resolve(values['kubeconfig-dir']) : undefined;
if (dir) mkdirSync(dir, { recursive: true });
const at = (file: string) => (dir ? join(dir, file) : undefined);
process.stdout.write(`apiserver double (NOT kube-apiserver) listening on ${double.url}\n`);
process.stdout.write(`admin kubeconfig: ${double.adminKubeconfig(at('admin.kubeconfig'))}\n`);
for (const n of values.node ?? []) {
  process.stdout.write(`node ${n} kubeconfig: ${double.kubeconfigFor(n, { path: at(`${n}.kubeconfig`) })}\n`);
}
const stop = () => {
  void double.stop().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
