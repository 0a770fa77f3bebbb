import { closeSync, openSync, readSync } from 'node:fs';

const PT_INTERP = 3;

/**
 * Whether `path` is an ELF executable without a program interpreter (statically linked): such a binary can run
 * inside any container root, and the dynamic loader's LD_* variables do not apply to it.
 */
export function isStaticElf(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(64);
    if (readSync(fd, head, 0, 64, 0) < 52 || head.readUInt32BE(0) !== 0x7f454c46) return false;
    const is64 = head[4] === 2;
    const le = head[5] === 1;
    const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
    const u32 = (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
    const phoff = is64 ? Number(le ? head.readBigUInt64LE(32) : head.readBigUInt64BE(32)) : u32(head, 28);
    const phentsize = u16(head, is64 ? 54 : 42);
    const phnum = u16(head, is64 ? 56 : 44);
    if (phnum === 0 || phentsize < 8) return false;
    const table = Buffer.alloc(phentsize * phnum);
    if (readSync(fd, table, 0, table.length, phoff) < table.length) return false;
    for (let i = 0; i < phnum; i++) if (u32(table, i * phentsize) === PT_INTERP) return false;
    return true;
  } finally {
    closeSync(fd);
  }
}
