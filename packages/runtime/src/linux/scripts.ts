/**
 * Shell programs run as the first process inside a sandbox's or container's namespaces. They report on
 * fd 3 with one line per event: `pid <host pid>` (read from the host /proc before anything is mounted),
 * then `ok` right before exec'ing the payload, or `err <message>` and exit 128.
 */

/*
 * Pod data (hostname, sysctls, working dir, command, env) reaches these scripts only as positional arguments
 * and is only ever used quoted: never in a script text, never as an option (every path starts with "/" or
 * follows "--"), never in the environment of a host tool. The runtime's own settings come as NODELET_*.
 */

/**
 * Sandbox holder. Args: hostname ("" = keep; set when the sandbox has its own UTS namespace), then the pod's
 * sysctls as one "key=value" argument each, the value whole, spaces included (e.g. ip_local_port_range
 * "1024 65535", as runc writes it; names checked by the runtime: dot/slash separated [a-z0-9_-] segments).
 * Env: NODELET_NETNS=1 (bring lo up), NODELET_PAUSE (catatonit path, else a sh sleep loop).
 */
export const PAUSE_SCRIPT = `
read -r S < /proc/self/stat; echo "pid \${S%% *}" >&3
H="$1"; shift
if [ -n "$H" ]; then
  hostname -- "$H" 2>/dev/null || busybox hostname -- "$H" 2>/dev/null \\
    || { echo "err cannot set hostname $H" >&3; exit 128; }
fi
if [ -n "$NODELET_NETNS" ]; then
  ip link set lo up 2>/dev/null || busybox ip link set lo up 2>/dev/null || true
fi
# pod sysctls (namespaced ones apply to the sandbox's namespaces)
for kv in "$@"; do
  k="\${kv%%=*}"; v="\${kv#*=}"
  printf '%s\\n' "$v" > "/proc/sys/$(printf '%s' "$k" | tr . /)" 2>/dev/null || { echo "err cannot set sysctl $k=$v" >&3; exit 128; }
done
P="$NODELET_PAUSE"; unset NODELET_NETNS NODELET_PAUSE
echo ok >&3; exec 3>&-
[ -n "$P" ] && exec "$P" -P
trap 'kill $! 2>/dev/null; exit 0' TERM INT
while :; do sleep 2147483647 & wait $!; done
`;

/**
 * The last step, run inside the container's root as its user: applies the container's environment (argv
 * words, see host-env.ts envWords) and execs the command. It is the image's env(1) when it has one (clean
 * environment, exact result: `env -i -- NAME=value... command args`), else the host's static busybox reached
 * through fd 9, a directory fd the previous step opened on the binary's directory outside the root
 * (`/proc/self/fd/9/busybox sh -c BUSYBOX_STEP_SCRIPT env <words> <command> <args>`): its sh closes fd 9
 * before anything of the container runs, then its env applet does the same as env(1). Busybox would run its
 * own applet for a bare command name, so the runtime passes the command's path in that case.
 */
export const BUSYBOX_STEP_SCRIPT = 'exec 9<&-; exec env -i -- "$@"';

/**
 * Wrapper run on the host before nsenter joins a running container (exec): joins the container's cgroups (so
 * every descendant is accounted from its first instruction), opens fd 9 on the static busybox's directory when
 * the exec needs it (BUSYBOX_STEP_SCRIPT), then execs its arguments. Args: that directory or "", the argv.
 * Env: NODELET_CGROUP_PROCS (space-separated).
 */
export const EXEC_ENTER_SCRIPT = `
set -f
for f in $NODELET_CGROUP_PROCS; do
  echo $$ > "$f" 2>/dev/null || { echo "err cannot join cgroup $f" >&3; exit 128; }
done
unset NODELET_CGROUP_PROCS
if [ -n "$1" ]; then exec 9< "$1" || exit 126; fi
shift
exec "$@"
`;

/**
 * Loads a seccomp filter and execs its arguments: perl's syscall() is seccomp(SECCOMP_SET_MODE_FILTER, 0,
 * &struct sock_fprog { len, filter }) (x86_64 number 317); the filter comes as hex in the first argument.
 * (perl-base is essential on Debian: no compiler is needed to build a loader.)
 */
