/**
 * Which streams an exec / attach request on 10250 wants, as the kubelet's remotecommand `NewOptions`: the API
 * server forwards `input`, `output`, `error` and `tty` (api.ExecStdinParam ... ExecTTYParam) with the value "1";
 * `stdin` / `stdout` / `stderr` (and "true") are also taken for clients that talk to the kubelet directly. With a
 * tty there is no separate stderr; asking for no stream at all is a 400 with the kubelet's message.
 */

export interface StreamOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** The kubelet's own names first (what the API server sends), then the client-facing ones. */
const NAMES = { stdin: ['input', 'stdin'], stdout: ['output', 'stdout'], stderr: ['error', 'stderr'], tty: ['tty'] } as const;

const truthy = (v: string | null) => v !== null && ['1', 'true'].includes(v.toLowerCase());
const flag = (q: URLSearchParams, names: readonly string[]) => names.some((n) => truthy(q.get(n)));

export function streamOptions(q: URLSearchParams): { ok: true; opts: StreamOptions } | { ok: false; reason: string } {
  const tty = flag(q, NAMES.tty);
  const stdin = flag(q, NAMES.stdin);
  const stdout = flag(q, NAMES.stdout);
  const stderr = flag(q, NAMES.stderr) && !tty;
  if (!stdin && !stdout && !stderr) return { ok: false, reason: 'you must specify at least 1 of stdin, stdout, stderr' };
  return { ok: true, opts: { stdin, stdout, stderr, tty } };
}
