import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseCpuinfo, parseOsRelease } from './machine-info.ts';
import { defaultInterface, parseNetDev } from './net-dev.ts';
import { countLines, KeyTable, parseFlatKeyed, parseLoadavg, parseList, parseMeminfo, parseProcStat, parseSingle } from './parse.ts';

/** The parsers read bytes: a text's UTF-8 with stale bytes after it (the reused buffer holds earlier, longer files). */
function bytes(text: string): [Buffer, number] {
  const b = Buffer.alloc(Buffer.byteLength(text) + 8, '7 x\n');
  return [b, b.write(text, 0)];
}
const single = (t: string) => parseSingle(...bytes(t));
const list = (t: string) => parseList(...bytes(t));
const lines = (t: string) => countLines(...bytes(t));
const netDev = (t: string) => parseNetDev(...bytes(t));
function flat<K extends string>(t: string, keys: readonly K[]): Partial<Record<K, number>> {
  const table = parseFlatKeyed(...bytes(t), new KeyTable(keys));
  const out: Partial<Record<K, number>> = {};
  for (const k of keys) if (table.get(k) !== undefined) out[k] = table.get(k);
  return out;
}

const NET_DEV = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:    1000      10    0    0    0     0          0         0     1000      10    0    0    0     0       0          0
  eth0: 123456     789    1    2    0     0          0         0    65432     321    3    4    0     0       0          0
