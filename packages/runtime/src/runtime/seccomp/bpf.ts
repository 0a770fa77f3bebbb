/**
 * A seccomp profile in the Docker / containerd JSON format (the format of a kubelet Localhost profile) compiled
 * to a classic BPF program for x86_64, as libseccomp would filter it: the first rule that matches the system
 * call (and all of its argument conditions) decides; otherwise the default action. Other architectures (i386,
 * x32) get the default action. Rules with includes/excludes are kept or left out by the container's
 * capabilities (and `arches`), as containerd's contrib/seccomp does.
 */
import { X86_64_SYSCALLS } from './syscalls-x86_64.ts';

export interface SeccompArg { index: number; value: number | string; valueTwo?: number | string; op: string }
export interface SeccompRule {
  names?: string[];
  name?: string;
  action: string;
  errnoRet?: number;
  args?: SeccompArg[] | null;
  includes?: { caps?: string[]; arches?: string[] };
  excludes?: { caps?: string[]; arches?: string[] };
}
export interface SeccompProfile { defaultAction: string; defaultErrnoRet?: number; syscalls?: SeccompRule[] | null }

const EPERM = 1;
const AUDIT_ARCH_X86_64 = 0xc000003e;
const X32_SYSCALL_BIT = 0x40000000;
// BPF opcodes (linux/filter.h)
const LD_W_ABS = 0x20, JEQ_K = 0x15, JGT_K = 0x25, JGE_K = 0x35, AND_K = 0x54, RET_K = 0x06;

/** SECCOMP_RET_* of an action name, or an error message. */
export function actionValue(action: string, errnoRet: number | undefined): number | string {
  switch (action) {
    case 'SCMP_ACT_ALLOW': return 0x7fff0000;
    case 'SCMP_ACT_ERRNO': return (0x00050000 | ((errnoRet ?? EPERM) & 0xffff)) >>> 0;
    case 'SCMP_ACT_KILL': case 'SCMP_ACT_KILL_THREAD': return 0;
    case 'SCMP_ACT_KILL_PROCESS': return 0x80000000;
    case 'SCMP_ACT_TRAP': return 0x00030000;
    case 'SCMP_ACT_TRACE': return (0x7ff00000 | ((errnoRet ?? EPERM) & 0xffff)) >>> 0;
    case 'SCMP_ACT_LOG': return 0x7ffc0000;
    default: return `unknown action ${JSON.stringify(action)}`;
  }
}

type Insn = { code: number; jt: number | string; jf: number | string; k: number } | { label: string };

const u64 = (v: number | string | undefined): [number, number] => {
  const b = BigInt(v ?? 0) & 0xffffffffffffffffn;
  return [Number(b & 0xffffffffn), Number(b >> 32n)];
};

/** One argument condition; falls through when it holds, jumps to `fail` otherwise. */
function condition(a: SeccompArg, fail: string, next: string): Insn[] | string {
  const lo = 16 + 8 * a.index, hi = lo + 4;
  if (!Number.isInteger(a.index) || a.index < 0 || a.index > 5) return `argument index ${a.index} out of range`;
  const [vlo, vhi] = u64(a.value);
  const ld = (off: number): Insn => ({ code: LD_W_ABS, jt: 0, jf: 0, k: off });
  const j = (code: number, k: number, jt: number | string, jf: number | string): Insn => ({ code, jt, jf, k });
  switch (a.op) {
    case 'SCMP_CMP_EQ': return [ld(lo), j(JEQ_K, vlo, 0, fail), ld(hi), j(JEQ_K, vhi, next, fail)];
    case 'SCMP_CMP_NE': return [ld(lo), j(JEQ_K, vlo, 0, next), ld(hi), j(JEQ_K, vhi, fail, next)];
    case 'SCMP_CMP_MASKED_EQ': {
      const [dlo, dhi] = u64(a.valueTwo);
      return [ld(lo), { code: AND_K, jt: 0, jf: 0, k: vlo }, j(JEQ_K, dlo, 0, fail), ld(hi), { code: AND_K, jt: 0, jf: 0, k: vhi }, j(JEQ_K, dhi, next, fail)];
    }
    case 'SCMP_CMP_GT': return [ld(hi), j(JGT_K, vhi, next, 0), j(JEQ_K, vhi, 0, fail), ld(lo), j(JGT_K, vlo, next, fail)];
    case 'SCMP_CMP_GE': return [ld(hi), j(JGT_K, vhi, next, 0), j(JEQ_K, vhi, 0, fail), ld(lo), j(JGE_K, vlo, next, fail)];
    case 'SCMP_CMP_LT': return [ld(hi), j(JGT_K, vhi, fail, 0), j(JEQ_K, vhi, 0, next), ld(lo), j(JGE_K, vlo, fail, next)];
    case 'SCMP_CMP_LE': return [ld(hi), j(JGT_K, vhi, fail, 0), j(JEQ_K, vhi, 0, next), ld(lo), j(JGT_K, vlo, fail, next)];
    default: return `unknown argument operator ${JSON.stringify(a.op)}`;
  }
}

