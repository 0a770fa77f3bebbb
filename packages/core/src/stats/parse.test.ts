import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseCpuinfo, parseOsRelease } from './machine-info.ts';
import { defaultInterface, parseNetDev } from './net-dev.ts';
import { countLines, parseFlatKeyed, parseLoadavg, parseList, parseMeminfo, parseProcStat, parseSingle } from './parse.ts';

const NET_DEV = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:    1000      10    0    0    0     0          0         0     1000      10    0    0    0     0       0          0
  eth0: 123456     789    1    2    0     0          0         0    65432     321    3    4    0     0       0          0
`;

test('parseNetDev', () => {
  const ifs = parseNetDev(NET_DEV);
  assert.equal(ifs.length, 2);
  assert.deepEqual(ifs[1], { name: 'eth0', rxBytes: 123456, rxPackets: 789, rxErrors: 1, rxDropped: 2, txBytes: 65432, txPackets: 321, txErrors: 3, txDropped: 4 });
  assert.equal(defaultInterface(ifs)?.name, 'eth0');
  assert.equal(defaultInterface(ifs.slice(0, 1)), undefined);
});

test('flat files', () => {
  assert.deepEqual(parseFlatKeyed('a 1\nb  2\nbad\nc x\n'), { a: 1, b: 2 });
  const cases: [string | undefined, number | undefined][] = [['42\n', 42], ['max\n', -1], ['', undefined], [undefined, undefined], ['x', undefined]];
  for (const [t, want] of cases) assert.equal(parseSingle(t), want, String(t));
  assert.equal(countLines('1\n2\n\n'), 2);
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
  const cases: [string | undefined, number[] | undefined][] = [
    ['5 7 \n', [5, 7]],
    ['123456789012 0 0 9\n', [123456789012, 0, 0, 9]],
    ['', undefined],
    ['\n', undefined],
    ['1 x 2', undefined],
    ['-1 2', undefined],
    [undefined, undefined],
  ];
  for (const [t, want] of cases) assert.deepEqual(parseList(t), want, JSON.stringify(t));
});

test('parseFlatKeyed reads the first two fields of each line as the whitespace split did (property)', () => {
  const split = (text: string): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const line of text.split('\n')) {
      const [k, v] = line.trim().split(/[ \t\r]+/);
      if (!k || v === undefined) continue;
      const num = Number(v);
      if (Number.isFinite(num)) out[k] = num;
    }
    return out;
  };
  const tok = fc.constantFrom('rss', 'cache', 'total_rss', '12', '0', '-3', '1e3', 'x9', '', ' ', '\t', '  ');
  const line = fc.array(tok, { maxLength: 5 }).map((ts) => ts.join(' '));
  fc.assert(fc.property(fc.array(line, { maxLength: 6 }), (lines) => {
    const text = lines.join('\n');
    assert.deepEqual(parseFlatKeyed(text), split(text));
  }), { numRuns: 1000 });
});