export const SECCOMP_LOADER =
  'my $f = pack("H*", shift @ARGV); syscall(317, 1, 0, pack("S x6 P", length($f) / 8, $f)) == 0 or die "nodelet: cannot load the seccomp filter: $!\\n"; exec { $ARGV[0] } @ARGV or die "nodelet: exec $ARGV[0]: $!\\n";';

/**
 * The container's first process, exec'd by the waiter (below) into a child: inside the container's pid
 * namespace it reports its host pid, joins the cgroups (writing 0 = itself), mounts /proc for its
 * namespace and execs the last step (BUSYBOX_STEP_SCRIPT) chrooted into the assembled root.
 * Args: root, workdir, uid, gid, unshare path, cgroup.procs files, env(1) path in the root ("" = busybox),
 * busybox path, static busybox (real path), setpriv path (empty = keep all capabilities), bounding set,
 * "--no-new-privs" or "", oom_score_adj or "", supplementary groups, read-only paths and masked paths (each
 * space-separated, checked by the runtime: under /proc or /sys), the seccomp filter (hex) or "", perl's path,
 * number of command words, the command and its args, the env words.
 */
export const PAYLOAD_SCRIPT = `
read -r S < /proc/self/stat; echo "pid \${S%% *}" >&3
R="$1"; WD="$2"; U="$3"; G="$4"; UNSHARE="$5"; CG="$6"; ENVX="$7"; BB="$8"; BBS="$9"; shift 9
SETPRIV="$1"; CAPS="$2"; NNP="$3"; OOM="$4"; SGS="$5"; MASK="$6"; ROP="$7"; SCMP="$8"; PERL="$9"; NCMD="\${10}"; shift 10
fail() { echo "err $*" >&3; exit 128; }
set -f
# raising works everywhere; lowering needs CAP_SYS_RESOURCE, which these hosts lack (best effort, as containerd's restrict_oom_score_adj)
[ -n "$OOM" ] && { echo "$OOM" > /proc/self/oom_score_adj; } 2>/dev/null
unset NODELET_PAYLOAD
for f in $CG; do echo 0 > "$f" 2>/dev/null || fail "cannot join cgroup $f"; done
$BB mount -t proc proc "$R/proc" || fail "cannot mount /proc"
# the CRI readonlyPaths, then maskedPaths, as runc (none when privileged): a read-only bind of the path; an empty
# read-only tmpfs over a directory, /dev/null over a file; a path the kernel does not have is skipped
for p in $ROP; do
  [ -e "$R$p" ] || continue
  { $BB mount -o bind "$R$p" "$R$p" && $BB mount -o remount,bind,ro "$R$p"; } 2>/dev/null || fail "cannot make $p read-only"
done
for p in $MASK; do
  if [ -d "$R$p" ]; then $BB mount -t tmpfs -o ro,nosuid,nodev,noexec tmpfs "$R$p" 2>/dev/null || fail "cannot mask $p"
  elif [ -e "$R$p" ]; then $BB mount -o bind /dev/null "$R$p" 2>/dev/null || fail "cannot mask $p"; fi
done
# the env words in front of the command again
i=0; while [ "$i" -lt "$NCMD" ]; do set -- "$@" "$1"; shift; i=$((i+1)); done
if [ -n "$ENVX" ]; then set -- "$ENVX" -i -- "$@"
else
  exec 9< "\${BBS%/*}" || fail "cannot open the directory of $BBS"
  set -- "/proc/self/fd/9/\${BBS##*/}" sh -c '${BUSYBOX_STEP_SCRIPT}' env "$@"
fi
# the user: setpriv sets the supplementary groups and the gid first (before the bounding set: it needs
# CAP_SETGID), unshare switches the uid after its chroot, and only to a non-root uid (a root process already has
# uid 0); without setpriv unshare's -G sets the gid and drops the supplementary groups
if [ -n "$U" ] && [ -z "$SGS" ]; then set -- "$UNSHARE" --root="$R" --wd="$WD" -S "$U" -G "\${G:-$U}" -- "$@"
elif [ -n "$U" ] && [ "$U" != 0 ]; then set -- "$UNSHARE" --root="$R" --wd="$WD" -S "$U" -- "$@"
else set -- "$UNSHARE" --root="$R" --wd="$WD" -- "$@"; fi
if [ -n "$CAPS" ]; then set -- "$SETPRIV" $NNP --bounding-set "$CAPS" -- "$@"; fi
if [ -n "$U" ] && [ -n "$SGS" ]; then set -- "$SETPRIV" --groups "$SGS" --regid "\${G:-0}" -- "$@"; fi
# the seccomp filter first, while the process still holds CAP_SYS_ADMIN (no no_new_privs needed, as runc does it
# before dropping privileges): it then covers the steps above, which the profiles allow (default-profile.ts)
if [ -n "$SCMP" ]; then set -- "$PERL" -e '${SECCOMP_LOADER}' "$SCMP" "$@"; fi
# between unshare's chroot and its chdir the cwd must already be inside the new root (an exec takes both)
cd "$R" || fail "cannot enter $R"
echo ok >&3; exec 3>&-
exec "$@"
`;

