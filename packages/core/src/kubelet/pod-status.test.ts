/** Pod and host IPs in the generated pod status (the kubelet's rules for hostNetwork pods). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { emptyPodStatus } from '../container/types.ts';
import { defaultHostIPs, podIPsOf } from '../api/pod-ips.ts';
import { generateApiPodStatus } from './pod-status.ts';
import { ReasonCache } from './reason-cache.ts';

const pod = (hostNetwork: boolean): V1Pod => ({
  metadata: { name: 'p', namespace: 'default', uid: 'u1' },
  spec: { hostNetwork, containers: [{ name: 'c', image: 'i' }] },
});

test('podIPsOf: runtime IPs for isolated pods, node IPs (one per family) for hostNetwork pods', () => {
  const cases: Array<[string, boolean, string[], string[], string[]]> = [
    // name, hostNetwork, runtime IPs, host IPs, want
    ['isolated with CNI', false, ['10.88.0.5'], ['192.0.2.2'], ['10.88.0.5']],
    ['isolated without IP', false, [], ['192.0.2.2'], []],
    ['hostNetwork on containerd (no sandbox IP)', true, [], ['192.0.2.2'], ['192.0.2.2']],
    ['hostNetwork, dual-stack node', true, [], ['192.0.2.2', 'fd00::2'], ['192.0.2.2', 'fd00::2']],
    ['hostNetwork, two node IPs of one family', true, [], ['192.0.2.2', '192.0.2.3'], ['192.0.2.2']],
    ['hostNetwork, runtime gave the v4 one', true, ['192.0.2.2'], ['192.0.2.2', 'fd00::2'], ['192.0.2.2', 'fd00::2']],
    ['hostNetwork, runtime gave both', true, ['192.0.2.9', 'fd00::9'], ['192.0.2.2', 'fd00::2'], ['192.0.2.9', 'fd00::9']],
    ['hostNetwork, node IP unknown', true, [], [], []],
  ];
  for (const [name, hostNetwork, runtimeIps, hostIPs, want] of cases) assert.deepEqual(podIPsOf(pod(hostNetwork), runtimeIps, hostIPs), want, name);
});

test('generateApiPodStatus: hostIP(s) on every pod, podIP(s) from podIPsOf', () => {
  const cases: Array<[string, boolean, string[], string[], Partial<Record<'hostIP' | 'podIP', string>> & { podIPs?: string[]; hostIPs?: string[] }]> = [
    ['isolated', false, ['10.89.1.2'], ['192.0.2.2'], { hostIP: '192.0.2.2', hostIPs: ['192.0.2.2'], podIP: '10.89.1.2', podIPs: ['10.89.1.2'] }],
    ['isolated, no IP yet', false, [], ['192.0.2.2'], { hostIP: '192.0.2.2', hostIPs: ['192.0.2.2'] }],
    ['hostNetwork', true, [], ['192.0.2.2'], { hostIP: '192.0.2.2', hostIPs: ['192.0.2.2'], podIP: '192.0.2.2', podIPs: ['192.0.2.2'] }],
    ['no node IP', false, ['10.89.1.2'], [], { podIP: '10.89.1.2', podIPs: ['10.89.1.2'] }],
  ];
  for (const [name, hostNetwork, ips, hostIPs, want] of cases) {
    const s = generateApiPodStatus(pod(hostNetwork), { ...emptyPodStatus('u1', 'p', 'default'), ips }, new ReasonCache(), false, undefined, hostIPs);
    const got = {
      ...(s.hostIP ? { hostIP: s.hostIP } : {}),
      ...(s.hostIPs ? { hostIPs: s.hostIPs.map((x) => x.ip) } : {}),
      ...(s.podIP ? { podIP: s.podIP } : {}),
      ...(s.podIPs ? { podIPs: s.podIPs.map((x) => x.ip) } : {}),
    };
    assert.deepEqual(got, want, name);
  }
});

test('defaultHostIPs: the node address node status reports (at most one IPv4, never loopback)', () => {
  const ips = defaultHostIPs();
  assert.ok(ips.length <= 1);
  for (const ip of ips) assert.ok(/^\d+\.\d+\.\d+\.\d+$/.test(ip) && !ip.startsWith('127.'), ip);
});