`;

test('parseNetDev', () => {
  const ifs = netDev(NET_DEV);
  assert.equal(ifs.length, 2);
  assert.deepEqual(ifs[1], { name: 'eth0', rxBytes: 123456, rxPackets: 789, rxErrors: 1, rxDropped: 2, txBytes: 65432, txPackets: 321, txErrors: 3, txDropped: 4 });
  assert.equal(defaultInterface(ifs)?.name, 'eth0');
  assert.equal(defaultInterface(ifs.slice(0, 1)), undefined);
});

test('flat files', () => {
  assert.deepEqual(flat('a 1\nb  2\nbad\nc x\n', ['a', 'b', 'c', 'bad']), { a: 1, b: 2 });
  const cases: [string, number | undefined][] = [['42\n', 42], ['max\n', -1], ['', undefined], ['x', undefined]];
  for (const [t, want] of cases) assert.equal(single(t), want, String(t));
  assert.equal(lines('1\n2\n\n'), 2);
});

test('proc files', () => {
  assert.deepEqual(parseMeminfo('MemTotal:       24576000 kB\nMemAvailable:   1000 kB\nHugePages_Total:       0\n'), {
    MemTotal: 24576000 * 1024, MemAvailable: 1024000, HugePages_Total: 0,
  });
  assert.deepEqual(parseLoadavg('0.12 0.08 0.01 2/345 6789\n'), { load1: 0.12, load5: 0.08, load15: 0.01, running: 2, total: 345 });
  assert.equal(parseLoadavg('garbage'), undefined);
  const st = parseProcStat('cpu  10 1 20 300 4 0 2 0 0 0\ncpu0 5 0 10 150 2 0 1 0 0 0\nbtime 1763770000\nprocesses 999\nprocs_running 3\n');
  assert.deepEqual(st.cpu, { user: 10, nice: 1, system: 20, idle: 300, iowait: 4, irq: 0, softirq: 2, steal: 0 });
  assert.equal(st.btime, 1763770000);
  assert.equal(st.procsRunning, 3);
  assert.deepEqual(st.perCpuBusy, [5 + 10 + 1], 'cpu0 busy = user+nice+system+irq+softirq');
  assert.deepEqual(parseProcStat('cpu 1 1 1 1\ncpu0 1 0 0 9\ncpu2 0 2 0 9 0 1 2 3\n').perCpuBusy, [1, 0, 5], 'offline cpu1 reads as 0');
});

test('cpuinfo and os-release', () => {
  const cpuinfo = ['processor\t: 0', 'physical id\t: 0', 'core id\t\t: 0', 'cpu MHz\t\t: 2200.000', '', 'processor\t: 1', 'physical id\t: 0', 'core id\t\t: 0', 'cpu MHz\t\t: 2200.000', ''].join('\n');
  assert.deepEqual(parseCpuinfo(cpuinfo), { numCores: 2, numPhysicalCores: 1, numSockets: 1, cpuFrequencyKhz: 2200000 });
  assert.deepEqual(parseCpuinfo('processor : 0\nprocessor : 1\n'), { numCores: 2, numPhysicalCores: 2, numSockets: 1, cpuFrequencyKhz: 0 });
  assert.equal(parseOsRelease('NAME="Debian GNU/Linux"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n'), 'Debian GNU/Linux 12 (bookworm)');
  assert.equal(parseOsRelease('NAME=x\n'), undefined);
});

test('parseList (cpuacct.usage_percpu)', () => {
  const cases: [string, number[] | undefined][] = [
    ['5 7 \n', [5, 7]],
    ['123456789012 0 0 9\n', [123456789012, 0, 0, 9]],
    ['', undefined],
    ['\n', undefined],
    ['1 x 2', undefined],
    ['-1 2', undefined],
  ];
  for (const [t, want] of cases) assert.deepEqual(list(t), want, JSON.stringify(t));
});

// The string parsers these replaced (a file read as text, split and passed to Number): the byte parsers must give
// the same values on any input of these characters.
const old = {
  flat(text: string): Record<string, number> {
    const out: Record<string, number> = {};
    const blank = (c: number) => c === 32 || c === 9 || c === 13;
    for (const line of text.split('\n')) {
      let a = 0;
      while (a < line.length && blank(line.charCodeAt(a))) a++;
      let b = a;
      while (b < line.length && !blank(line.charCodeAt(b))) b++;
      let c = b;
      while (c < line.length && blank(line.charCodeAt(c))) c++;
      let d = c;
      while (d < line.length && !blank(line.charCodeAt(d))) d++;
      const v = Number(line.slice(c, d));
      if (b > a && d > c && Number.isFinite(v)) out[line.slice(a, b)] = v;
    }
    return out;
  },
  single(text: string): number | undefined {
    const t = text.trim();
    if (t === 'max') return -1;
    if (t === '') return undefined;
    const n = Number(t);
    return Number.isFinite(n) ? n : undefined;
  },
  list(text: string): number[] | undefined {
    const parts = text.trim().split(/\s+/).filter((p) => p !== '');
    if (parts.length === 0 || !parts.every((p) => /^\d+$/.test(p))) return undefined;
    return parts.map(Number);
  },
  lines(text: string): number {
    let n = 0;
    for (const l of text.split('\n')) if (l.trim() !== '') n++;
    return n;
  },
  netDev(text: string) {
    const out = [];
    for (const line of text.split('\n')) {
      const i = line.indexOf(':');
      if (i < 0 || line.includes('|')) continue;
      const f = line.slice(i + 1).trim().split(/\s+/).map(Number);
      if (f.length < 16 || f.some((n) => !Number.isFinite(n))) continue;
      const v = (k: number) => f[k] ?? 0;
      out.push({ name: line.slice(0, i).trim(), rxBytes: v(0), rxPackets: v(1), rxErrors: v(2), rxDropped: v(3), txBytes: v(8), txPackets: v(9), txErrors: v(10), txDropped: v(11) });
    }
    return out;
  },
};

const KEYS = ['rss', 'cache', 'total_rss', 'x9'] as const;
/** Numbers as the kernel writes them and what it never does: beyond 2^53, signs, dots, exponents, hex, garbage. */
const number = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String),
  fc.constantFrom('0', '007', '12', '-3', '1e3', '1.5', '0x1f', 'max', 'Infinity', '9007199254740993', '9223372036854771712', '18446744073709551615', '123456789012345', '1234567890123456'),
);
const blank = fc.constantFrom(' ', '  ', '\t', '\r', '\v', '\f');

test('flat "key value" files: the values the string parser took, for the keys asked (property)', () => {
  const tok = fc.oneof(fc.constantFrom(...KEYS, 'other', ''), number, blank);
  const line = fc.array(tok, { maxLength: 5 }).map((ts) => ts.join(' '));
  fc.assert(fc.property(fc.array(line, { maxLength: 6 }), (ls) => {
    const text = ls.join('\n');
    const want = old.flat(text);
    assert.deepEqual(flat(text, KEYS), Object.fromEntries(KEYS.filter((k) => k in want).map((k) => [k, want[k]])));
  }), { numRuns: 2000 });
});

test('single numbers, lists, line counts: as the string parsers (property)', () => {
  const text = fc.array(fc.oneof(number, blank, fc.constantFrom('\n', 'x', '')), { maxLength: 6 }).map((ts) => ts.join(''));
  fc.assert(fc.property(text, (t) => {
    assert.equal(single(t), old.single(t), JSON.stringify(t));
    assert.deepEqual(list(t), old.list(t), JSON.stringify(t));
    assert.equal(lines(t), old.lines(t), JSON.stringify(t));
  }), { numRuns: 3000 });
});

test('net/dev: the interfaces and counters the string parser took (property)', () => {
  const counters = fc.array(number, { minLength: 14, maxLength: 18 });
  const iface = fc.tuple(fc.constantFrom('eth0', ' lo', 'veth1f8d', 'bond0.10', ''), blank, counters, fc.constantFrom('', '|')).map(([n, b, c, bar]) => `${n}:${b}${c.join(' ')}${bar}`);
  fc.assert(fc.property(fc.array(iface, { maxLength: 5 }), (ls) => {
    const text = [NET_DEV.split('\n')[0], NET_DEV.split('\n')[1], ...ls].join('\n');
    assert.deepEqual(netDev(text), old.netDev(text));
  }), { numRuns: 1000 });
});
