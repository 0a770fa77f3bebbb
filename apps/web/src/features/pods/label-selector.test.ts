// Expected values are the cases of k8s.io/apimachinery pkg/labels/selector_test.go (TestSelectorParse,
// TestSelectorMatches, TestSetSelectorParser, TestRequirementSelectorMatching, TestToString), plus fast-check
// fuzz: the input comes from a search box.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatSelector, matchesSelector, parseSelector, type Requirement } from './label-selector.ts';

function parsed(s: string): Requirement[] {
  const r = parseSelector(s);
  assert.ok(r.ok, `${JSON.stringify(s)} should parse: ${r.ok ? '' : r.error}`);
  return r.requirements;
}

function matches(selector: string, labels: Record<string, string>): boolean {
  return matchesSelector(parsed(selector), labels);
}

test('TestSelectorParse: good strings restring to themselves without spaces, bad strings are errors', () => {
  for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5']) {
    assert.equal(formatSelector(parsed(s)), s.replaceAll(' ', ''), s);
  }
  for (const s of ['x=a||y=b', 'x==a==b', '!x=a', 'x<a']) assert.equal(parseSelector(s).ok, false, s);
});

test('TestSetSelectorParser: requirements (sorted by key) and errors', () => {
  const cases: Array<[string, Array<[string, string, string[]]> | null]> = [
    ['', []],
    ['\rx', [['x', 'exists', []]]],
    ['this-is-a-dns.domain.com/key-with-dash', [['this-is-a-dns.domain.com/key-with-dash', 'exists', []]]],
    ['0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', [['0.1.2.domain/99', 'notin', ['10.10.100.1', 'tick.tack.clock']]]],
    ['foo  in\t (abc)', [['foo', 'in', ['abc']]]],
    ['x notin\n (abc)', [['x', 'notin', ['abc']]]],
    ['x in (abc,)', [['x', 'in', ['', 'abc']]]],
    ['x in ()', [['x', 'in', ['']]]],
    ['x notin (abc,,def),bar,z in (),w', [['bar', 'exists', []], ['w', 'exists', []], ['x', 'notin', ['', 'abc', 'def']], ['z', 'in', ['']]]],
    ['x=a,y!=b,z in (h,i,j)', [['x', '=', ['a']], ['y', '!=', ['b']], ['z', 'in', ['h', 'i', 'j']]]],
    ['x notin ( )', [['x', 'notin', ['']]]],
    ['x notin (, a)', [['x', 'notin', ['', 'a']]]],
    ['a ', [['a', 'exists', []]]],
    ['a in (x,y,notin, z,in)', [['a', 'in', ['in', 'notin', 'x', 'y', 'z']]]],
    ['x<7', [['x', 'lt', ['7']]]],
    ['x=a||y=b', null],
    ['x,,y', null],
    [',x,y', null],
    ['x nott in (y)', null],
    ['a in (xyz),', null],
    ['a in (xyz)b notin ()', null],
    ['a in (xyz abc)', null],
    ['a notin(', null],
    ['a (', null],
    ['(', null],
    ['x. in (a,b)', null],
    ['.x. in (a,b)', null],
    ['x in in', null],
    ['x in .', null],
    ['x=(a,b)', null],
    ['x in (a,b', null],
    ['x in (a,,)', null],
    ['x>-1', null], // not a label value
    ['x>99999999999999999999', null], // not an int64
    [`${'a'.repeat(254)}`, null],
    [`k=${'v'.repeat(64)}`, null],
  ];
  for (const [input, want] of cases) {
    const r = parseSelector(input);
    if (want === null) {
      assert.equal(r.ok, false, `${JSON.stringify(input)} should fail`);
      if (!r.ok) assert.match(r.error, /^unable to parse requirement: /);
      continue;
    }
    assert.ok(r.ok, `${JSON.stringify(input)}: ${r.ok ? '' : r.error}`);
    const got = [...r.requirements].sort((a, b) => (a.key < b.key ? -1 : 1)).map((q) => [q.key, q.operator, q.values]);
    assert.deepEqual(got, want, JSON.stringify(input));
  }
});

