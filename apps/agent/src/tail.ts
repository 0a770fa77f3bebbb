/**
 * The ops tail: connects to a running agent's socket.io stream with the console client certificate and prints
 * one line per lifecycle event (or JSON lines with --json) until Ctrl-C. Reconnects; never prints an event twice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { eventMatches, type EventFilter, type NodeletEvent } from '@nodelet/core/events';
import { REPO_ROOT } from './runtime-launcher.ts';
import type { ClientToServerEvents, ServerToClientEvents } from './streams/types.ts';
import { formatEventLine } from './tail/format.ts';
import { parseTailArgs, TAIL_HELP } from './tail/options.ts';
import { WhyLines } from './tail/why-lines.ts';

const parsed = parseTailArgs(process.argv.slice(2), REPO_ROOT, process.env);
if (!parsed.ok) {
  process.stderr.write(`error: ${parsed.reason}\n${TAIL_HELP}`);
  process.exit(1);
}
const opts = parsed.value;
if (opts.help) {
  process.stdout.write(TAIL_HELP);
  process.exit(0);
}

const pki = join(opts.rootDir, 'pki');
let tls: { ca: string; cert: string; key: string };
try {
  tls = {
    ca: readFileSync(join(pki, 'ca.crt'), 'utf8'),
    cert: readFileSync(join(pki, 'console.crt'), 'utf8'),
    key: readFileSync(join(pki, 'console.key'), 'utf8'),
  };
} catch (err) {
  process.stderr.write(`error: cannot read the console certificate in ${pki} (${(err as Error).message}); is the agent's --root-dir ${opts.rootDir}? use --root-dir\n`);
  process.exit(1);
}

const filter: EventFilter = {
  ...(opts.namespace ? { namespace: opts.namespace } : {}),
  ...(opts.pod ? { pod: opts.pod } : {}),
  ...(opts.types.length ? { types: opts.types } : {}),
};
let lastSeq = -1;
const why = new WhyLines();
let warned = false;

const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(opts.server, {
  path: '/socket.io',
  transports: ['websocket'],
  ...tls,
  reconnectionDelayMax: 5000,
});

let agentStart: string | undefined;
socket.on('nodelet:hello', (hello) => {
  warned = false;
  // First connection: live events only. Reconnection: ask for what was missed. A restarted agent numbers its
  // events from 1 again: replay its recent ones.
  if (lastSeq < 0) lastSeq = hello.seq;
  else if (hello.node.startTime !== agentStart || hello.seq < lastSeq) lastSeq = 0;
  agentStart = hello.node.startTime;
  socket.emit('nodelet:subscribe', { ...filter, afterSeq: lastSeq });
  process.stderr.write(`connected to ${opts.server} (node ${hello.node.name})\n`);
});
socket.on('nodelet:event', (e: NodeletEvent) => {
  if (e.seq <= lastSeq || !eventMatches(e, filter)) return;
  lastSeq = e.seq;
  process.stdout.write((opts.json ? JSON.stringify(e) : formatEventLine(e)) + '\n');
  const line = opts.json ? undefined : why.observe(e);
  if (line) process.stdout.write(line + '\n');
});
socket.on('connect_error', (err) => {
  if (!warned) process.stderr.write(`cannot connect to ${opts.server}: ${err.message}; retrying…\n`);
  warned = true;
});
let quitting = false;
socket.on('disconnect', (reason) => {
  if (quitting) return;
  process.stderr.write(`disconnected (${reason}); reconnecting…\n`);
  // A server-side disconnect (agent shutting down) does not auto-reconnect in socket.io: retry ourselves.
  if (reason === 'io server disconnect') setTimeout(() => socket.connect(), 1000);
});

const quit = () => {
  quitting = true;
  socket.disconnect();
  process.exit(0);
};
process.on('SIGINT', quit);
process.on('SIGTERM', quit);
