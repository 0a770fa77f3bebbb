/** Parses argv with the kubelet's flag syntax: `--flag=value`, `--flag value`, and bare booleans. */
import { parseDuration } from './duration.ts';
import { FLAG_SPECS, type FlagSpec } from './flag-specs.ts';
import type { PartialSettings } from './types.ts';
import { parseMapFlagValue } from './eviction-config.ts';

export interface ParsedFlags {
  help: boolean;
  configFile?: string;
  kubeconfig?: string;
  settings: PartialSettings;
}

export type FlagsResult = { ok: true; value: ParsedFlags } | { ok: false; reason: string };

const BY_NAME = new Map(FLAG_SPECS.map((f) => [f.name, f]));
const TRUE_WORDS = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

export function parseFlags(argv: readonly string[]): FlagsResult {
  const out: ParsedFlags = { help: false, settings: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') {
      out.help = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-' || arg === '--') {
      return { ok: false, reason: `unexpected argument "${arg}" (the agent takes flags only; see --help)` };
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const spec = BY_NAME.get(name);
    if (!spec) return { ok: false, reason: `unknown flag: --${name}` };
    let raw: string | undefined = eq >= 0 ? body.slice(eq + 1) : undefined;
    if (raw === undefined && spec.kind !== 'bool') {
      raw = argv[i + 1];
      if (raw === undefined) return { ok: false, reason: `flag needs an argument: --${name}` };
      i++;
    }
    const applied = applyFlag(out, spec, raw);
    if (!applied.ok) return applied;
  }
  return { ok: true, value: out };
}

function applyFlag(out: ParsedFlags, spec: FlagSpec, raw: string | undefined): { ok: true } | { ok: false; reason: string } {
  if (spec.name === 'config') {
    out.configFile = raw;
    return { ok: true };
  }
  if (spec.name === 'kubeconfig') {
    out.kubeconfig = raw;
    return { ok: true };
  }
  const value = convert(spec, raw);
  if (!value.ok) return value;
  if (spec.key) (out.settings as Record<string, unknown>)[spec.key] = value.value;
  return { ok: true };
}

function convert(spec: FlagSpec, raw: string | undefined): { ok: true; value: unknown } | { ok: false; reason: string } {
  const bad = (why: string) => ({ ok: false as const, reason: `invalid argument "${raw ?? ''}" for "--${spec.name}" flag: ${why}` });
  switch (spec.kind) {
    case 'bool':
      if (raw === undefined || TRUE_WORDS.has(raw)) return { ok: true, value: true };
      if (FALSE_WORDS.has(raw)) return { ok: true, value: false };
      return bad('not a boolean');
    case 'int': {
      const s = raw ?? '';
      if (!/^-?\d+$/.test(s)) return bad('not an integer');
      return { ok: true, value: Number(s) };
    }
    case 'duration': {
      const d = parseDuration(raw ?? '');
      return d.ok ? { ok: true, value: d.ms } : bad(d.reason);
    }
    case 'string':
      return { ok: true, value: raw ?? '' };
    case 'strings':
      return { ok: true, value: (raw ?? '').split(',').map((x) => x.trim()).filter((x) => x !== '') };
    case 'map<':
    case 'map=': {
      const m = parseMapFlagValue(raw ?? '', spec.kind === 'map<' ? '<' : '=');
      return m.ok ? m : bad(m.reason);
    }
  }
}
