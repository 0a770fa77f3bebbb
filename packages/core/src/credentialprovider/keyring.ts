/**
 * The kubelet's docker keyring (pkg/credentialprovider keyring.go): registry credentials indexed by
 * `host[:port][/path]`, looked up by image repository. A key matches when the ports are equal, the host has as
 * many dot-separated parts, each part matches as a glob (`*.example.com`), and the key's path is a prefix of the
 * image's path. More specific keys come first (the index is reverse-sorted); Docker Hub credentials
 * (`https://index.docker.io/v1/`) also serve unqualified images (`busybox`, `library/x`, `docker.io/x`).
 */

/** One credential as the kubelet passes it to the CRI (runtimeapi.AuthConfig). */
export interface AuthConfig {
  username: string;
  password: string;
  email?: string;
}

/** A parsed docker config (`.dockercfg`, or the `auths` of a `config.json`): location → credential. */
export type DockerConfig = Map<string, AuthConfig>;

export interface DockerKeyring {
  /** The credentials for an image repository (`registry/path`), most specific first; ok=false when none. */
  lookup(image: string): { creds: AuthConfig[]; ok: boolean };
}

const DEFAULT_REGISTRY_HOST = 'index.docker.io';

export class BasicDockerKeyring implements DockerKeyring {
  private index: string[] = [];
  private readonly creds = new Map<string, AuthConfig[]>();

  add(cfg: DockerConfig): void {
    for (const [loc, ident] of cfg) {
      const value = loc.startsWith('https://') || loc.startsWith('http://') ? loc : `https://${loc}`;
      const parsed = parseUrl(value);
      if (!parsed) continue; // the kubelet logs "Entry %q in dockercfg invalid" and ignores it
      // The docker client allows exact matches (foo.bar.com/namespace) or host matches (foo.bar.com), and
      // considers /v2/ and /v1/ the same as the host alone.
      let path = parsed.path;
      if (path.startsWith('/v2/') || path.startsWith('/v1/')) path = path.slice(3);
      const key = path !== '' && path !== '/' ? parsed.host + path : parsed.host;
      const list = this.creds.get(key) ?? [];
      list.push({ ...ident });
      this.creds.set(key, list);
      this.index.push(key);
    }
    // Go's sort.Reverse(sort.StringSlice): byte-wise order, reversed.
    this.index = [...new Set(this.index)].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  }

  lookup(image: string): { creds: AuthConfig[]; ok: boolean } {
    const ret: AuthConfig[] = [];
    for (const k of this.index) {
      if (urlsMatchStr(k, image)) ret.push(...(this.creds.get(k) ?? []));
    }
    if (ret.length > 0) return { creds: ret, ok: true };
    const hub = this.creds.get(DEFAULT_REGISTRY_HOST);
    if (hub && isDefaultRegistryMatch(image)) return { creds: [...hub], ok: true };
    return { creds: [], ok: false };
  }
}

/** The union of keyrings (secrets first, then the node's): every keyring's credentials in order. */
export class UnionDockerKeyring implements DockerKeyring {
  constructor(private readonly keyrings: Array<DockerKeyring | undefined>) {}

  lookup(image: string): { creds: AuthConfig[]; ok: boolean } {
    const creds = this.keyrings.flatMap((k) => (k ? k.lookup(image).creds : []));
    return { creds, ok: creds.length > 0 };
  }
}

/** Whether the image pulls from Docker Hub, judged by its name (no "." or ":" in the first part). */
export function isDefaultRegistryMatch(image: string): boolean {
  const slash = image.indexOf('/');
  const first = slash < 0 ? image : image.slice(0, slash);
  if (first === '') return false;
  if (slash < 0) return true;
  if (first === 'docker.io' || first === 'index.docker.io') return true;
  return !/[.:]/.test(first);
}

interface ParsedUrl {
  host: string;
  path: string;
}

/**
 * The parts of Go's url.Parse the keyring uses: the host (userinfo dropped) and the path. Undefined where Go
 * fails: a port that is not digits, or a host character Go refuses.
 */
function parseUrl(value: string): ParsedUrl | undefined {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(value);
  let rest = scheme ? value.slice(scheme[0].length) : value;
  const end = rest.search(/[?#]/);
  if (end >= 0) rest = rest.slice(0, end);
  const slash = rest.indexOf('/');
  let host = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : rest.slice(slash);
  const at = host.lastIndexOf('@');
  if (at >= 0) host = host.slice(at + 1);
  const colon = host.startsWith('[') ? host.indexOf(':', host.indexOf(']')) : host.lastIndexOf(':');
  if (colon >= 0 && !/^:[0-9]*$/.test(host.slice(colon))) return undefined;
  if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"%]*$/.test(host)) return undefined;
  return { host, path };
}

/** Go's net.SplitHostPort, falling back to (host, "") as the kubelet's splitURL does. */
function splitHost(host: string): { parts: string[]; port: string } {
  let name = host;
  let port = '';
  const m = /^\[([^\]]*)\]:([^:]*)$/.exec(host) ?? /^([^:[\]]*):([^:[\]]*)$/.exec(host);
  if (m) {
    name = m[1]!;
    port = m[2]!;
  }
  return { parts: name.split('.'), port };
}

/** Whether `target` (an image repository) is matched by `glob` (a keyring key); both without a scheme. */
export function urlsMatchStr(glob: string, target: string): boolean {
  const g = parseUrl(`https://${glob}`);
  const t = parseUrl(`https://${target}`);
  if (!g || !t) return false;
  const gh = splitHost(g.host);
  const th = splitHost(t.host);
  if (gh.port !== th.port) return false;
  if (gh.parts.length !== th.parts.length) return false;
  if (!t.path.startsWith(g.path)) return false;
  return gh.parts.every((p, i) => globMatch(p, th.parts[i]!));
}

/** Go's filepath.Match for one host part ('*', '?', '[...]', '\\' escapes); a bad pattern matches nothing. */
export function globMatch(pattern: string, name: string): boolean {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\') {
      if (i + 1 >= pattern.length) return false;
      re += escapeRe(pattern[++i]!);
    } else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) return false;
      let cls = pattern.slice(i + 1, close);
      const negate = cls.startsWith('^');
      if (negate) cls = cls.slice(1);
      if (cls === '') return false;
      re += `[${negate ? '^' : ''}${cls.replace(/[\]\\^]/g, '\\$&')}]`;
      i = close;
    } else re += escapeRe(c);
  }
  try {
    return new RegExp(`${re}$`, 's').test(name);
  } catch {
    return false;
  }
}

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
