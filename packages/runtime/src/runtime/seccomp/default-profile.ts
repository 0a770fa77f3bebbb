/**
 * The embedded runtime's RuntimeDefault seccomp profile: every system call allowed except those Docker's and
 * containerd's default profiles leave out (Docker's documentation, "Significant syscalls blocked by the default
 * profile"), each allowed again when the container holds the capability those profiles name for it; blocked
 * calls fail with EPERM (clone3 with ENOSYS, so the C library falls back to clone, as those profiles do).
 * clone is refused only with namespace flags and personality only with other personas, as there.
 * One difference: unshare(0), a no-op, is allowed (util-linux unshare calls it when it enters the container's
 * root; containerd's list refuses unshare altogether without CAP_SYS_ADMIN).
 */
import type { SeccompProfile, SeccompRule } from './bpf.ts';

const ALLOW = 'SCMP_ACT_ALLOW';
const deny = (names: string[], caps?: string[]): SeccompRule => ({ names, action: 'SCMP_ACT_ERRNO', errnoRet: 1, ...(caps ? { excludes: { caps } } : {}) });
// CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
const CLONE_NS_FLAGS = 0x7e020000;

export const RUNTIME_DEFAULT_PROFILE: SeccompProfile = {
  defaultAction: ALLOW,
  syscalls: [
    { names: ['clone'], action: ALLOW, args: [{ index: 0, value: CLONE_NS_FLAGS, valueTwo: 0, op: 'SCMP_CMP_MASKED_EQ' }] },
    { names: ['unshare'], action: ALLOW, args: [{ index: 0, value: 0, op: 'SCMP_CMP_EQ' }] },
    ...[0x0, 0x8, 0x20000, 0x20008, 0xffffffff].map((v): SeccompRule => ({ names: ['personality'], action: ALLOW, args: [{ index: 0, value: v, op: 'SCMP_CMP_EQ' }] })),
    deny(['personality']),
    { names: ['clone3'], action: 'SCMP_ACT_ERRNO', errnoRet: 38, excludes: { caps: ['SYS_ADMIN'] } },
    deny(['clone', 'unshare', 'setns', 'mount', 'mount_setattr', 'umount', 'umount2', 'pivot_root', 'move_mount', 'open_tree',
      'fsopen', 'fsconfig', 'fsmount', 'fspick', 'name_to_handle_at', 'quotactl', 'quotactl_fd', 'lookup_dcookie', 'fanotify_init',
      'sethostname', 'setdomainname', 'swapon', 'swapoff'], ['SYS_ADMIN']),
    deny(['bpf'], ['SYS_ADMIN']),
    deny(['perf_event_open'], ['SYS_ADMIN']),
    deny(['syslog'], ['SYSLOG']),
    deny(['chroot'], ['SYS_CHROOT']),
    deny(['reboot', 'kexec_load', 'kexec_file_load'], ['SYS_BOOT']),
    deny(['init_module', 'finit_module', 'delete_module'], ['SYS_MODULE']),
    deny(['acct'], ['SYS_PACCT']),
    deny(['iopl', 'ioperm'], ['SYS_RAWIO']),
    deny(['settimeofday', 'clock_settime'], ['SYS_TIME']),
    deny(['vhangup'], ['SYS_TTY_CONFIG']),
    deny(['get_mempolicy', 'set_mempolicy', 'mbind', 'move_pages', 'set_mempolicy_home_node'], ['SYS_NICE']),
    deny(['open_by_handle_at'], ['DAC_READ_SEARCH']),
    deny(['userfaultfd'], ['SYS_PTRACE']),
    deny(['add_key', 'keyctl', 'request_key', 'create_module', 'get_kernel_syms', 'query_module', 'nfsservctl', 'uselib', 'ustat', 'sysfs', '_sysctl', 'vm86', 'vm86old']),
  ],
};
