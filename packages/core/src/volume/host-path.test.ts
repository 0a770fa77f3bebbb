import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkHostPathType } from './host-path.ts';

test('checkHostPathType: the hostPath plugin type checks', async () => {
  const root = await mkdtemp(join(tmpdir(), 'hostpath-'));
  const server = createServer();
  try {
    await mkdir(join(root, 'dir'));
    await writeFile(join(root, 'file'), 'x');
    const sock = join(root, 'sock');
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    const fail = (p: string, what: string) => `hostPath type check failed: ${p} is not ${what}`;
    const cases: Array<[string, string | undefined, string | undefined]> = [
      [join(root, 'missing'), undefined, undefined],
      [join(root, 'missing'), '', undefined],
      [join(root, 'dir'), 'Directory', undefined],
      [join(root, 'file'), 'Directory', fail(join(root, 'file'), 'a directory')],
      [join(root, 'missing'), 'Directory', fail(join(root, 'missing'), 'a directory')],
      [join(root, 'new/nested'), 'DirectoryOrCreate', undefined],
      [join(root, 'file'), 'DirectoryOrCreate', fail(join(root, 'file'), 'a directory')],
      [join(root, 'file'), 'File', undefined],
      [join(root, 'dir'), 'File', fail(join(root, 'dir'), 'a file')],
      [join(root, 'created'), 'FileOrCreate', undefined],
      [join(root, 'dir'), 'FileOrCreate', fail(join(root, 'dir'), 'a file')],
      [sock, 'Socket', undefined],
      [join(root, 'file'), 'Socket', fail(join(root, 'file'), 'a socket file')],
      ['/dev/null', 'CharDevice', undefined],
      [join(root, 'file'), 'CharDevice', fail(join(root, 'file'), 'a character device')],
      ['/dev/null', 'BlockDevice', fail('/dev/null', 'a block device')],
      [join(root, 'dir'), 'Bogus', 'invalid HostPathType: Bogus'],
    ];
    for (const [path, type, want] of cases) {
      const r = await checkHostPathType(path, type);
      assert.deepEqual(r, want === undefined ? { ok: true } : { ok: false, message: want }, `${type}: ${path}`);
    }
    assert.ok((await stat(join(root, 'new/nested'))).isDirectory());
    const f = await stat(join(root, 'created'));
    assert.ok(f.isFile());
    assert.equal(f.size, 0);
    const missingParent = await checkHostPathType(join(root, 'no/parent'), 'FileOrCreate');
    assert.equal(missingParent.ok, false);
  } finally {
    server.close();
    await rm(root, { recursive: true, force: true });
  }
});
