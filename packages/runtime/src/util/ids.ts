import { randomBytes } from 'node:crypto';

/** A 64-hex-digit id, like containerd's sandbox and container ids. */
export function newId(): string {
  return randomBytes(32).toString('hex');
}
