/**
 * JSON value → YAML, laid out as `kubectl get -o yaml` prints objects (sigs.k8s.io/yaml over go-yaml): mapping
 * keys sorted, sequences under a key at the key's indentation (`- name: app`), `{}` / `[]` for empty ones,
 * multi-line strings as literal blocks, and any string a YAML reader would take for something else (true,
 * 123, null, a timestamp, "", leading or trailing spaces, `: `, ` #`, a leading indicator character) double-quoted.
 */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const RESERVED = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|<<|=)$/;
const NUMBERISH = /^[-+]?(?:\.?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|0x[0-9a-fA-F_]+|0o?[0-7_]+|0b[01_]+|[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|\.(?:inf|Inf|INF|nan|NaN|NAN)|[-+]\.(?:inf|Inf|INF))$/;
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;

function needsQuotes(s: string): boolean {
  if (s === '' || s.trim() !== s) return true;
  if (RESERVED.test(s) || NUMBERISH.test(s)) return true;
  if (/^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ]|$)/.test(s)) return true; // a YAML 1.1 timestamp (kubectl quotes them too)
  if (INDICATOR_START.test(s) && !/^-[^\s-]/.test(s)) return true;
  if (/^-\s|^- |^---|^\.\.\./.test(s)) return true;
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':')) return true;
  // Control characters, tabs and anything outside printable ASCII / BMP text: quote (JSON escapes are YAML escapes).
  return /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(s);
}

function scalar(s: string): string {
  return needsQuotes(s) ? JSON.stringify(s) : s;
}

/** A literal block (`|` or `|-`) when every line can stand in one; otherwise undefined. */
function block(s: string, indent: string): string | undefined {
  if (!s.includes('\n')) return undefined;
  const body = s.endsWith('\n') ? s.slice(0, -1) : s;
  const lines = body.split('\n');
  // A first line starting with a space would need an indentation indicator; a control character a quoted scalar.
  if (/^[ \t]/.test(lines[0]!) || /[\u0000-\u0009\u000b-\u001f\u007f\u2028\u2029\ufeff]/.test(body) || body.endsWith('\n') || lines.some((l) => /\s$/.test(l))) return undefined;
  const chomp = s.endsWith('\n') ? '|' : '|-';
  return `${chomp}\n${lines.map((l) => (l === '' ? '' : `${indent}${l}`)).join('\n')}`;
}

function isEmptyCollection(v: Json): boolean {
  return (Array.isArray(v) && v.length === 0) || (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
}

function inline(v: Json, indent: string): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'string') return block(v, indent) ?? scalar(v);
  return Array.isArray(v) ? '[]' : '{}';
}

function lines(v: Json, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (item !== null && typeof item === 'object' && !isEmptyCollection(item)) {
        const sub: string[] = [];
        lines(item, `${indent}  `, sub);
        // The first line of the item's own block goes after "- ".
        out.push(`${indent}- ${sub[0]!.slice(indent.length + 2)}`, ...sub.slice(1));
      } else {
        out.push(`${indent}- ${inline(item, `${indent}  `)}`);
      }
    }
    return;
  }
  if (v !== null && typeof v === 'object') {
    for (const k of Object.keys(v).sort()) {
      const val = v[k]!;
      const key = scalar(k);
      if (val !== null && typeof val === 'object' && !isEmptyCollection(val)) {
        out.push(`${indent}${key}:`);
        lines(val, Array.isArray(val) ? indent : `${indent}  `, out);
      } else {
        out.push(`${indent}${key}: ${inline(val, `${indent}  `)}`);
      }
    }
    return;
  }
  out.push(`${indent}${inline(v, indent)}`);
}

/** The YAML document of a JSON value (undefined members are left out, as JSON would). */
export function toYaml(value: unknown): string {
  const json = JSON.parse(JSON.stringify(value ?? null)) as Json;
  if (json === null || typeof json !== 'object' || isEmptyCollection(json)) return `${inline(json, '  ')}\n`;
  const out: string[] = [];
  lines(json, '', out);
  return `${out.join('\n')}\n`;
}
