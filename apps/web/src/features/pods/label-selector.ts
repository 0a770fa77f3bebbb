/**
 * Kubernetes label selectors as `kubectl get pods -l` takes them (k8s.io/apimachinery pkg/labels/selector.go):
 *
 *   <selector>    ::= <requirement> | <requirement> "," <selector>
 *   <requirement> ::= ["!"] KEY [ ("in" | "notin") "(" VALUE ("," VALUE)* ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]
 *
 * Same lexer (identifiers end at whitespace or one of `=!(),><`), same parser decisions (`key=` means the
 * value "", `key in ()` the set {""}, `in`/`notin` are plain identifiers where a value is expected), same
 * validation (qualified-name keys, label values, integer values for `>`/`<`) and the same matching (`!=` and
 * `notin` also match pods without the label). The input comes from the user: errors are returned, never thrown.
 */

export type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
}

export type ParseResult = { ok: true; requirements: Requirement[] } | { ok: false; error: string };

type Tok = 'id' | 'in' | 'notin' | '!' | '!=' | '=' | '==' | '>' | '<' | '(' | ')' | ',' | 'eos' | 'error';

const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const SYMBOLS = new Set(['!', '!=', '(', ')', ',', '=', '==', '>', '<']);

function lex(input: string): Array<{ tok: Tok; lit: string }> {
  const out: Array<{ tok: Tok; lit: string }> = [];
  let i = 0;
  const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
  while (i < input.length) {
    const c = input[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (SPECIAL.has(c)) {
      // The longest run of special characters that is still a symbol (selector.go scanSpecialSymbol).
      let lit = '';
      let j = i;
      while (j < input.length && SPECIAL.has(input[j]!) && SYMBOLS.has(lit + input[j]!)) lit += input[j++]!;
      if (lit === '') return [...out, { tok: 'error', lit: c }];
      out.push({ tok: lit as Tok, lit });
      i = j;
      continue;
    }
    let j = i;
    while (j < input.length && !isSpace(input[j]!) && !SPECIAL.has(input[j]!)) j++;
    const lit = input.slice(i, j);
    out.push({ tok: lit === 'in' ? 'in' : lit === 'notin' ? 'notin' : 'id', lit });
    i = j;
  }
  out.push({ tok: 'eos', lit: '' });
  return out;
}

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** validation.IsQualifiedName: an optional DNS-subdomain prefix and "/", then a name of at most 63 characters. */
export function keyError(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return `invalid label key "${key}": a qualified name must consist of an optional prefix and a name separated by "/"`;
  const name = parts[parts.length - 1]!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix.length === 0) return `invalid label key "${key}": prefix part must be non-empty`;
    if (prefix.length > 253 || !prefix.split('.').every((l) => DNS_LABEL.test(l))) return `invalid label key "${key}": prefix part must be a lowercase DNS subdomain`;
  }
  if (name.length === 0) return `invalid label key "${key}": name part must be non-empty`;
  if (name.length > 63) return `invalid label key "${key}": name part must be no more than 63 characters`;
  if (!NAME.test(name)) return `invalid label key "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`;
  return undefined;
}

/** validation.IsValidLabelValue: empty, or at most 63 characters of the name alphabet. */
export function valueError(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > 63) return `invalid label value "${value}": must be no more than 63 characters`;
  if (!NAME.test(value)) return `invalid label value "${value}": must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`;
  return undefined;
}

class Parser {
  private pos = 0;
  constructor(private readonly items: Array<{ tok: Tok; lit: string }>) {}

  /** In a value position `in` and `notin` are identifiers (selector.go lookahead/consume with Values). */
  private peek(values: boolean): { tok: Tok; lit: string } {
    const it = this.items[this.pos]!;
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id', lit: it.lit } : it;
  }