/**
 * Waits for the payload as its only child and records its status in a file (read back after a runtime
 * restart). Args: sh path, exit file, then the payload's args. The payload keeps the container's stderr (fd 4
 * → 2, set in the subshell, which execs the payload: still one child); the waiter's own stderr is /dev/null: sh
 * reports a child killed by a signal ("Killed") on stderr, and with the runtime gone that pipe is broken, so
 * SIGPIPE killed the waiter before it wrote the exit file.
 */
const WAITER_SCRIPT =
  'S="$1"; E="$2"; shift 2; exec 4>&2 2>/dev/null; ("$S" -c "$NODELET_PAYLOAD" payload "$@" 2>&4 4>&-); st=$?; echo $st > "$E"; exit $st';

/**
 * Container setup and waiter, run in the container's new mount namespace (its pid namespace, when it
 * has its own, applies to its children). It assembles the root, runs PAYLOAD_SCRIPT as a foreground
 * child (the container's PID 1) and exits with its status (128+signal when killed): the waiter stays
 * outside the container's pid namespace and cgroup, so killing the container never orphans anything.
 * Args: working dir (resolved inside the image, absolute), the container's PATH, the env(1) candidates in the
 * image (space-separated pairs: the path to exec, its target resolved inside the image to check), the number
 * of env words, the env words, the command and its arguments.
 * Env: NODELET_ROOTFS (empty dir to assemble the root in), NODELET_LOWER (image rootfs; "/" = host image,
 * rbind read-only), NODELET_DIR (container state dir: upper/, work/, mounts), NODELET_OVERLAY=1 (try
 * overlayfs), NODELET_UID/NODELET_GID (optional), NODELET_CGROUP_PROCS, NODELET_NEWPID=1 (own pid
 * namespace), NODELET_READONLY=1 (read-only root), NODELET_UNSHARE/NODELET_SH/NODELET_BUSYBOX (host tool
 * paths; busybox optional), NODELET_NSENTER, NODELET_STATIC_BB (real path of a static busybox, or empty), NODELET_SETPRIV +
 * NODELET_CAPS (capability bounding set; empty = none set), NODELET_NNP ("--no-new-privs" or empty), NODELET_GROUPS
 * (supplementary groups "g1,g2" for a container run as a user; needs NODELET_SETPRIV), NODELET_MASKED_PATHS and
 * NODELET_READONLY_PATHS (space-separated /proc and /sys paths; empty when privileged), NODELET_SECCOMP (the
 * filter, hex) and NODELET_PERL,
 * NODELET_OOM_SCORE_ADJ, NODELET_PAYLOAD (PAYLOAD_SCRIPT).
 */