function applies(r: SeccompRule, caps: ReadonlySet<string>): boolean {
  const cap = (c: string) => caps.has(c.toUpperCase().replace(/^CAP_/, ''));
  const arch = (a: string) => ['amd64', 'x86_64', 'SCMP_ARCH_X86_64'].includes(a);
  if (r.includes?.caps?.length && !r.includes.caps.every(cap)) return false;
  if (r.includes?.arches?.length && !r.includes.arches.some(arch)) return false;
  if (r.excludes?.caps?.some(cap)) return false;
  if (r.excludes?.arches?.some(arch)) return false;
  return true;
}

/** Resolves labels into relative jumps (each must fit in 8 bits) and encodes struct sock_filter[]. */
function assemble(prog: Insn[]): Buffer | string {
  const at = new Map<string, number>();
  const code: Array<Exclude<Insn, { label: string }>> = [];
  for (const i of prog) {
    if ('label' in i) at.set(i.label, code.length);
    else code.push(i);
  }
  if (code.length > 4096) return `the filter has ${code.length} instructions (the kernel takes 4096)`;
  const out = Buffer.alloc(code.length * 8);
  for (const [n, i] of code.entries()) {
    const off = (t: number | string) => (typeof t === 'number' ? t : at.get(t)! - n - 1);
    const jt = off(i.jt), jf = off(i.jf);
    if (jt < 0 || jt > 255 || jf < 0 || jf > 255) return 'a jump of the filter is too long';
    out.writeUInt16LE(i.code, n * 8);
    out.writeUInt8(jt, n * 8 + 2);
    out.writeUInt8(jf, n * 8 + 3);
    out.writeUInt32LE(i.k >>> 0, n * 8 + 4);
  }
  return out;
}

/** The BPF program of a profile for a container with the given capabilities (upper case, no CAP_ prefix). */
export function compileProfile(p: SeccompProfile, caps: ReadonlySet<string>): { ok: true; filter: Buffer } | { ok: false; message: string } {
  const dflt = actionValue(p.defaultAction, p.defaultErrnoRet);
  if (typeof dflt === 'string') return { ok: false, message: dflt };
  const prog: Insn[] = [
    { code: LD_W_ABS, jt: 0, jf: 0, k: 4 },
    { code: JEQ_K, jt: 1, jf: 0, k: AUDIT_ARCH_X86_64 },
    { code: RET_K, jt: 0, jf: 0, k: dflt },
    { code: LD_W_ABS, jt: 0, jf: 0, k: 0 },
    { code: JGE_K, jt: 0, jf: 1, k: X32_SYSCALL_BIT },
    { code: RET_K, jt: 0, jf: 0, k: dflt },
  ];
  let n = 0;
  for (const r of p.syscalls ?? []) {
    if (!applies(r, caps)) continue;
    const action = actionValue(r.action, r.errnoRet);
    if (typeof action === 'string') return { ok: false, message: action };
    // names this kernel's table lacks are skipped, as libseccomp does for an unknown name
    for (const nr of [...(r.names ?? []), ...(r.name ? [r.name] : [])].map((x) => X86_64_SYSCALLS.get(x)).filter((x) => x !== undefined)) {
      const skip = `s${n}`, fail = `f${n}`, ok = `o${n}`;
      n++;
      prog.push({ code: JEQ_K, jt: 0, jf: r.args?.length ? skip : 1, k: nr });
      for (const [ci, a] of (r.args ?? []).entries()) {
        const c = condition(a, fail, ci === r.args!.length - 1 ? ok : `c${n}_${ci + 1}`);
        if (typeof c === 'string') return { ok: false, message: c };
        prog.push(...c, { label: ci === r.args!.length - 1 ? ok : `c${n}_${ci + 1}` });
      }
      prog.push({ code: RET_K, jt: 0, jf: 0, k: action });
      if (r.args?.length) prog.push({ label: fail }, { code: LD_W_ABS, jt: 0, jf: 0, k: 0 }, { label: skip });
    }
  }
  prog.push({ code: RET_K, jt: 0, jf: 0, k: dflt });
  const filter = assemble(prog);
  return typeof filter === 'string' ? { ok: false, message: filter } : { ok: true, filter };
}
