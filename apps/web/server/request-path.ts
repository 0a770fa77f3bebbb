/**
 * The console's one URL check, before any routing or allow-list decision (pure; tested and fuzzed). The raw
 * request target is decoded once; anything that a later decode or a path normalisation could turn into another
 * path is refused with 400: encoded `.`, `/`, `\` (%2e %2f %5c), backslashes, `.`/`..` segments, empty segments
 * (`//`), NUL and other control characters, malformed escapes (in the path or the query), absolute-form targets.
 * What passes is forwarded unchanged: the agent sees exactly the path the allow-list saw.
 */
export type ParsedTarget =
  | { ok: true; path: string; rawPath: string; query: string; params: URLSearchParams }
  | { ok: false; status: 400; reason: string };

const MAX_TARGET = 8192;
const ENCODED_SEPARATOR = /%(2e|2f|5c)/i;
const BAD_ESCAPE = /%(?![0-9a-fA-F]{2})/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function bad(reason: string): ParsedTarget {
  return { ok: false, status: 400, reason };
}

export function parseTarget(target: string | undefined): ParsedTarget {
  const raw = target ?? '';
  if (raw.length > MAX_TARGET) return bad('request target too long');
  if (!raw.startsWith('/')) return bad('request target must be a path');
  const q = raw.indexOf('?');
  const rawPath = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 ? '' : raw.slice(q + 1);
  if (BAD_ESCAPE.test(rawPath) || BAD_ESCAPE.test(query)) return bad('malformed percent-encoding in the URL');
  if (ENCODED_SEPARATOR.test(rawPath)) return bad('encoded ".", "/" or "\\" in the path');
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
    decodeURIComponent(query.replace(/\+/g, ' '));
  } catch {
    return bad('malformed percent-encoding in the URL');
  }
  if (path.includes('\\') || rawPath.includes('\\')) return bad('backslash in the path');
  if (CONTROL.test(path)) return bad('control character in the path');
  if (path.startsWith('//') || path.slice(1).split('/').slice(0, -1).some((s) => s === '')) return bad('empty path segment ("//")');
  if (path.split('/').some((s) => s === '.' || s === '..')) return bad('"." or ".." segment in the path');
  return { ok: true, path, rawPath, query, params: new URLSearchParams(query) };
}

/** The same target without one query parameter (the sign-in link's `token`), for the redirect after sign-in. */
export function withoutParam(rawPath: string, query: string, name: string): string {
  const kept = query.split('&').filter((p) => p !== '' && p.split('=')[0] !== name);
  return kept.length ? `${rawPath}?${kept.join('&')}` : rawPath;
}
