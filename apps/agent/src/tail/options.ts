/** Options of `npm run -s tail -- [--namespace N] [--pod P] [--type T] [--json] [--root-dir D] [--server URL]`. */
import { join } from 'node:path';
import type { NodeletEventType } from '@nodelet/core/events';

export interface TailOptions {
  namespace?: string;
  pod?: string;
  types: NodeletEventType[];
  json: boolean;
  rootDir: string;
  server: string;
  help: boolean;
}

const TYPES: NodeletEventType[] = ['pleg', 'podStatus', 'podConfig', 'k8sEvent', 'runtime'];

export const TAIL_HELP = `Usage: npm run -s tail -- [flags]
Prints lifecycle events from a running agent, one line each, until Ctrl-C.
  --namespace N     only events of pods in namespace N
  --pod P           only events of pod P
  --type T          only events of type T (${TYPES.join(', ')}); repeat or comma-separate
  --json            print each event as a JSON line
  --root-dir D      agent root dir holding pki/ (default: .nodelet in the repo, as npm start)
  --server URL      agent URL (default https://127.0.0.1:10250)
`;

export function parseTailArgs(argv: readonly string[], repoRoot: string, env: Record<string, string | undefined>):
  { ok: true; value: TailOptions } | { ok: false; reason: string } {
  const o: TailOptions = {
    types: [],
    json: false,
    rootDir: env.NODELET_STATE_DIR ?? join(repoRoot, '.nodelet'),
    server: env.NODELET_AGENT_URL ?? 'https://127.0.0.1:10250',
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (name) {
      case '--json': o.json = true; break;
      case '-h': case '--help': o.help = true; break;
      case '--namespace': case '-n': o.namespace = value(); break;
      case '--pod': o.pod = value(); break;
      case '--root-dir': o.rootDir = value() ?? o.rootDir; break;
      case '--server': o.server = value() ?? o.server; break;
      case '--type': {
        for (const t of (value() ?? '').split(',').filter(Boolean)) {
          if (!TYPES.includes(t as NodeletEventType)) return { ok: false, reason: `unknown event type "${t}" (${TYPES.join(', ')})` };
          o.types.push(t as NodeletEventType);
        }
        break;
      }
      default:
        return { ok: false, reason: `unknown flag: ${arg}` };
    }
  }
  for (const k of ['namespace', 'pod'] as const) if (o[k] === undefined && argv.includes(`--${k}`)) return { ok: false, reason: `--${k} needs a value` };
  return { ok: true, value: o };
}
