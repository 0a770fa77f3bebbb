import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32, gunzipSync, inflateRawSync } from 'node:zlib';
import { Gauge, Registry } from 'prom-client';
import { CADVISOR_LABELS, CONTAINER_METRICS, type CadvisorContainerInfo } from './cadvisor-collector.ts';
import { CadvisorRenderer, renderCadvisorMetrics } from './cadvisor-renderer.ts';
import { SAMPLE } from './testing/sample-registry.ts';

function lines(text: string, name: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
}

test('series are computed at scrape time from the current containers', async () => {
  const containers: CadvisorContainerInfo[] = [
    { id: '/kubepods/besteffort/podu1/c1', name: 'c1', image: 'img', pod: 'p', namespace: 'ns', container: 'app', sample: SAMPLE, spec: { cpuShares: 2, memoryLimit: -1 } },
    { id: '/kubepods/besteffort/podu1/nosample' },
  ];
  let machineCalls = 0;
  const source = { containers: () => containers, machine: () => (machineCalls++, undefined) };
  const first = renderCadvisorMetrics(source);
  const L = 'id="/kubepods/besteffort/podu1/c1",name="c1",image="img",pod="p",namespace="ns",container="app"';
  const cases: [string, string[]][] = [
    ['container_cpu_usage_seconds_total', [`container_cpu_usage_seconds_total{${L},cpu="total"} 5`]],
    ['container_cpu_cfs_throttled_seconds_total', [`container_cpu_cfs_throttled_seconds_total{${L}} 0.1`]],
    ['container_memory_working_set_bytes', [`container_memory_working_set_bytes{${L}} 800`]],
    ['container_memory_failcnt', [`container_memory_failcnt{${L}} 3`]],
    ['container_oom_events_total', [`container_oom_events_total{${L}} 1`]],
    ['container_network_receive_bytes_total', [`container_network_receive_bytes_total{${L},interface="eth0"} 10`]],
    ['container_threads', [`container_threads{${L}} 5`]],
    ['container_spec_memory_limit_bytes', [`container_spec_memory_limit_bytes{${L}} 0`]],
    ['container_spec_cpu_quota', []],
    ['machine_cpu_cores', []],
  ];
  for (const [name, want] of cases) assert.deepEqual(lines(first, name), want, name);
  assert.ok(machineCalls > 0);
  containers.splice(0, 1);
  const second = renderCadvisorMetrics(source);
  assert.deepEqual(lines(second, 'container_memory_usage_bytes'), [], 'a removed container leaves no stale series');
});

test('the text is what prom-client writes for the same series (HELP/TYPE, label order, escaping, block spacing)', async () => {
  const odd: CadvisorContainerInfo = { id: '/kubepods/podu2/c"2', name: 'c\\2', image: 'img\nx', pod: 'p', namespace: 'ns', container: 'a', sample: SAMPLE };
  const text = renderCadvisorMetrics({ containers: () => [odd], machine: () => undefined });
  const r = new Registry();
  const labels = { id: odd.id, name: odd.name ?? '', image: odd.image ?? '', pod: 'p', namespace: 'ns', container: 'a' };
  new Gauge({ name: 'container_memory_rss', help: 'Size of RSS in bytes.', labelNames: Object.keys(labels), registers: [r] }).set(labels, 600);
  new Gauge({ name: 'container_threads', help: 'Number of threads running inside the container.', labelNames: Object.keys(labels), registers: [r] }).set(labels, 5);
  const ref = await r.metrics();
  const pick = (t: string, name: string) => t.split('\n\n').find((b) => b.startsWith(`# HELP ${name} `));
  for (const name of ['container_memory_rss', 'container_threads']) assert.equal(pick(text, name), pick(ref, name)?.trimEnd(), name);
  assert.ok(text.endsWith('\n') && !text.endsWith('\n\n'));
});

test('a kept renderer writes again only the containers whose sample or labels changed, and its page is a fresh render\'s', async () => {
  let reads = 0;
  /** A sample that counts how often its lines are written (each write reads `memory`). */
  const counted = (rss: number) => {
    const s = { ...SAMPLE, memory: SAMPLE.memory && { ...SAMPLE.memory, rssBytes: rss } };
    const memory = s.memory;
    return Object.defineProperty(s, 'memory', { get: () => (reads++, memory), enumerable: true });
  };
  const containers: CadvisorContainerInfo[] = ['a', 'b', 'c'].map((n, i) => ({ id: `/kubepods/pod${n}/${n}`, name: n, pod: n, namespace: 'ns', container: 'app', sample: counted(i) }));
  const source = { containers: () => containers, machine: () => undefined };
  const r = new CadvisorRenderer();
  r.render(source);
  const perContainer = reads / 3;
  assert.ok(perContainer >= 1);
  reads = 0;
  r.render(source);
  assert.equal(reads, 0, 'nothing changed: no container written again');
  containers[1] = { ...(containers[1] as CadvisorContainerInfo), sample: counted(42) };
  r.render(source);
  assert.equal(reads, perContainer, 'a new sample: that container only');
  reads = 0;
  containers[2] = { ...(containers[2] as CadvisorContainerInfo), pod: 'renamed' };
  r.render(source);
  assert.equal(reads, perContainer, 'new labels: that container only');
  reads = 0;
  containers.splice(0, 1);
  const page = r.render(source);
  assert.equal(reads, 0, 'a container removed: nothing written again');
  assert.equal(page, renderCadvisorMetrics(source), 'same bytes as a fresh render');
  const first = r.renderPage(source);
  const firstGz = await first.gzip();
  containers[0] = { ...(containers[0] as CadvisorContainerInfo), sample: counted(7) };
  const second = r.renderPage(source);
  const gz = await second.gzip();
  assert.equal(gunzipSync(gz).toString(), renderCadvisorMetrics(source), 'the gzip after a change is the new page');
  // One member (curl --compressed reads only the first): the deflate data between the 10-byte header and the
  // 8-byte trailer is the whole page, and the trailer holds its CRC-32 and length (RFC 1952).
  assert.equal(inflateRawSync(gz.subarray(10, -8)).toString(), second.bytes.toString());
  assert.deepEqual([gz.readUInt32LE(gz.length - 8), gz.readUInt32LE(gz.length - 4)], [crc32(second.bytes), second.bytes.length]);
  assert.equal(gunzipSync(firstGz).toString(), first.bytes.toString());
  assert.notEqual(first.bytes.toString(), second.bytes.toString());
  assert.match(page, /^container_memory_rss\{id="\/kubepods\/podb\/b",[^}]*\} 42$/m);
  assert.match(page, /pod="renamed"/);
  assert.doesNotMatch(page, /poda/);
});

