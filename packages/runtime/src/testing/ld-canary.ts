/**
 * Test helper: a shared library, built with gcc at test time, whose constructor appends
 * "pid comm mntns uid rootdev:rootino" to a file. Handed to a pod as LD_PRELOAD / LD_AUDIT (or, named
 * libselinux.so.1, through LD_LIBRARY_PATH), any line whose root is the host's came from a host-side helper.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findBinary } from '../util/bins.ts';

const CANARY_C = `
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
__attribute__((constructor)) static void canary(void) {
  char comm[64] = "?", ns[64] = "?", line[256];
  int fd = open("/proc/self/comm", O_RDONLY);
  if (fd >= 0) { ssize_t n = read(fd, comm, sizeof comm - 1); if (n > 0) comm[n - 1] = 0; close(fd); }
  ssize_t n = readlink("/proc/self/ns/mnt", ns, sizeof ns - 1);
  if (n > 0) ns[n] = 0;
  struct stat root;
  if (stat("/", &root) != 0) root.st_dev = root.st_ino = 0;
  int len = snprintf(line, sizeof line, "%d %s %s %d %lu:%lu\\n", getpid(), comm, ns, getuid(),
                     (unsigned long)root.st_dev, (unsigned long)root.st_ino);
  int out = open(OUT, O_WRONLY | O_APPEND | O_CREAT, 0666);
  if (out >= 0) { write(out, line, len); close(out); }
}
unsigned int la_version(unsigned int v) { return v; }
`;

export interface LdCanary {
  /** The library (for LD_PRELOAD / LD_AUDIT). */
  so: string;
  /** A directory holding it as libselinux.so.1 (for LD_LIBRARY_PATH: util-linux tools load that name). */
  libDir: string;
  /** Lines written by processes whose root directory is the host's. */
  hostHits(): string[];
}

export const hasGcc = (): boolean => !!findBinary('gcc');

export function buildLdCanary(dir: string): LdCanary {
  mkdirSync(join(dir, 'lib'), { recursive: true });
  const hits = join(dir, 'hits');
  const src = join(dir, 'canary.c');
  writeFileSync(src, CANARY_C);
  const so = join(dir, 'canary.so');
  const libDir = join(dir, 'lib');
  for (const out of [so, join(libDir, 'libselinux.so.1')]) execFileSync('gcc', ['-shared', '-fPIC', `-DOUT="${hits}"`, '-o', out, src]);
  const s = statSync('/');
  const hostRoot = `${s.dev}:${s.ino}`;
  return {
    so, libDir,
    hostHits: () => (existsSync(hits) ? readFileSync(hits, 'utf8').split('\n').filter((l) => l.split(' ')[4] === hostRoot) : []),
  };
}
