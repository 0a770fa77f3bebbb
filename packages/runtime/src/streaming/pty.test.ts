/** The pty wrapper: util-linux script runs `exec` with the argv as single-quoted shell literals; no helper env carries it. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { hostEnv } from '../linux/host-env.ts';
import { ptyCommand, SCRIPT_BIN } from './pty.ts';

test('the command runs under script: quiet, exit code passed on, echo on, no typescript file, no helper env', () => {
  const words = ['nsenter', '-t', '1', '--', 'sh', '-c', "stty size; echo 'x'"];
  const pty = ptyCommand(words);
  assert.deepEqual(pty.argv, [SCRIPT_BIN, '--quiet', '--return', '--echo', 'always', '--flush', '--command', `exec 'nsenter' '-t' '1' '--' 'sh' '-c' 'stty size; echo '\\''x'\\'''`, '/dev/null']);
  assert.deepEqual(pty.env, {});
});

test('odd words reach the command unchanged and no NODELET_PTY_ variable is left', { skip: !existsSync(SCRIPT_BIN) && 'no util-linux script' }, () => {
  const odd = ["it's", '$(echo no)', '`echo no`', '"; exit 9; "', 'two\nlines', '', '-n', 'ünï ✓', '$NODELET_PTY_0'];
  const pty = ptyCommand(['/bin/sh', '-c', 'printf "[%s]" "$@"; env | grep -c NODELET_PTY_', 'sh', ...odd]);
  const r = spawnSync(pty.argv[0]!, pty.argv.slice(1), { env: hostEnv(pty.env), input: '', encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr); // grep -c found nothing
  assert.equal(r.stdout.replace(/\r\n/g, '\n'), `${odd.map((w) => `[${w}]`).join('')}0\n`);
});
