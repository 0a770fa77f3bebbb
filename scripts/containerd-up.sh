#!/usr/bin/env bash
# Starts a private containerd (CRI plugin, runc, a CNI bridge) for tests and benches, with locally built pause
# and busybox images imported and a loopback registry holding busybox. Needs root and Debian's containerd,
# runc, containernetworking-plugins, busybox-static, catatonit, umoci, skopeo and docker-registry.
# Usage: scripts/containerd-up.sh STATE_DIR   → prints KEY=VALUE lines (ENDPOINT, REGISTRY, PIDS) and writes
# them to STATE_DIR/env. Stop with scripts/containerd-down.sh STATE_DIR.
set -euo pipefail
STATE=${1:?usage: containerd-up.sh STATE_DIR}
mkdir -p "$STATE"
STATE=$(cd "$STATE" && pwd)
# REGISTRY_ONLY=1: only build the images and start the loopback registry (no containerd, no root needed).
REGISTRY_ONLY=${REGISTRY_ONLY:-0}
missing=()
bins="containerd runc ctr umoci skopeo docker-registry catatonit busybox"
[ "$REGISTRY_ONLY" = 1 ] && bins="umoci skopeo docker-registry catatonit busybox"
for bin in $bins; do
  command -v "$bin" >/dev/null 2>&1 || missing+=("$bin")
done
[ "$REGISTRY_ONLY" = 1 ] || [ -x /usr/lib/cni/bridge ] || missing+=("cni-bridge")
if [ "${#missing[@]}" -gt 0 ]; then
  echo "containerd-up: missing ${missing[*]}: apt-get install containerd runc containernetworking-plugins busybox-static catatonit umoci skopeo docker-registry" >&2
  exit 3
fi
if [ "$REGISTRY_ONLY" != 1 ] && [ "$(id -u)" != 0 ]; then
  echo "containerd-up: containerd needs root here (run the containerd suite as root)" >&2
  exit 3
fi

free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
REG_PORT=$(free_port)
REGISTRY="127.0.0.1:$REG_PORT"
SOCK="$STATE/containerd.sock"

# --- images (built from Debian binaries; no download) ---
# Built once per content of what they are made of (busybox, catatonit, netexec.c, gcc or not, this script) into
# a shared cache dir, read-only afterwards: every test file that starts a containerd or a registry reuses it
# (building took 3-12 s, most of it one `ln` per busybox applet). Written to a private dir, then renamed into
# place: two builds at once both succeed, the second one's copy is dropped.
NETEXEC_SRC="$(dirname "$0")/test-images/netexec.c"
IMAGES_KEY=$( { cat /bin/busybox /usr/bin/catatonit "$NETEXEC_SRC" "$0"; command -v gcc || true; } | sha256sum | cut -c1-16)
IMAGES="${TMPDIR:-/tmp}/nodelet-test-images-$IMAGES_KEY"
build_image() { # out name
  local out=$1 name=$2 layout="$1/oci"
  [ -d "$layout" ] || umoci init --layout "$layout"
  umoci new --image "$layout:$name"
  umoci unpack --rootless --image "$layout:$name" "$out/$name-bundle" >/dev/null
  local rootfs="$out/$name-bundle/rootfs"
  mkdir -p "$rootfs/bin" "$rootfs/etc" "$rootfs/proc" "$rootfs/sys" "$rootfs/dev" "$rootfs/tmp" "$rootfs/root"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' > "$rootfs/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' > "$rootfs/etc/group"
}
build_images() { # out
  local out=$1
  mkdir -p "$out"
  build_image "$out" busybox
  local bin="$out/busybox-bundle/rootfs/bin"
  cp /bin/busybox "$bin/busybox"
  # one relative symlink per applet (`ln -s busybox <applet>`), made by one process instead of ~400
  node -e 'const fs = require("fs"); for (const a of process.argv.slice(2)) if (a !== "busybox") fs.symlinkSync("busybox", `${process.argv[1]}/${a}`)' "$bin" $(/bin/busybox --list)
  # /bin/netexec: our stand-in for agnhost netexec (http + udp hostName server, http and udp clients) for the
  # networking scenarios: Debian's busybox nc has no UDP, and its static wget segfaults in an image without glibc's
  # NSS libraries. Built static with the machine's gcc (on every machine of this kind).
  if command -v gcc >/dev/null 2>&1; then
    gcc -static -Os -o "$bin/netexec" "$NETEXEC_SRC"
  else
    echo "containerd-up: no gcc: the busybox image has no /bin/netexec (the networking scenarios need it)" >&2
  fi
  umoci repack --image "$out/oci:busybox" "$out/busybox-bundle" >/dev/null
  umoci config --image "$out/oci:busybox" --config.cmd sh --config.env PATH=/bin --architecture amd64 --os linux >/dev/null
  build_image "$out" pause
  cp /usr/bin/catatonit "$out/pause-bundle/rootfs/catatonit"
  umoci repack --image "$out/oci:pause" "$out/pause-bundle" >/dev/null
  umoci config --image "$out/oci:pause" --config.entrypoint /catatonit --config.entrypoint -P --architecture amd64 --os linux >/dev/null
  rm -rf "$out/busybox-bundle" "$out/pause-bundle"
  skopeo copy -q "oci:$out/oci:busybox" "docker-archive:$out/busybox.tar:localhost/busybox:latest"
  skopeo copy -q "oci:$out/oci:pause" "docker-archive:$out/pause.tar:localhost/pause:latest"
}
if [ ! -d "$IMAGES" ]; then
  build_images "$IMAGES.$$"
  mv -T "$IMAGES.$$" "$IMAGES" 2>/dev/null || rm -rf "$IMAGES.$$"
