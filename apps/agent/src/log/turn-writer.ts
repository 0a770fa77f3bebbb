/**
 * Log lines leave once per event-loop turn, in one write: a line logged on a pod's start path (the topology manager's
 * "Topology Admit Handler", a DNS warning) no longer pays its own write to the pipe or journal — ≈ 0.3 ms each, most
 * of it the syscall and the reader's wake-up — before the start's RunPodSandbox leaves. klog buffers the same way
 * (flushed every --log-flush-frequency); here nothing waits longer than the turn, and `flush()` on exit keeps the
 * last lines of a process that stops.
 */
export interface TurnWriter {
  write(line: string): void;
  /** Writes what is buffered now (process exit). */
  flush(): void;
}

/** `maxBuffered`: characters after which a turn's lines are written at once (a burst of lines stays bounded). */
export function turnWriter(write: (chunk: string) => void, defer: (run: () => void) => void = setImmediate, maxBuffered = 64 * 1024): TurnWriter {
  let lines: string[] = [];
  let size = 0;
  const flush = () => {
    if (lines.length === 0) return;
    const chunk = lines.join('');
    lines = [];
    size = 0;
    write(chunk);
  };
  return {
    write(line) {
      if (lines.push(line) === 1) defer(flush);
      size += line.length;
      if (size >= maxBuffered) flush();
    },
    flush,
  };
}
