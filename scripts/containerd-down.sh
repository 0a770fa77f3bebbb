#!/usr/bin/env bash
# Stops what containerd-up.sh started: every CRI pod, containerd, the registry; removes the state dir.
set -uo pipefail
STATE=${1:?usage: containerd-down.sh STATE_DIR}
SOCK="$STATE/containerd.sock"
if [ -S "$SOCK" ] && command -v crictl >/dev/null 2>&1; then
  crictl -r "unix://$SOCK" rmp -fa >/dev/null 2>&1 || true
fi
if [ -S "$SOCK" ]; then
  for t in $(ctr --address "$SOCK" -n k8s.io tasks ls -q 2>/dev/null); do
    ctr --address "$SOCK" -n k8s.io tasks kill -s SIGKILL "$t" >/dev/null 2>&1 || true
  done
fi
for f in containerd.pid registry.pid; do
  [ -f "$STATE/$f" ] && kill "$(cat "$STATE/$f")" 2>/dev/null
done
sleep 0.5
pkill -KILL -f -- "containerd-shim-runc-v2 .*-address $SOCK" 2>/dev/null || true
umount -R "$STATE/state" 2>/dev/null || true
grep " $STATE/" /proc/mounts | awk '{print $2}' | sort -r | xargs -r -n1 umount -l 2>/dev/null
rm -rf "$STATE"
# The CNI bridge and host-local IPAM store are shared by every containerd-up.sh instance: remove them only when
# no other instance is still running.
if ! pgrep -f "containerd --config /.*/config.toml" >/dev/null 2>&1; then
  ip link del nodelet0 2>/dev/null || true
  rm -rf /var/lib/cni/networks/nodelet-test
fi