fi

# --- loopback registry ---
mkdir -p "$STATE/registry"
cat > "$STATE/registry/config.yml" <<YAML
version: 0.1
log: { level: warn }
storage:
  filesystem: { rootdirectory: $STATE/registry/data }
  delete: { enabled: true }
http: { addr: $REGISTRY }
YAML
docker-registry serve "$STATE/registry/config.yml" >"$STATE/registry/log" 2>&1 &
echo $! > "$STATE/registry.pid"
for _ in $(seq 50); do curl -sf "http://$REGISTRY/v2/" >/dev/null && break; sleep 0.1; done
skopeo copy -q --dest-tls-verify=false "oci:$IMAGES/oci:busybox" "docker://$REGISTRY/busybox:latest"
if [ "$REGISTRY_ONLY" = 1 ]; then
  { echo "REGISTRY=$REGISTRY"; echo "REGISTRY_PID=$(cat "$STATE/registry.pid")"; } | tee "$STATE/env"
  exit 0
fi

# --- containerd ---
mkdir -p "$STATE/cni" "$STATE/certs.d/$REGISTRY" "$STATE/root" "$STATE/state"
cat > "$STATE/cni/10-nodelet-bridge.conflist" <<JSON
{ "cniVersion": "0.4.0", "name": "nodelet-test", "plugins": [
  { "type": "bridge", "bridge": "nodelet0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
    "ipam": { "type": "host-local", "ranges": [[{ "subnet": "10.88.0.0/16" }]], "routes": [{ "dst": "0.0.0.0/0" }] } },
  { "type": "portmap", "capabilities": { "portMappings": true } } ] }
JSON
cat > "$STATE/certs.d/$REGISTRY/hosts.toml" <<TOML
server = "http://$REGISTRY"
[host."http://$REGISTRY"]
  capabilities = ["pull", "resolve", "push"]
  skip_verify = true
TOML
cat > "$STATE/config.toml" <<TOML
version = 2
root = "$STATE/root"
state = "$STATE/state"
[grpc]
  address = "$SOCK"
[ttrpc]
  address = "$SOCK.ttrpc"
[debug]
  address = "$SOCK.debug"
[plugins."io.containerd.grpc.v1.cri"]
  restrict_oom_score_adj = true
  disable_apparmor = true
  sandbox_image = "localhost/pause:latest"
  # pod network namespaces under this instance's state dir (not /run/netns), so containerd-down.sh removes them
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "/usr/sbin/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE/cni"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "$STATE/certs.d"
TOML
containerd --config "$STATE/config.toml" >"$STATE/containerd.log" 2>&1 &
echo $! > "$STATE/containerd.pid"
for _ in $(seq 100); do [ -S "$SOCK" ] && ctr --address "$SOCK" version >/dev/null 2>&1 && break; sleep 0.1; done
ctr --address "$SOCK" -n k8s.io images import --no-unpack=false "$IMAGES/busybox.tar" >/dev/null
ctr --address "$SOCK" -n k8s.io images import "$IMAGES/pause.tar" >/dev/null
{
  echo "ENDPOINT=unix://$SOCK"
  echo "REGISTRY=$REGISTRY"
  echo "CONTAINERD_PID=$(cat "$STATE/containerd.pid")"
  echo "REGISTRY_PID=$(cat "$STATE/registry.pid")"
} | tee "$STATE/env"
