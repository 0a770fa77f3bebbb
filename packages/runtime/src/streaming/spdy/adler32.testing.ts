/** Adler-32 (RFC 1950), for checking the dictionary id zlib writes. */
export function adler32(b: Buffer): number {
  let a = 1;
  let s = 0;
  for (const byte of b) {
    a = (a + byte) % 65521;
    s = (s + a) % 65521;
  }
  return ((s << 16) | a) >>> 0;
}