/** prom-client's text for the same series as the page's container blocks (its formatting, escaping and layout). */
async function promClientText(containers: CadvisorContainerInfo[]): Promise<string> {
  const r = new Registry();
  const seen = new Set<string>();
  const live = containers.filter((c) => c.sample && !seen.has(c.id) && seen.add(c.id));
  for (const m of CONTAINER_METRICS) {
    const g = new Gauge({ name: m.name, help: m.help, labelNames: [...CADVISOR_LABELS, ...(m.extra ?? [])], registers: [r] });
    Object.assign(g, { type: m.type });
    for (const c of live) {
      const base = { id: c.id, name: c.name ?? '', image: c.image ?? '', pod: c.pod ?? '', namespace: c.namespace ?? '', container: c.container ?? '' };
      m.series(c, c.sample as NonNullable<CadvisorContainerInfo['sample']>, {
        add: (v, a, b) => {
          if (v === undefined || !Number.isFinite(v)) return; // the page writes nothing for these
          const extra = Object.fromEntries([a, b].flatMap((x, i) => (x === undefined ? [] : [[m.extra?.[i] as string, x]])));
          g.set({ ...base, ...extra }, v);
        },
      });
    }
  }
  return r.metrics();
}

test('every container block is, byte for byte, what prom-client writes for its series, fresh and after changes', async () => {
  const odd = { ...SAMPLE, cpu: { ...(SAMPLE.cpu as NonNullable<typeof SAMPLE.cpu>), usageNanoseconds: 1.23456789e25, userNanoseconds: NaN, systemNanoseconds: Infinity } };
  const net = (SAMPLE.network ?? [])[0] as NonNullable<typeof SAMPLE.network>[number];
  const containers: CadvisorContainerInfo[] = [
    { id: '/', sample: SAMPLE },
    { id: '/kubepods/podu2/c"2\\x', name: 'c\\2', image: 'img\nx ü€', pod: 'p"', namespace: 'ns', container: 'a', spec: { cpuQuota: -1, memoryLimit: 5.5, startTimeMs: 1.5 },
      sample: { ...odd, network: [{ ...net, name: 'e"t\\h\n0' }, { ...net, name: 'lo', rxBytes: 1e21, txBytes: 0.1 + 0.2 }] },
      fs: [{ device: '/dev/ü"', usageBytes: -0, limitBytes: -5, inodesFree: 1e-7, inodes: 2 ** 53 + 2 }, { device: 'x', usageBytes: 1, limitBytes: 2, inodesFree: 3, inodes: 4 }] },
    { id: '/kubepods/podu2/nosample', name: 'n' },
    { id: '/', sample: { ...SAMPLE, time: 0 } }, // a duplicate id: the first one counts
    ...Array.from({ length: 30 }, (_, i): CadvisorContainerInfo => ({ id: `/kubepods/besteffort/pod${i}/c${i}`, name: `c${i}`, image: 'img', pod: `p${i}`, namespace: 'bench', container: 'main',
      sample: { ...SAMPLE, time: 1764180000123 + i, cpu: { ...(SAMPLE.cpu as NonNullable<typeof SAMPLE.cpu>), usageNanoseconds: 123456789 * i } }, spec: { cpuShares: 2, memoryLimit: -1 } })),
  ];
  const source = { containers: () => containers, machine: () => undefined };
  const containerPart = (page: string) => page.slice(0, page.indexOf('# HELP machine_cpu_cores '));
  const r = new CadvisorRenderer();
  assert.equal(containerPart(r.render(source)), `${await promClientText(containers)}\n`);
  const changes: Array<() => void> = [
    () => (containers[1] = { ...(containers[1] as CadvisorContainerInfo), sample: { ...odd, memory: SAMPLE.memory && { ...SAMPLE.memory, rssBytes: 1234567 } } }), // lines of more bytes than characters
    () => (containers[5] = { ...(containers[5] as CadvisorContainerInfo), sample: { ...SAMPLE, memory: SAMPLE.memory && { ...SAMPLE.memory, rssBytes: 7.25 } } }),
    () => (containers[6] = { ...(containers[6] as CadvisorContainerInfo), pod: 'renamed "x"' }),
    () => containers.splice(7, 2),
    () => containers.push({ id: '/kubepods/new', sample: SAMPLE, fs: [{ device: 'd', usageBytes: 1, limitBytes: 2, inodesFree: 3, inodes: 4 }] }),
  ];
  for (const change of changes) {
    change();
    const page = r.renderPage(source);
    assert.equal(containerPart(page.bytes.toString()), `${await promClientText(containers)}\n`);
    assert.equal(gunzipSync(await page.gzip()).toString(), page.bytes.toString(), 'the gzip is the same page');
  }
});
