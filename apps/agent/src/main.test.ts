import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'nodelet-main-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', main, ...args], { encoding: 'utf8', timeout: 30_000 });
}

describe('main', () => {
  it('--help prints the flags and exits 0', () => {
    const r = run(['--help']);
    assert.equal(r.status, 0);
    for (const flag of ['--config', '--pod-manifest-path', '--container-runtime-endpoint', '--anonymous-auth', '--authorization-mode', '--healthz-bind-address', '--console-token-file', '--http-max-connections', '--http-header-timeout', '--http-idle-timeout']) {
      assert.ok(r.stdout.includes(flag), flag);
    }
  });

  const failures: Array<[string, string[], RegExp]> = [
    ['unknown flag', ['--bogus'], /unknown flag: --bogus/],
    ['bad port', ['--port=99999'], /port: 99999 is not a valid port/],
    ['Webhook from a config file default', ['--config', join(dir, 'c.yaml')], /Webhook needs an API server/],
    ['unusable console token file', ['--console-token-file', join(dir, 'short.token')], /console token file .*short\.token: must hold one token of at least 16 characters/],
  ];
  writeFileSync(join(dir, 'c.yaml'), 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n');
  writeFileSync(join(dir, 'short.token'), 'abc\n');
  for (const [name, args, msg] of failures) {
    it(`${name} → exit 1 with a clear message`, () => {
      const r = run([...args, '--root-dir', dir]);
      assert.equal(r.status, 1);
      assert.match(r.stderr, msg);
    });
  }
});
