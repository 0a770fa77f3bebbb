/** The pty wrapper's command line: shell quoting of the argv handed to util-linux script. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ptyArgv, shellQuote } from './pty.ts';

test('shell quoting keeps plain words and single-quotes the rest', () => {
  const table: [string, string][] = [
    ['tty', 'tty'],
    ['/usr/bin/nsenter', '/usr/bin/nsenter'],
    ['--mount', '--mount'],
    ['echo hi', `'echo hi'`],
    ["it's", `'it'\\''s'`],
    ['', `''`],
    ['$HOME;rm', `'$HOME;rm'`],
  ];
  for (const [word, quoted] of table) assert.equal(shellQuote(word), quoted, word);
});

test('the command runs under script: quiet, exit code passed on, echo on, no typescript file', () => {
  assert.deepEqual(ptyArgv(['nsenter', '-t', '1', '--', 'sh', '-c', 'stty size']), [
    '/usr/bin/script', '--quiet', '--return', '--echo', 'always', '--flush', '--command', `nsenter -t 1 -- sh -c 'stty size'`, '/dev/null',
  ]);
});