  private next(values: boolean): { tok: Tok; lit: string } {
    const it = this.peek(values);
    if (this.pos < this.items.length - 1) this.pos++;
    return it;
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.peek(true);
      if (tok === 'eos') return reqs;
      if (tok !== 'id' && tok !== '!') throw new Error(`found '${lit}', expected: !, identifier, or 'end of string'`);
      reqs.push(this.requirement());
      const t = this.next(true);
      if (t.tok === 'eos') return reqs;
      if (t.tok !== ',') throw new Error(`found '${t.lit}', expected: ',' or 'end of string'`);
      const after = this.peek(true);
      if (after.tok !== 'id' && after.tok !== '!') throw new Error(`found '${after.lit}', expected: identifier after ','`);
    }
  }

  private requirement(): Requirement {
    let t = this.next(true);
    let negated = false;
    if (t.tok === '!') {
      negated = true;
      t = this.next(true);
    }
    if (t.tok !== 'id') throw new Error(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const kErr = keyError(key);
    if (kErr) throw new Error(kErr);
    const la = this.peek(true).tok;
    if (negated) return { key, operator: '!', values: [] };
    if (la === 'eos' || la === ',') return { key, operator: 'exists', values: [] };
    const op = this.next(false);
    switch (op.tok) {
      case 'in':
      case 'notin':
        return this.checked({ key, operator: op.tok, values: this.valueSet() });
      case '=':
      case '==':
      case '!=':
        return this.checked({ key, operator: op.tok, values: [this.exactValue()] });
      case '>':
      case '<':
        return this.checked({ key, operator: op.tok === '>' ? 'gt' : 'lt', values: [this.exactValue()] });
      default:
        throw new Error(`found '${op.lit}', expected: in, notin, =, ==, !=, gt, lt`);
    }
  }

  private exactValue(): string {
    const la = this.peek(true);
    if (la.tok === 'eos' || la.tok === ',') return '';
    const t = this.next(true);
    if (t.tok !== 'id') throw new Error(`found '${t.lit}', expected: identifier`);
    return t.lit;
  }

  private valueSet(): string[] {
    const open = this.next(true);
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const la = this.peek(true);
    if (la.tok === ')') {
      this.next(true);
      return [''];
    }
    if (la.tok !== 'id' && la.tok !== ',') throw new Error(`found '${la.lit}', expected: ',', ')' or identifier`);
    // parseIdentifiersList, decision for decision: "(,a)" "(a,,b)" "(a,)" hold the value "", "(a,,)" is an error.
    const values = new Set<string>();
    for (;;) {
      const t = this.next(true);
      if (t.tok === 'id') {
        values.add(t.lit);
        const after = this.peek(true);
        if (after.tok === ')') break;
        if (after.tok !== ',') throw new Error(`found '${after.lit}', expected: ',' or ')'`);
        continue;
      }
      if (t.tok !== ',') throw new Error(`found '${t.lit}', expected: ',', or identifier`);
      if (values.size === 0) values.add('');
      const after = this.peek(true);
      if (after.tok === ')') {
        values.add('');
        break;
      }
      if (after.tok === ',') {
        this.next(true);
        values.add('');
      }
    }
    const close = this.next(true);
    if (close.tok !== ')') throw new Error(`found '${close.lit}', expected: ')'`);
    return [...values].sort();
  }

  private checked(r: Requirement): Requirement {
    for (const v of r.values) {
      const err = valueError(v);
      if (err) throw new Error(err);
    }
    if ((r.operator === 'gt' || r.operator === 'lt') && parseInt64(r.values[0]!) === undefined) {
      throw new Error(`for 'Gt', 'Lt' operators, the value must be an integer`);
    }
    return r;
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64). */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

/** Parses a selector; "" (or only spaces) selects everything. */
export function parseSelector(input: string): ParseResult {
  const nul = input.indexOf('\0'); // the lexer's end of string
  const items = lex(nul >= 0 ? input.slice(0, nul) : input);
  const bad = items.find((t) => t.tok === 'error');
  if (bad) return { ok: false, error: `unable to parse requirement: found '${bad.lit}'` };
  try {
    return { ok: true, requirements: new Parser(items).parse() };
  } catch (e) {
    return { ok: false, error: `unable to parse requirement: ${(e as Error).message}` };
  }
}

/** Requirement.Matches. */
export function matchesRequirement(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels[r.key]! : undefined;
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(value!);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(value!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      const a = has ? parseInt64(value!) : undefined;
      const b = parseInt64(r.values[0]!);
      if (a === undefined || b === undefined) return false;
      return r.operator === 'gt' ? a > b : a < b;
    }
  }
}

export function matchesSelector(reqs: readonly Requirement[], labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {};
  return reqs.every((r) => matchesRequirement(r, l));
}

/** The selector's canonical text (selector.go String: requirements sorted by key). */
export function formatSelector(reqs: readonly Requirement[]): string {
  return [...reqs]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => {
      switch (r.operator) {
        case 'exists': return r.key;
        case '!': return `!${r.key}`;
        case 'in':
        case 'notin': return `${r.key} ${r.operator} (${r.values.join(',')})`;
        case 'gt': return `${r.key}>${r.values[0]}`;
        case 'lt': return `${r.key}<${r.values[0]}`;
        default: return `${r.key}${r.operator}${r.values[0]}`;
      }
    })
    .join(',');
}
