/**
 * An unusable --kubeconfig is a start-up error (exit 1, a message naming the file and what is wrong) reported
 * before the embedded runtime is launched: no runtime directory, pid file or runtime process is left behind.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'nodelet-kubeconfig-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Processes whose command line mentions `text` (the runtime is started with --root <root-dir>/runtime). */
function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(text)) pids.push(Number(p));
    } catch {
      // gone
    }
  }
  return pids;
}

const noUser = `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "https://127.0.0.1:6443" } }]
contexts: [{ name: x, context: { cluster: c, user: nobody } }]
current-context: x
users: []
`;
const badServer = noUser.replace('"https://127.0.0.1:6443"', '""').replace('users: []', 'users: [{ name: nobody, user: { token: t } }]');

const cases: Array<{ name: string; file: string; content?: string; problem: RegExp }> = [
  { name: 'missing file', file: 'missing.kubeconfig', problem: /ENOENT|no such file/ },
  { name: 'not YAML', file: 'garbage.kubeconfig', content: 'clusters: [unclosed\n  :::', problem: /invalid kubeconfig .*garbage\.kubeconfig: .+/ },
  { name: 'no user for the context', file: 'nouser.kubeconfig', content: noUser, problem: /no user for the current context/ },
  { name: 'cluster without a server', file: 'noserver.kubeconfig', content: badServer, problem: /server is missing|has no server/ },
];

describe('--kubeconfig problems stop the agent before the runtime starts', () => {
  for (const c of cases) {
    it(`${c.name} → exit 1, names the file and the problem, no runtime`, () => {
      const root = join(dir, c.file.replace(/\W/g, '-'));
      mkdirSync(root, { recursive: true });
      const path = join(dir, c.file);
      if (c.content !== undefined) writeFileSync(path, c.content);
      const r = spawnSync(
        process.execPath,
        ['--import', 'tsx', main, '--root-dir', root, '--kubeconfig', path, '--port', '10299', '--read-only-port', '0', '--healthz-port', '0', '--authorization-mode', 'AlwaysAllow'],
        { encoding: 'utf8', timeout: 30_000 },
      );
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`invalid kubeconfig ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.match(r.stderr, c.problem);
      assert.equal(existsSync(join(root, 'runtime')), false, 'the embedded runtime was not launched');
      assert.deepEqual(processesMentioning(root), [], 'no process left for this root dir');
    });
  }
});