export const CONTAINER_INIT_SCRIPT = `
fail() { echo "err $*" >&3; exit 128; }
set -f
WD="$1"; CPATH="$2"; ENVS="$3"; NENV="$4"; shift 4
UNSHARE="$NODELET_UNSHARE"; SH="$NODELET_SH"; BB="$NODELET_BUSYBOX"
# busybox's mount/umount start much faster than util-linux's (which parses the whole mount table).
if [ -n "$BB" ]; then mnt() { "$BB" mount "$@"; }; umnt() { "$BB" umount "$@"; }
else mnt() { mount "$@"; }; umnt() { umount "$@"; }; fi
R="$NODELET_ROOTFS"; L="$NODELET_LOWER"; C="$NODELET_DIR"
mnt --make-rprivate / 2>/dev/null
if [ "$L" = / ] && [ -n "$NODELET_OVERLAY" ] && mnt -t overlay overlay -o "lowerdir=/,upperdir=$C/upper,workdir=$C/work" "$R" 2>/dev/null; then
  # Host image over overlayfs: the root file system (mount points can be created in the upper layer, and
  # the whole root is made read-only at the end); the host's other mounts are bound back in, except
  # /proc, /sys and /dev (replaced below) and the runtime's own container roots.
  HOSTRO=1; last=/nonexistent
  awk '{print $5}' /proc/self/mountinfo | sort | while read -r m; do
    case "$m" in /|/proc|/proc/*|/sys|/sys/*|/dev|/dev/*|"$last"/*|"$R"|"$R"/*) continue ;; esac
    last="$m"
    if [ -d "$m" ]; then mkdir -p "$R$m" 2>/dev/null; else touch "$R$m" 2>/dev/null; fi
    mnt -o rbind "$m" "$R$m" 2>/dev/null
  done
  umnt -l "$R$R" 2>/dev/null
  awk -v r="$R" 'index($5, r"/")==1 {print $5}' /proc/self/mountinfo | sort -r |
    while read -r m; do mnt -o remount,bind,ro "$m" 2>/dev/null; done
elif [ "$L" = / ]; then
  # Without overlayfs (e.g. in a user namespace): bind the whole host tree read-only. Mount points that
  # do not exist on the host cannot be created then.
  mnt -o rbind / "$R" || fail "cannot bind the host root"
  umnt -l "$R/proc" 2>/dev/null; umnt -l "$R/sys" 2>/dev/null; umnt -l "$R/dev" 2>/dev/null
  awk -v r="$R" '$5==r || index($5, r"/")==1 {print $5}' /proc/self/mountinfo | sort -r |
    while read -r m; do mnt -o remount,bind,ro "$m" 2>/dev/null; done
elif [ -n "$NODELET_OVERLAY" ] && mnt -t overlay overlay -o "lowerdir=$L,upperdir=$C/upper,workdir=$C/work" "$R" 2>/dev/null; then
  :
else
  { mnt -o bind "$L" "$R" && mnt -o remount,bind,ro "$R"; } || fail "cannot mount the image root $L"
fi
dir() { [ -d "$R$1" ] || mkdir -p "$R$1" 2>/dev/null; [ -d "$R$1" ]; }
# mkdir -p (d) or a file (f) at a path inside the root, for paths a pod's files may lead through (volumes, its
# working dir): the static busybox chrooted into the root does it, so a symlink resolves there (nsenter opens
# --wd before the chroot: the busybox is run from its own directory); without one, on the host as before.
BBS="$NODELET_STATIC_BB"; NSENTER="$NODELET_NSENTER"
mkin() {
  if [ -n "$BBS" ]; then
    "$NSENTER" --root="$R" --wd="\${BBS%/*}" -- "./\${BBS##*/}" sh -c '
      if [ "$1" = d ]; then mkdir -p -- "$2"; else mkdir -p -- "\${2%/*}/" && { [ -e "$2" ] || touch -- "$2"; }; fi' mkin "$1" "$2" 2>/dev/null
  elif [ "$1" = d ]; then mkdir -p "$R$2" 2>/dev/null
  else mkdir -p "$R\${2%/*}" 2>/dev/null; touch "$R$2" 2>/dev/null; fi
}
dir /proc || fail "no /proc directory in the root"
dir /tmp && mnt -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$R/tmp"
if dir /sys; then mnt -t sysfs -o ro,nosuid,nodev,noexec sysfs "$R/sys" 2>/dev/null; fi
if dir /dev && mnt -t tmpfs -o mode=755,nosuid tmpfs "$R/dev"; then
  touch "$R/dev/null" "$R/dev/zero" "$R/dev/full" "$R/dev/random" "$R/dev/urandom" "$R/dev/tty"
  for d in null zero full random urandom tty; do mnt -o bind "/dev/$d" "$R/dev/$d" 2>/dev/null; done
  ln -s /proc/self/fd "$R/dev/fd"; ln -s /proc/self/fd/0 "$R/dev/stdin"
  ln -s /proc/self/fd/1 "$R/dev/stdout"; ln -s /proc/self/fd/2 "$R/dev/stderr"
  mkdir -p "$R/dev/shm" "$R/dev/pts" "$R/dev/mqueue"
  # the host's devpts: exec / attach with a tty get their terminal there (streaming/pty.ts)
  mnt -o bind /dev/pts "$R/dev/pts" 2>/dev/null; ln -s pts/ptmx "$R/dev/ptmx"
  mnt -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$R/dev/shm"
fi
TAB='	'
while IFS="$TAB" read -r mode src dst; do
  [ -n "$dst" ] || continue
  t="$R$dst"
  if [ -d "$src" ]; then [ -d "$t" ] || mkin d "$dst"
  elif [ ! -e "$t" ]; then mkin f "$dst"; fi
  if [ ! -e "$t" ]; then echo "nodelet: mount $dst skipped: no mount point in the read-only root" >&2; continue; fi
  mnt -o rbind "$src" "$t" || fail "cannot mount $src on $dst"
  [ "$mode" = ro ] && mnt -o remount,bind,ro "$t"
done < "$C/mounts"
[ -d "$R$WD" ] || mkin d "$WD"; [ -d "$R$WD" ] || fail "working directory $WD does not exist"
# the env words behind the command: "$@" = command, args, env words
i=0; while [ "$i" -lt "$NENV" ]; do set -- "$@" "$1"; shift; i=$((i+1)); done
found=""
case "$1" in
  */*) case "$1" in /*) p="$1" ;; *) p="$WD/$1" ;; esac; [ -f "$R$p" ] && [ -x "$R$p" ] && found=1 ;;
  *) IFS=:; for d in $CPATH; do [ -f "$R$d/$1" ] && [ -x "$R$d/$1" ] && { found=1; p="$d/$1"; break; }; done; unset IFS ;;
esac
[ -n "$found" ] || fail "exec: \\"$1\\": executable file not found in \\$PATH"
ENVX=""
nm=""
for e in $ENVS; do
  if [ -z "$nm" ]; then nm="$e"; else [ -f "$R$e" ] && [ -x "$R$e" ] && { ENVX="$nm"; break; }; nm=""; fi
done
if [ -z "$ENVX" ]; then
  [ -n "$NODELET_STATIC_BB" ] || fail "no env(1) in the image and no static busybox on the host to apply the container's environment"
  case "$1" in */*) ;; *) shift; set -- "$p" "$@" ;; esac
fi
U="$NODELET_UID"; G="$NODELET_GID"; CG="$NODELET_CGROUP_PROCS"; NEWPID="$NODELET_NEWPID"
SETPRIV="$NODELET_SETPRIV"; CAPS="$NODELET_CAPS"; NNP="$NODELET_NNP"; OOM="$NODELET_OOM_SCORE_ADJ"; SGS="$NODELET_GROUPS"
MASK="$NODELET_MASKED_PATHS"; ROP="$NODELET_READONLY_PATHS"; SCMP="$NODELET_SECCOMP"; PERL="$NODELET_PERL"
if [ -n "$NODELET_READONLY$HOSTRO" ]; then mnt -o remount,bind,ro "$R" || fail "cannot make the root read-only"; fi
unset NODELET_ROOTFS NODELET_LOWER NODELET_DIR NODELET_OVERLAY NODELET_UID NODELET_GID NODELET_CGROUP_PROCS \\
  NODELET_NEWPID NODELET_READONLY NODELET_UNSHARE NODELET_SH NODELET_BUSYBOX NODELET_SETPRIV NODELET_CAPS NODELET_NNP \\
  NODELET_OOM_SCORE_ADJ NODELET_STATIC_BB NODELET_NSENTER NODELET_GROUPS NODELET_MASKED_PATHS NODELET_READONLY_PATHS \\
  NODELET_SECCOMP NODELET_PERL
set -- "$R" "$WD" "$U" "$G" "$UNSHARE" "$CG" "$ENVX" "$BB" "$BBS" "$SETPRIV" "$CAPS" "$NNP" "$OOM" "$SGS" "$MASK" "$ROP" "$SCMP" "$PERL" "$(($# - NENV))" "$@"
# In a new pid namespace the first fork becomes its PID 1, so the waiter there forks nothing but the payload.
[ -n "$NEWPID" ] && exec "$UNSHARE" --pid -- "$SH" -c '${WAITER_SCRIPT}' waiter "$SH" "$C/exit" "$@"
"$SH" -c "$NODELET_PAYLOAD" payload "$@"
st=$?; echo $st > "$C/exit"; exit $st
`;
