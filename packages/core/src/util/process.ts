/** Whether a process with this pid exists (signal 0 probes without sending anything). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
