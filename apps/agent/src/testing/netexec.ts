/**
 * scripts/test-images/netexec.c (our stand-in for agnhost netexec: http + udp hostName server, http and udp
 * clients), built static with the machine's gcc into `dir`, for pods of the host image to run from a hostPath
 * volume. scripts/containerd-up.sh builds the same source into the test busybox image.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NETEXEC_SOURCE = fileURLToPath(new URL('../../../../scripts/test-images/netexec.c', import.meta.url));

/** Builds `dir/netexec`; returns its path. Throws when gcc fails (or is absent). */
export function buildNetexec(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'netexec');
  execFileSync('gcc', ['-static', '-Os', '-o', out, NETEXEC_SOURCE], { stdio: ['ignore', 'ignore', 'pipe'] });
  return out;
}
