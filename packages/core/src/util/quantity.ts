/**
 * Kubernetes resource quantities ("100m", "1.5", "128Mi", "1G", "1e3") and percentages ("10%") as numbers.
 * Expected failures are values: tryParseQuantity returns { ok: false, reason }.
 */
export type QuantityResult = { ok: true; value: number } | { ok: false; reason: string };

const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

const FORMAT_MSG = `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`;
const QUANTITY_RE = /^([+-]?(?:\d+\.?\d*|\.\d+))([eE][+-]?\d+|[a-zA-Z]{0,2})$/;

/** Parses a quantity into base units (cores, bytes, count). */
export function tryParseQuantity(input: string | number): QuantityResult {
  if (typeof input === 'number') {
    return Number.isFinite(input) ? { ok: true, value: input } : { ok: false, reason: `invalid quantity ${input}` };
  }
  const s = input.trim();
  const m = QUANTITY_RE.exec(s);
  if (!m || s !== input) return { ok: false, reason: FORMAT_MSG };
  const num = Number(m[1]);
  const suffix = m[2] ?? '';
  let value: number;
  if (/^[eE][+-]?\d+$/.test(suffix)) value = num * 10 ** Number(suffix.slice(1));
  else if (suffix in BINARY) value = num * (BINARY[suffix] as number);
  else if (suffix in DECIMAL) value = scaleDecimal(num, DECIMAL[suffix] as number);
  else if (/^[eEinumkKMGTP]*$/.test(suffix)) return { ok: false, reason: `unable to parse quantity's suffix` };
  else return { ok: false, reason: FORMAT_MSG };
  if (!Number.isFinite(value)) return { ok: false, reason: `invalid quantity ${input}` };
  return { ok: true, value };
}

/** Avoids float noise for the common scales: 100m → 0.1 exactly as Number('0.1'). */
function scaleDecimal(num: number, exp: number): number {
  if (exp === 0) return num;
  return Number(`${num}e${exp}`);
}

/** Parses or throws: for inputs already validated. */
export function parseQuantity(input: string | number): number {
  const r = tryParseQuantity(input);
  if (!r.ok) throw new Error(`${JSON.stringify(input)}: ${r.reason}`);
  return r.value;
}

/** CPU in millicores, rounded up as Quantity.MilliValue ("100m" → 100, "1.5" → 1500, "0.0001" → 1). */
export function parseCpuMilli(input: string | number): number {
  return Math.ceil(roundNoise(parseQuantity(input) * 1000));
}

/** Bytes (or a count), rounded up as Quantity.Value ("128Mi" → 134217728, "1G" → 1e9). */
export function parseBytes(input: string | number): number {
  return Math.ceil(roundNoise(parseQuantity(input)));
}

function roundNoise(v: number): number {
  const r = Math.round(v);
  return Math.abs(v - r) < 1e-9 ? r : v;
}

/** "10%" → 0.1; anything else → failure. */
export function tryParsePercentage(input: string): QuantityResult {
  const m = /^(\d+(?:\.\d+)?)%$/.exec(input.trim());
  if (!m) return { ok: false, reason: `invalid percentage ${JSON.stringify(input)}` };
  const v = Number(m[1]) / 100;
  if (v > 1) return { ok: false, reason: `percentage ${input} is above 100%` };
  return { ok: true, value: v };
}

/** A quantity, or a percentage of `total` ("10%" of 1000 → 100), as eviction thresholds are written. */
export function tryParseQuantityOrPercent(input: string, total: number): QuantityResult {
  if (input.trim().endsWith('%')) {
    const p = tryParsePercentage(input);
    return p.ok ? { ok: true, value: p.value * total } : p;
  }
  return tryParseQuantity(input);
}

/** Formats bytes with a binary suffix when exact ("134217728" → "128Mi"). */
export function formatBytes(bytes: number): string {
  for (const s of ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki'] as const) {
    const f = BINARY[s] as number;
    if (bytes >= f && bytes % f === 0) return `${bytes / f}${s}`;
  }
  return String(bytes);
}

/** Formats millicores ("1500" → "1500m", "2000" → "2"). */
export function formatCpuMilli(milli: number): string {
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}
