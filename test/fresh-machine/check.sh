#!/usr/bin/env bash
# Runs the README's two set-up commands (./dev demo, ./dev test) on a fresh
# Debian 12 made with Debian's own mmdebstrap, in a chroot, on a clean clone
# of this repository's HEAD. A missing install step, or a library that only
# the development machine has (libgcc's __truncsfbf2 was one), fails here
# before it fails in CI or for a user.
#
# Usage: test/fresh-machine/check.sh [ROOT]     (as root; needs the network
#        to Debian's mirror; the first run downloads about 2 GB and builds
#        everything from scratch: about an hour on two cores)
#   ROOT  where the chroot lives (default /var/tmp/kiln-fresh); an existing
#         one is reused with only the repository replaced, so that a rerun
#         checks the tree, not the download. Delete it for a truly fresh run.
#
# Not part of ./dev test: it takes an hour and the network. The outcome of
# the last run is in docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=${1:-/var/tmp/kiln-fresh}

if [ "$(id -u)" -ne 0 ]; then
  echo "check.sh: run as root (mmdebstrap and chroot need it)" >&2
  exit 2
fi
if ! command -v mmdebstrap >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap
fi

# A minimal Debian 12: apt, bash, coreutils. Everything else must come from
# ./dev itself. sudo is absent on purpose: ./dev runs apt-get as root.
if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
  rm -rf "$ROOT"
  mmdebstrap --variant=minbase --include=ca-certificates,git bookworm "$ROOT"
fi

# The repository as committed (a clone, so untracked files and build trees
# of this checkout cannot leak in).
rm -rf "$ROOT/work/kiln"
mkdir -p "$ROOT/work"
git clone -q --no-hardlinks "$PWD" "$ROOT/work/kiln"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# A network that inspects TLS (a proxy with its own CA) is a fact of the
# network, not of the project: the host's local CAs go in too, or pip could
# not reach PyPI from the chroot.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
  chroot "$ROOT" update-ca-certificates >/dev/null
fi

test/fresh-machine/in-chroot.sh "$ROOT" "cd /work/kiln && ./dev demo && ./dev test"
echo "check.sh: ./dev demo and ./dev test passed on a fresh Debian 12 ($ROOT)"
