// Expected contents from kubernetes pkg/kubelet/kubelet_pods_test.go (TestManagedHostsFileContent,
// TestNodeHostsFileContent); the mount rules from kubelet_pods.go makeMounts / makeHostsMount.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { makeHostsMount, managedHostsFileContent, nodeHostsFileContent, podHostNameAndDomain } from './etc-hosts.ts';

const LOCAL = '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';
const HEADER = '# Kubernetes-managed hosts file.\n';

test('managedHostsFileContent: the upstream table', () => {
  const foo = { ip: '123.45.67.89', hostnames: ['foo', 'bar', 'baz'] };
  const park = { ip: '456.78.90.123', hostnames: ['park', 'doo', 'boo'] };
  const rows: Array<[string[], string, string, Array<{ ip: string; hostnames: string[] }>, string]> = [
    [['123.45.67.89'], 'podFoo', '', [], `${HEADER}${LOCAL}123.45.67.89\tpodFoo\n`],
    [['203.0.113.1'], 'podFoo', 'domainFoo', [], `${HEADER}${LOCAL}203.0.113.1\tpodFoo.domainFoo\tpodFoo\n`],
    [['203.0.113.1'], 'podFoo', 'domainFoo', [foo], `${HEADER}${LOCAL}203.0.113.1\tpodFoo.domainFoo\tpodFoo\n\n# Entries added by HostAliases.\n123.45.67.89\tfoo\tbar\tbaz\n`],
    [['203.0.113.1'], 'podFoo', 'domainFoo', [foo, park], `${HEADER}${LOCAL}203.0.113.1\tpodFoo.domainFoo\tpodFoo\n\n# Entries added by HostAliases.\n123.45.67.89\tfoo\tbar\tbaz\n456.78.90.123\tpark\tdoo\tboo\n`],
    [['203.0.113.1', 'fd00::6'], 'podFoo', 'domainFoo', [], `${HEADER}${LOCAL}203.0.113.1\tpodFoo.domainFoo\tpodFoo\nfd00::6\tpodFoo.domainFoo\tpodFoo\n`],
  ];
  for (const [ips, name, domain, aliases, want] of rows) assert.equal(managedHostsFileContent(ips, name, domain, aliases), want);
});

test('nodeHostsFileContent: host-network header, the node file unchanged, then the aliases', () => {
  const raw = `# hosts file for testing.\n${LOCAL}123.45.67.89\tsome.domain\n`;
  assert.equal(nodeHostsFileContent(raw, []), `# Kubernetes-managed hosts file (host network).\n${raw}`);
  const aliases = [{ ip: '123.45.67.89', hostnames: ['foo', 'bar', 'baz'] }, { ip: '456.78.90.123', hostnames: ['park', 'doo', 'boo'] }];
  assert.equal(nodeHostsFileContent(raw, aliases), `# Kubernetes-managed hosts file (host network).\n${raw}\n# Entries added by HostAliases.\n123.45.67.89\tfoo\tbar\tbaz\n456.78.90.123\tpark\tdoo\tboo\n`);
});

test('pod hostname and domain: spec.hostname over the name, 63 characters, subdomain.<ns>.svc.<cluster domain>', () => {
  const pod = (spec: Record<string, unknown>, name = 'web-0'): V1Pod => ({ metadata: { name, namespace: 'ns1' }, spec: { containers: [], ...spec } });
  assert.deepEqual(podHostNameAndDomain(pod({}), 'cluster.local'), { hostName: 'web-0', hostDomain: '' });
  assert.deepEqual(podHostNameAndDomain(pod({ hostname: 'h', subdomain: 's' }), 'cluster.local'), { hostName: 'h', hostDomain: 's.ns1.svc.cluster.local' });
  assert.equal(podHostNameAndDomain(pod({}, `${'a'.repeat(62)}-b`), '').hostName, 'a'.repeat(62));
});

test('makeHostsMount: written to <podDir>/etc-hosts (0644) and mounted read-write; none without IPs or when the container mounts /etc/hosts', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'etc-hosts-'));
  try {
    const pod: V1Pod = { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [], hostAliases: [{ ip: '1.2.3.4', hostnames: ['foo.local'] }] } };
    const c = { name: 'c' };
    const m = await makeHostsMount(pod, c, { podDir: dir, podIPs: ['10.88.0.5'] });
    assert.deepEqual(m, { containerPath: '/etc/hosts', hostPath: join(dir, 'etc-hosts'), readonly: false, selinuxRelabel: true });
    assert.equal(await readFile(join(dir, 'etc-hosts'), 'utf8'), `${HEADER}${LOCAL}10.88.0.5\tp\n\n# Entries added by HostAliases.\n1.2.3.4\tfoo.local\n`);
    assert.equal((await stat(join(dir, 'etc-hosts'))).mode & 0o777, 0o644);
    assert.equal(await makeHostsMount(pod, c, { podDir: dir, podIPs: [] }), undefined);
    assert.equal(await makeHostsMount(pod, { name: 'c', volumeMounts: [{ name: 'v', mountPath: '/etc/hosts' }] }, { podDir: dir, podIPs: ['10.88.0.5'] }), undefined);
    const hostNet: V1Pod = { ...pod, spec: { ...pod.spec!, hostNetwork: true } };
    await makeHostsMount(hostNet, c, { podDir: dir, podIPs: ['192.168.1.2'], readNodeHosts: async () => '127.0.0.1\tlocalhost\n' });
    assert.equal(await readFile(join(dir, 'etc-hosts'), 'utf8'), '# Kubernetes-managed hosts file (host network).\n127.0.0.1\tlocalhost\n\n# Entries added by HostAliases.\n1.2.3.4\tfoo.local\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
