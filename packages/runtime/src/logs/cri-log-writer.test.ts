import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CriLogWriter, MAX_LOG_LINE, type LogStream } from './cri-log-writer.ts';
import { rfc3339Nano } from '../util/time.ts';

const T = 1795310474170040489n; // fixed clock
const TS = rfc3339Nano(T);

test('rfc3339Nano keeps nine fraction digits', () => {
  assert.equal(rfc3339Nano(1795310474000000005n), '2026-11-22T01:21:14.000000005Z');
  assert.equal(TS, '2026-11-22T01:21:14.170040489Z');
});

test('CriLogWriter records', () => {
  const long = 'x'.repeat(MAX_LOG_LINE + 10);
  const cases: Array<{ name: string; writes: Array<[LogStream, string]>; want: string[] }> = [
    { name: 'one full line', writes: [['stdout', 'hi\n']], want: [`${TS} stdout F hi`] },
    { name: 'split across chunks', writes: [['stdout', 'h'], ['stdout', 'i\nyo\n']], want: [`${TS} stdout F hi`, `${TS} stdout F yo`] },
    { name: 'streams keep own buffers', writes: [['stdout', 'a'], ['stderr', 'b\n'], ['stdout', 'c\n']],
      want: [`${TS} stderr F b`, `${TS} stdout F ac`] },
    { name: 'unterminated flushed at close (partial, as containerd)', writes: [['stderr', 'tail']], want: [`${TS} stderr P tail`] },
    { name: 'long line split with P', writes: [['stdout', long + '\n']],
      want: [`${TS} stdout P ${'x'.repeat(MAX_LOG_LINE)}`, `${TS} stdout F xxxxxxxxxx`] },
    { name: 'empty line', writes: [['stdout', '\n']], want: [`${TS} stdout F `] },
  ];
  const dir = mkdtempSync(join(tmpdir(), 'crilog-'));
  try {
    cases.forEach((c, i) => {
      const path = join(dir, `sub/${i}.log`);
      const w = new CriLogWriter(path, () => T);
      for (const [s, text] of c.writes) w.write(s, Buffer.from(text));
      w.close();
      assert.deepEqual(readFileSync(path, 'utf8').split('\n').slice(0, -1), c.want, c.name);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
