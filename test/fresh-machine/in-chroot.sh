#!/usr/bin/env bash
# in-chroot.sh ROOT SCRIPT: runs the bash SCRIPT inside the chroot ROOT with
# a clean environment, for check.sh and runtime-only.sh.
#
# The runtime loads code objects through /proc/self/fd (memfd + dlopen), and
# tests use /dev/shm and /tmp: they are mounted in a private mount
# namespace, so nothing stays mounted when this ends, however it ends.
set -euo pipefail
unshare --mount --propagation private bash -euo pipefail -c '
  ROOT=$1
  mount -t proc proc "$ROOT/proc"
  mount --rbind /dev "$ROOT/dev"
  mount -t tmpfs tmpfs "$ROOT/tmp"
  chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 bash -euo pipefail -c "$2"
' in-chroot "$1" "$2"
