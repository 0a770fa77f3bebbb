// The real file system behind termination messages: the file the kubelet creates is 0666 whatever the umask
// (makeMounts chmods it), reads keep the last bytes (tail.ReadAtMost), and the log fallback is the last 80
// lines of the CRI log of which the last 2048 bytes (readLastStringFromContainerLogs' circbuf).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { formatCriLogLine } from '../kuberuntime/logs/read-cri-log.ts';
import { nodeTerminationMessageFs as fs } from './termination-message-fs.ts';

const root = mkdtempSync(join(tmpdir(), 'nodelet-tmsg-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('nodeTerminationMessageFs', () => {
  it('creates the directories and an empty file with mode 0666 under a restrictive umask', async () => {
    const old = process.umask(0o077);
    try {
      await fs.createMessageFile(join(root, 'pods/u/containers/c'), 'id1');
    } finally {
      process.umask(old);
    }
    const st = statSync(join(root, 'pods/u/containers/c/id1'));
    assert.equal(st.mode & 0o777, 0o666);
    assert.equal(st.size, 0);
  });

  it('removeMessageFile: the file goes, its directory stays; a file already gone is no error', async () => {
    await fs.createMessageFile(join(root, 'pods/u/containers/d'), 'id2');
    await fs.removeMessageFile!(join(root, 'pods/u/containers/d/id2'));
    assert.throws(() => statSync(join(root, 'pods/u/containers/d/id2')), { code: 'ENOENT' });
    assert.ok(statSync(join(root, 'pods/u/containers/d')).isDirectory());
    await fs.removeMessageFile!(join(root, 'pods/u/containers/d/id2'));
  });

  it('readAtMost: the whole small file, the last bytes of a big one, undefined when missing', async () => {
    const p = join(root, 'msg');
    writeFileSync(p, 'DONE');
    assert.equal((await fs.readAtMost(p, 4096))?.toString(), 'DONE');
    writeFileSync(p, `${'x'.repeat(5000)}END`);
    const tail = await fs.readAtMost(p, 4096);
    assert.equal(tail?.length, 4096);
    assert.ok(tail?.toString().endsWith('xEND'));
    assert.equal(await fs.readAtMost(join(root, 'nope'), 4096), undefined);
  });

  it('readLogTail: the last 80 lines, both streams, no timestamps, cut to the last 2048 bytes', async () => {
    const p = join(root, '0.log');
    const lines = Array.from({ length: 100 }, (_, i) => formatCriLogLine({ timestamp: '2026-11-25T00:00:00.000000000Z', stream: i % 2 ? 'stderr' : 'stdout', text: `line ${i}` }));
    writeFileSync(p, lines.join(''));
    const out = await fs.readLogTail(p, 80, 2048);
    assert.equal(out, Array.from({ length: 80 }, (_, i) => `line ${i + 20}\n`).join(''));
    writeFileSync(p, lines.map((l) => l.replace(/line \d+/, (m) => m + 'y'.repeat(100))).join(''));
    const cut = await fs.readLogTail(p, 80, 2048);
    assert.equal(Buffer.byteLength(cut), 2048);
    assert.ok(cut.endsWith(`line 99${'y'.repeat(100)}\n`));
  });

  it('readLogTail on a missing log throws (the caller turns it into the kubelet message)', async () => {
    await assert.rejects(fs.readLogTail(join(root, 'none.log'), 80, 2048));
  });
});
