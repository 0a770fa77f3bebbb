/**
 * Open stdins of running containers created with `stdin: true` (the runtime starts them with a pipe as fd 0):
 * attach sessions write the client's input into it. With `stdinOnce` the pipe is closed when the first attach
 * session that carried stdin ends, as containerd / the kubelet do.
 */
import type { Writable } from 'node:stream';

interface Entry {
  pipe: Writable;
  once: boolean;
}

const registries = new WeakMap<object, Map<string, Entry>>();

function registry(owner: object): Map<string, Entry> {
  let r = registries.get(owner);
  if (!r) registries.set(owner, (r = new Map()));
  return r;
}

/** Called by the container start: keep `pipe` (the container's fd 0) for attach. */
export function registerContainerStdin(owner: object, id: string, pipe: Writable, once: boolean): void {
  pipe.on('error', () => undefined);
  const r = registry(owner);
  r.set(id, { pipe, once });
  pipe.once('close', () => r.get(id)?.pipe === pipe && r.delete(id));
}

export interface AttachedStdin {
  write(d: Buffer): void;
  /** The attach session's stdin ended or the session ended: closes the pipe with stdinOnce. */
  detach(): void;
}

export function attachStdin(owner: object, id: string): AttachedStdin | undefined {
  const r = registry(owner);
  const e = r.get(id);
  if (!e || !e.pipe.writable) return undefined;
  let done = false;
  return {
    write: (d) => void (e.pipe.writable && e.pipe.write(d)),
    detach() {
      if (done) return;
      done = true;
      if (e.once) {
        r.delete(id);
        e.pipe.end();
      }
    },
  };
}
