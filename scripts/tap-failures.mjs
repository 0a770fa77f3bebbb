// The failed tests of a node test runner TAP file, for `npm test`'s closing summary.

/**
 * The failed leaf tests of a TAP file (node's tap reporter), each with its diagnostic block (error, expected,
 * actual, the test's location; the stack cut to its first lines). A suite's or file's own "not ok" (a failed child) is left
 * out: its child says why.
 */
export function failedTests(tap) {
  const lines = tap.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)not ok \d+ - (.*)$/.exec(lines[i]);
    if (!m) continue;
    const block = [];
    let j = i + 1;
    if (lines[j]?.trim() === '---') {
      for (j += 1; j < lines.length && lines[j].trim() !== '...'; j++) block.push(lines[j].slice(m[1].length + 2));
    }
    const text = block.join('\n');
    if (/^failureType: 'subtestsFailed'$/m.test(text)) continue;
    const kept = text.replace(/^stack: \|-\n((?:  .*\n?){0,6})(?:  .*\n?)*/m, 'stack: |-\n$1');
    out.push(`✖ ${m[2]}\n${kept.split('\n').map((l) => `    ${l}`).join('\n')}`);
  }
  return out;
}
