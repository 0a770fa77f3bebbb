/** Units of the embedded runtime's CNI use: subnet choice, plugin results, and PodNetwork on a recording fake exec. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { jsonLogger } from '../util/logger.ts';
import { bridgeConfig, errorMessage, findCniBinDir, resultIp, type CniExec } from './cni.ts';
import { bridgeOf, PodNetwork } from './pod-network.ts';
import { gatewayOf, parseCidr, parseProcRoutes, pickSubnet, podRangeOf, routed, type Route } from './subnet.ts';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'nodelet-podnet-unit-'));
  dirs.push(d);
  return d;
};
const r = (cidr: string, iface = 'x'): Route => ({ iface, ...parseCidr(cidr) });

test('/proc/net/route parsing (little-endian hex), default route left out', () => {
  const text = [
    'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT',
    'eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0',
    'eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0',
    'cni0\t0000580A\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0',
  ].join('\n');
  assert.deepEqual(parseProcRoutes(text), [r('192.0.2.0/24', 'eth0'), r('10.88.0.0/16', 'cni0')]);
});

test('routed: overlap in either direction', () => {
  const cases: Array<[string, Route[], boolean]> = [
    ['10.89.3.0/24', [], false],
    ['10.89.3.0/24', [r('10.88.0.0/16')], false],
    ['10.89.3.0/24', [r('10.89.0.0/16')], true],
    ['10.89.3.0/24', [r('10.89.3.128/25')], true],
    ['10.89.3.0/24', [r('10.89.4.0/24')], false],
  ];
  for (const [subnet, routes, want] of cases) assert.equal(routed(subnet, routes), want, `${subnet} vs ${JSON.stringify(routes)}`);
});

test('pickSubnet: stable per seed, skips routed /24s, undefined when the /16 is full', () => {
  const a = pickSubnet('/var/lib/a', [])!;
  assert.match(a, /^10\.89\.\d+\.0\/24$/);
  assert.equal(pickSubnet('/var/lib/a', []), a);
  const next = pickSubnet('/var/lib/a', [r(a)])!;
  assert.notEqual(next, a);
  assert.equal(pickSubnet('/var/lib/a', [r('10.89.0.0/16')]), undefined);
  assert.equal(gatewayOf('10.89.7.0/24'), '10.89.7.1');
});

test('plugin results and errors', () => {
  const cases: Array<[string, string | undefined]> = [
    ['{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.89.1.5/24","gateway":"10.89.1.1"}]}', '10.89.1.5'],
    ['{"cniVersion":"1.0.0","ips":[{"address":"fd00::5/64"},{"address":"10.89.1.6/24"}]}', '10.89.1.6'],
    ['{"cniVersion":"0.2.0","ip4":{"ip":"10.89.1.7/24"}}', '10.89.1.7'],
    ['{"cniVersion":"0.4.0","ips":[]}', undefined],
    ['not json', undefined],
  ];
  for (const [out, want] of cases) assert.equal(resultIp(out), want, out);
  assert.equal(errorMessage('{"code":11,"msg":"failed to allocate","details":"range full"}', '', 1), 'failed to allocate: range full');
  assert.equal(errorMessage('', 'boom\n', 2), 'boom');
  assert.equal(errorMessage('', '', 3), 'plugin exited with 3');
  const cfg = JSON.parse(bridgeConfig({ name: 'n', bridge: 'b0', subnet: '10.89.1.0/24', dataDir: '/r/cni' }));
  assert.deepEqual([cfg.type, cfg.bridge, cfg.isGateway, cfg.ipMasq, cfg.ipam.type, cfg.ipam.dataDir, cfg.ipam.ranges], ['bridge', 'b0', true, false, 'host-local', '/r/cni', [[{ subnet: '10.89.1.0/24' }]]]);
});

test('findCniBinDir: first dir with bridge and host-local', () => {
  const have = new Set(['/a/bridge', '/b/bridge', '/b/host-local']);
  assert.equal(findCniBinDir(['/a', '/b'], (p) => have.has(p)), '/b');
  assert.equal(findCniBinDir(['/a'], (p) => have.has(p)), undefined);
});

interface Call { env: Record<string, string>; stdin: string; binary: string }
function fakeNet(root: string, opts: { privileged?: boolean; attached?: number; routes?: Route[]; reply?: (c: Call) => ReturnType<CniExec>; bridges?: Map<string, number>; ipCalls?: string[][] } = {}) {
  const calls: Call[] = [];
  const logs: string[] = [];
  const exec: CniExec = async (binary, env, stdin) => {
    const c = { binary, env, stdin };
    calls.push(c);
    return opts.reply ? opts.reply(c) : { ok: true, stdout: '{"ips":[{"version":"4","address":"10.89.9.2/24"}]}' };
  };
  const net = new PodNetwork({
    rootDir: root, logger: jsonLogger((l) => logs.push(l)), privileged: opts.privileged ?? true, binDir: '/cni', exec,
    routes: () => opts.routes ?? [], attached: () => opts.attached ?? 0,
    ...(opts.bridges ? { ports: (b: string) => opts.bridges!.get(b), ip: async (args: string[]) => { opts.ipCalls?.push(args); opts.bridges!.delete(args[2]!); return ''; } } : {}),
  });
  return { net, calls, logs };
}

test('PodNetwork ADD/DEL: CNI env, config on stdin, subnet persisted under the root', async () => {
  const root = tmp();
  const { net, calls } = fakeNet(root);
  assert.equal(net.enabled, true);
  assert.deepEqual(await net.add('sb1', '/proc/42/ns/net'), { ok: true, ip: '10.89.9.2' });
  assert.deepEqual(await net.del('sb1', ''), { ok: true });
  assert.deepEqual(calls.map((c) => [c.binary, c.env.CNI_COMMAND, c.env.CNI_CONTAINERID, c.env.CNI_NETNS, c.env.CNI_IFNAME, c.env.CNI_PATH]), [
    ['/cni/bridge', 'ADD', 'sb1', '/proc/42/ns/net', 'eth0', '/cni'],
    ['/cni/bridge', 'DEL', 'sb1', '', 'eth0', '/cni'],
  ]);
  const saved = JSON.parse(readFileSync(join(root, 'cni', 'network.json'), 'utf8')).subnet;
  assert.equal(saved, pickSubnet(root, []));
  const cfg = JSON.parse(calls[0]!.stdin);
  assert.deepEqual([cfg.bridge, cfg.name, cfg.ipam.ranges[0][0].subnet, cfg.ipam.dataDir], [`nodelet-e${String(saved).split('.')[2]}`, 'nodelet-embedded', saved, join(root, 'cni', 'networks')]);
});

test('PodNetwork: a plugin error is the ADD failure message; disabled when unprivileged', async () => {
  const { net } = fakeNet(tmp(), { reply: async () => ({ ok: false, message: 'failed to allocate for range 0: no IP addresses available in range set' }) });
  const r = await net.add('sb1', '/proc/1/ns/net');
  assert.deepEqual(r, { ok: false, message: 'plugin type="bridge" name="nodelet-embedded" failed (add): failed to allocate for range 0: no IP addresses available in range set' });
  const off = fakeNet(tmp(), { privileged: false });
  assert.equal(off.net.enabled, false);
  assert.equal(off.logs.filter((l) => l.includes('loopback only')).length, 1, 'said once');
});

test('PodNetwork: the saved subnet is kept while leases use it, replaced when another instance routes it', async () => {
  const cases: Array<[string, number, boolean]> = [['kept: not routed', 0, false], ['kept: leases attached', 1, true], ['replaced', 0, true]];
  for (const [name, attached, isRouted] of cases) {
    const root = tmp();
    mkdirSync(join(root, 'cni'));
    writeFileSync(join(root, 'cni', 'network.json'), JSON.stringify({ subnet: '10.89.200.0/24' }));
    const { net, calls } = fakeNet(root, { attached, routes: isRouted ? [r('10.89.200.0/24')] : [] });
    await net.add('sb', '/proc/1/ns/net');
    const used = JSON.parse(calls[0]!.stdin).ipam.ranges[0][0].subnet;
    assert.equal(used === '10.89.200.0/24', name.startsWith('kept'), name);
  }
});

test('PodNetwork: operations run one at a time', async () => {
  let inFlight = 0;
  let max = 0;
  const { net } = fakeNet(tmp(), {
    reply: async () => {
      max = Math.max(max, ++inFlight);
      await new Promise((res) => setImmediate(res));
      inFlight--;
      return { ok: true, stdout: '{"ips":[{"address":"10.89.9.3/24"}]}' };
    },
  });
  await Promise.all([net.add('a', '/p/1'), net.add('b', '/p/2'), net.del('a', '')]);
  assert.equal(max, 1);
});

test('podRangeOf: the IPv4 part of a kubelet pod CIDR as a network address; invalid ones refused with the reason', () => {
  assert.deepEqual(podRangeOf('10.244.1.7/24'), { ok: true, cidr: '10.244.1.0/24' });
  assert.deepEqual(podRangeOf('fd00:10::/64,10.96.0.0/16'), { ok: true, cidr: '10.96.0.0/16' });
  const bad: Array<[string, RegExp]> = [
    ['10.244.1.0', /^invalid pod CIDR "10.244.1.0"/],
    ['10.300.0.0/16', /^invalid pod CIDR "10.300.0.0\/16"/],
    ['pods', /^invalid pod CIDR "pods"/],
    ['fd00::/64', /has no IPv4 range/],
    ['10.0.0.0/31', /too small: at most \/30/],
  ];
  for (const [cidr, want] of bad) {
    const r = podRangeOf(cidr);
    assert.ok(!r.ok, cidr);
    assert.match(r.message, want, cidr);
  }
});

test('PodNetwork.setPodCidr: the bridge and host-local take the kubelet range, kept across a restart; "" changes nothing', async () => {
  const root = tmp();
  const { net, calls, logs } = fakeNet(root);
  assert.deepEqual(await net.setPodCidr(''), { ok: true });
  assert.deepEqual(await net.setPodCidr('10.244.7.0/24'), { ok: true });
  await net.add('sb1', '/proc/1/ns/net');
  const cfg = JSON.parse(calls[0]!.stdin);
  assert.deepEqual([cfg.ipam.ranges[0][0].subnet, cfg.bridge], ['10.244.7.0/24', bridgeOf('10.244.7.0/24')]);
  assert.match(cfg.bridge, /^nodelet-p[0-9a-f]{6}$/);
  assert.ok(logs.some((l) => l.includes('pod network range from the kubelet')));
  // A restarted runtime (the kubelet does not send the range again) keeps it.
  const again = fakeNet(root);
  await again.net.add('sb2', '/proc/2/ns/net');
  assert.equal(JSON.parse(again.calls[0]!.stdin).ipam.ranges[0][0].subnet, '10.244.7.0/24');
  const refused = await again.net.setPodCidr('10.244.7.0');
  assert.ok(!refused.ok && refused.message.startsWith('invalid pod CIDR'));
});

test('PodNetwork: with every /24 of the supernet routed the ADD failure names the way out', async () => {
  const { net } = fakeNet(tmp(), { routes: [r('10.89.0.0/16', 'other0')] });
  const got = await net.add('sb', '/proc/1/ns/net');
  assert.deepEqual(got, { ok: false, message: 'no free /24 left in 10.89.0.0/16 for network nodelet-embedded (the kubelet\'s podCIDR / --pod-cidr gives pods another range)' });
});

test('PodNetwork: a new pod range retires the old bridge, removed once its last sandbox is gone (also after a restart)', async () => {
  const root = tmp();
  const bridges = new Map<string, number>();
  const ipCalls: string[][] = [];
  const first = fakeNet(root, { bridges, ipCalls });
  await first.net.add('sb1', '/proc/1/ns/net');
  const old = JSON.parse(first.calls[0]!.stdin).bridge as string;
  bridges.set(old, 1); // sb1's veth
  await first.net.setPodCidr('10.244.7.0/24');
  assert.deepEqual(ipCalls, [], 'kept while a sandbox is on it');
  assert.deepEqual(JSON.parse(readFileSync(join(root, 'cni', 'network.json'), 'utf8')).retired, [old]);
  // The runtime restarts; sb1's DEL takes its port away: the old bridge goes.
  const again = fakeNet(root, { bridges, ipCalls });
  bridges.set(old, 0);
  await again.net.del('sb1', '');
  assert.deepEqual(ipCalls, [['link', 'del', old]]);
  assert.equal(JSON.parse(readFileSync(join(root, 'cni', 'network.json'), 'utf8')).retired, undefined);
  assert.ok(again.logs.some((l) => l.includes('removed the bridge of the previous pod range')));
  // No sandbox on the old bridge: removed at once; the same range again retires nothing.
  bridges.set(bridgeOf('10.244.7.0/24'), 0);
  await again.net.setPodCidr('10.245.0.0/16');
  await again.net.setPodCidr('10.245.0.0/16');
  assert.deepEqual(ipCalls.slice(1), [['link', 'del', bridgeOf('10.244.7.0/24')]]);
});
