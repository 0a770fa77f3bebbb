import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeClock } from '../../util/clock.ts';
import { formatCriLogLine, parseCriLogLine, readCriLog } from './read-cri-log.ts';
import type { CriLogOptions, ReadCriLogResult } from './types.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cri-log-test-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
const ts = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.123456789Z`;

function fixture(text: string): string {
  const p = path.join(dir, `c${++fileNo}.log`);
  fs.writeFileSync(p, text);
  return p;
}

const FIXTURE = [
  `${ts(1)} stdout F one`,
  `${ts(2)} stderr F err-one`,
  `${ts(3)} stdout P par`,
  `${ts(4)} stdout P tial-`,
  `${ts(5)} stdout F line`,
  `${ts(6)} stderr F err-two`,
  'not a cri line',
  `${ts(7)} stdout F last`,
  `${ts(8)} stdout F `,
].join('\n') + '\n';

async function read(file: string, opts: CriLogOptions, clock = new FakeClock(Date.UTC(2026, 0, 1, 0, 0, 10))) {
  let out = '';
  const res = await readCriLog(file, opts, (c) => void (out += c), undefined, { clock, watch: false });
  return { out, res };
}

describe('parseCriLogLine', () => {
  const cases: { line: string; want: ReturnType<typeof parseCriLogLine> }[] = [
    { line: `${ts(1)} stdout F hello world`, want: { timestamp: ts(1), timeMs: Date.UTC(2026, 0, 1, 0, 0, 1, 123), stream: 'stdout', partial: false, text: 'hello world' } },
    { line: `${ts(1)} stderr P part`, want: { timestamp: ts(1), timeMs: Date.UTC(2026, 0, 1, 0, 0, 1, 123), stream: 'stderr', partial: true, text: 'part' } },
    { line: `${ts(1)} stdout F:x y`, want: { timestamp: ts(1), timeMs: Date.UTC(2026, 0, 1, 0, 0, 1, 123), stream: 'stdout', partial: false, text: 'y' } },
    { line: `${ts(1)} stdout F`, want: { timestamp: ts(1), timeMs: Date.UTC(2026, 0, 1, 0, 0, 1, 123), stream: 'stdout', partial: false, text: '' } },
    { line: `${ts(1)} stdin F x`, want: null },
    { line: `${ts(1)} stdout X x`, want: null },
    { line: 'yesterday stdout F x', want: null },
    { line: '', want: null },
  ];
  for (const tc of cases) it(JSON.stringify(tc.line), () => assert.deepEqual(parseCriLogLine(tc.line), tc.want));

  it('round-trips with formatCriLogLine', () => {
    const line = formatCriLogLine({ timestamp: ts(2), stream: 'stderr', partial: true, text: 'a b' });
    assert.equal(parseCriLogLine(line.trimEnd())?.text, 'a b');
  });
});

describe('readCriLog (no follow)', () => {
  const cases: { name: string; opts: CriLogOptions; want: string }[] = [
    { name: 'all streams, partials joined, junk skipped', opts: {}, want: 'one\nerr-one\npartial-line\nerr-two\nlast\n\n' },
    { name: 'stdout only', opts: { stream: 'Stdout' }, want: 'one\npartial-line\nlast\n\n' },
    { name: 'stderr only', opts: { stream: 'Stderr' }, want: 'err-one\nerr-two\n' },
    { name: 'tail 3', opts: { tailLines: 3 }, want: 'err-two\nlast\n\n' },
    { name: 'tail 3 of stdout (partials belong to their line)', opts: { tailLines: 3, stream: 'Stdout' }, want: 'partial-line\nlast\n\n' },
    { name: 'tail 0', opts: { tailLines: 0 }, want: '' },
    { name: 'tail beyond the file', opts: { tailLines: 100 }, want: 'one\nerr-one\npartial-line\nerr-two\nlast\n\n' },
    { name: 'timestamps (a joined line carries its first timestamp)', opts: { timestamps: true, stream: 'Stdout', tailLines: 3 }, want: `${ts(3)} partial-line\n${ts(7)} last\n${ts(8)} \n` },
    { name: 'sinceTime', opts: { sinceTime: '2026-01-01T00:00:05Z' }, want: 'err-two\nlast\n\n' },
    { name: 'sinceSeconds (clock at :10)', opts: { sinceSeconds: 3 }, want: 'last\n\n' },
    { name: 'limitBytes cuts mid-line', opts: { limitBytes: 6 }, want: 'one\ner' },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const { out, res } = await read(fixture(FIXTURE), tc.opts);
      assert.equal(out, tc.want);
      assert.ok(res.ok);
      assert.equal(res.bytesWritten, Buffer.byteLength(tc.want));
      assert.equal(res.stoppedBy, tc.opts.limitBytes ? 'limit' : 'eof');
    });
  }

  it('reads a last line that has no newline yet, and an unfinished partial', async () => {
    const { out } = await read(fixture(`${ts(1)} stdout F a\n${ts(2)} stdout P b`), {});
    assert.equal(out, 'a\nb');
  });

  it('tails correctly across read-chunk boundaries', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `${ts(i % 60)} stdout F line-${i} ${'x'.repeat(20)}`);
    const { out } = await read(fixture(lines.join('\n') + '\n'), { tailLines: 3 });
    assert.deepEqual(out.split('\n').map((l) => l.split(' ')[0]), ['line-4997', 'line-4998', 'line-4999', '']);
  });

  it('reports a missing file as LogNotAvailable', async () => {
    const { res } = await read(path.join(dir, 'absent.log'), {});
    assert.equal(res.ok, false);
    assert.equal(!res.ok && res.reason, 'LogNotAvailable');
  });
});

/** Runs a following reader on a FakeClock; `idle()` resolves once it sleeps waiting for data. */
function follow(file: string, opts: CriLogOptions, isDone?: () => boolean) {
  const clock = new FakeClock();
  const ac = new AbortController();
  const state = { out: '' };
  const result: Promise<ReadCriLogResult> = readCriLog(file, { ...opts, follow: true }, (c) => void (state.out += c), ac.signal, {
    clock,
    isDone,
    watch: false,
    pollIntervalMs: 100,
  });
  const idle = async () => {
    while (clock.pending() === 0) await new Promise((r) => setImmediate(r));
  };
  const tick = async () => {
    await idle();
    await clock.step(100);
    await idle();
  };
  return { clock, ac, state, result, idle, tick };
}

describe('readCriLog (follow)', { timeout: 10_000 }, () => {
  it('writes appended lines until aborted', async () => {
    const file = fixture(`${ts(1)} stdout F first\n${ts(2)} stdout F second\n`);
    const f = follow(file, { tailLines: 1 });
    await f.idle();
    assert.equal(f.state.out, 'second\n');
    fs.appendFileSync(file, `${ts(3)} stdout P thi`);
    await f.tick();
    fs.appendFileSync(file, `rd-part\n${ts(4)} stdout F ird\n`);
    await f.tick();
    assert.equal(f.state.out, 'second\nthird-partird\n');
    f.ac.abort();
    const res = await f.result;
    assert.ok(res.ok && res.stoppedBy === 'abort');
  });

  it('stops once the container is done and the file is drained', async () => {
    const file = fixture(`${ts(1)} stdout F a\n`);
    let exited = false;
    const f = follow(file, {}, () => exited);
    await f.idle();
    fs.appendFileSync(file, `${ts(2)} stdout F b\n`);
    exited = true; // exited right after writing: the reader must still drain "b"
    await f.clock.step(100);
    const res = await f.result;
    assert.equal(f.state.out, 'a\nb\n');
    assert.ok(res.ok && res.stoppedBy === 'done');
  });

  it('follows a rotation: drains the old file, then reads the new one from its start', async () => {
    const file = fixture(`${ts(1)} stdout F before\n`);
    const f = follow(file, {});
    await f.idle();
    fs.appendFileSync(file, `${ts(2)} stdout F late-in-old\n`);
    fs.renameSync(file, `${file}.1`);
    fs.writeFileSync(file, `${ts(3)} stdout F in-new\n`);
    await f.tick();
    assert.equal(f.state.out, 'before\nlate-in-old\nin-new\n');
    fs.appendFileSync(file, `${ts(4)} stdout F more\n`);
    await f.tick();
    assert.equal(f.state.out, 'before\nlate-in-old\nin-new\nmore\n');
    f.ac.abort();
    await f.result;
  });

  it('wakes on fs.watch without the clock moving', async () => {
    const file = fixture('');
    const clock = new FakeClock();
    const ac = new AbortController();
    let out = '';
    const p = readCriLog(file, { follow: true }, (c) => void (out += c), ac.signal, { clock, pollIntervalMs: 60_000 });
    while (clock.pending() === 0) await new Promise((r) => setImmediate(r));
    fs.appendFileSync(file, `${ts(1)} stdout F woke\n`);
    while (out === '') await new Promise((r) => setImmediate(r));
    ac.abort();
    assert.equal(out, 'woke\n');
    assert.ok((await p).ok);
  });
});