test('TestSelectorMatches and TestRequirementSelectorMatching', () => {
  const yes: Array<[string, Record<string, string>]> = [
    ['', { x: 'y' }], ['x=y', { x: 'y' }], ['x=y,z=w', { x: 'y', z: 'w' }], ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }], ['x', { x: 'z' }], ['!x', { y: 'z' }], ['x>1', { x: '2' }], ['x<1', { x: '0' }],
    ['foo=bar,baz=blah', { foo: 'bar', baz: 'blah' }], ['x in (foo),y notin (alpha)', { x: 'foo', y: 'baz' }],
    ['x notin (),y', { y: '' }], ['!x,y', { y: '' }], ['z>1', { z: '2' }],
    // != and notin also select pods without the label
    ['tier!=db', { app: 'web' }], ['env notin (prod)', {}],
  ];
  const no: Array<[string, Record<string, string>]> = [
    ['x=z', {}], ['x=y', { x: 'z' }], ['x=y,z=w', { x: 'w', z: 'w' }], ['x!=y,z!=w', { x: 'z', z: 'w' }], ['x', { y: 'z' }],
    ['!x', { x: 'z' }], ['x>1', { x: '0' }], ['x<1', { x: '2' }], ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
    ['x in (foo),y in (alpha)', { x: 'foo', y: 'baz' }], ['x notin (),!y', { y: '' }], ['x in ()', { y: 'baz' }], ['z>1', { z: 'v2' }],
  ];
  for (const [s, l] of yes) assert.equal(matches(s, l), true, `${s} ~ ${JSON.stringify(l)}`);
  for (const [s, l] of no) assert.equal(matches(s, l), false, `${s} !~ ${JSON.stringify(l)}`);
});

test('TestToString', () => {
  assert.equal(formatSelector(parsed('x in (abc,def),y notin (jkl),z')), 'x in (abc,def),y notin (jkl),z');
  assert.equal(formatSelector(parsed('x notin (abc,def),y!=jkl,!z')), 'x notin (abc,def),y!=jkl,!z');
  assert.equal(formatSelector(parsed('x notin (abc),y in (jkl,mno),z notin ()')), 'x notin (abc),y in (jkl,mno),z notin ()');
  assert.equal(formatSelector(parsed('x=abc,y==jkl,z!=a')), 'x=abc,y==jkl,z!=a');
  assert.equal(formatSelector(parsed('x>2,y<8,z')), 'x>2,y<8,z');
});

const word = fc.stringMatching(/^[a-z0-9]([-a-z0-9_.]{0,10}[a-z0-9])?$/).filter((w) => w !== 'in' && w !== 'notin');
const value = fc.oneof(word, fc.constant(''));
const requirement: fc.Arbitrary<Requirement> = fc.oneof(
  fc.record({ key: word, operator: fc.constantFrom('=' as const, '==' as const, '!=' as const), values: value.map((v) => [v]) }),
  fc.record({ key: word, operator: fc.constantFrom('in' as const, 'notin' as const), values: fc.uniqueArray(value, { minLength: 1, maxLength: 4 }).map((v) => [...v].sort()) }),
  fc.record({ key: word, operator: fc.constantFrom('exists' as const, '!' as const), values: fc.constant([] as string[]) }),
  fc.record({ key: word, operator: fc.constantFrom('gt' as const, 'lt' as const), values: fc.nat(1_000_000).map((n) => [String(n)]) }),
);

test('fuzz: any input gives a result or an error, never a throw', () => {
  const symbols = fc.constantFrom('=', '!', '(', ')', ',', '>', '<', ' ', 'in', 'notin', '\0', 'a', 'b/c', '.', '-');
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.array(symbols, { maxLength: 30 }).map((a) => a.join(''))), (s) => {
      const r = parseSelector(s);
      if (r.ok) for (const q of r.requirements) assert.equal(typeof matchesSelector([q], { a: '1' }), 'boolean');
      else assert.equal(typeof r.error, 'string');
    }),
    { numRuns: 1000 },
  );
});

test('fuzz: a formatted selector parses back to the same requirements', () => {
  fc.assert(
    fc.property(fc.array(requirement, { maxLength: 5 }), (reqs) => {
      const text = formatSelector(reqs);
      const back = parseSelector(text);
      assert.ok(back.ok, `${text}: ${back.ok ? '' : back.error}`);
      assert.equal(formatSelector(back.requirements), text);
    }),
    { numRuns: 1000 },
  );
});

test('fuzz: spaces around tokens do not change the selector', () => {
  fc.assert(
    fc.property(fc.array(requirement, { minLength: 1, maxLength: 4 }), fc.constantFrom(' ', '\t', '  '), (reqs, sp) => {
      const text = formatSelector(reqs);
      const spaced = text.replace(/([=!<>(),])/g, `${sp}$1${sp}`).replace(/!\s+=/g, '!=').replace(/=\s+=/g, '==');
      const back = parseSelector(spaced);
      assert.ok(back.ok, `${JSON.stringify(spaced)}: ${back.ok ? '' : back.error}`);
      assert.equal(formatSelector(back.requirements), text);
    }),
    { numRuns: 500 },
  );
});
