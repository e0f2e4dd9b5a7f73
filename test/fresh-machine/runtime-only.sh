#!/usr/bin/env bash
# Builds the runtime alone on a fresh Debian 12 that has only the runtime's
# packages (dev's RUNTIME_PACKAGES: no LLVM, no MLIR, no clang, no Python),
# then installs it and runs, against the installed copy, an archive compiled
# here: with kiln-run, with the C test program built through pkg-config, and
# with the C++ example app built through find_package(kiln_runtime). This
# is the deployment image of issue 20: "compile here, run there".
#
# Usage: test/fresh-machine/runtime-only.sh [ROOT]   (as root; needs the
#        network to Debian's mirror; a few minutes)
#   ROOT  where the chroot lives (default /var/tmp/kiln-runtime-only); an
#         existing one is reused with only the repository replaced.
#
# Needs this checkout's build/ (for kiln, to compile the archive, and the
# eager reference values). Not part of ./dev test: it needs the network.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=${1:-/var/tmp/kiln-runtime-only}
BUILD=${KILN_BUILD_DIR:-build}

if [ "$(id -u)" -ne 0 ]; then
  echo "runtime-only.sh: run as root (mmdebstrap and chroot need it)" >&2
  exit 2
fi
# shellcheck disable=SC1090 # the one list of the runtime's packages
source <(sed -n '/^RUNTIME_PACKAGES=/,/)$/p' dev)
if [ ! -x "$ROOT/usr/bin/cmake" ]; then
  rm -rf "$ROOT"
  packages=$(IFS=,; echo "${RUNTIME_PACKAGES[*]}")
  mmdebstrap --variant=minbase --include="git,$packages" bookworm "$ROOT"
fi

rm -rf "$ROOT/work"
mkdir -p "$ROOT/work"
git clone -q --no-hardlinks "$PWD" "$ROOT/work/kiln"
"$BUILD/bin/kiln" compile examples/seed/myfun.py --target-cpu=x86-64,x86-64-v3 \
  -o "$ROOT/work/myfun.kiln"
/usr/bin/python3 test/runtime-c/Inputs/myfun_case.py examples/seed/myfun.py \
  "$ROOT/work/case.txt"

test/fresh-machine/in-chroot.sh "$ROOT" '
  if dpkg -l | grep -Ei "^ii +(llvm|libllvm|mlir|libmlir|clang|python3) "; then
    echo "runtime-only.sh: the image has a compiler toolchain (above)" >&2
    exit 1
  fi
  cd /work
  cmake -S kiln/runtime -B build-rt -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
  cmake --build build-rt -- -j2 > /dev/null
  cmake --install build-rt --prefix /opt/kiln > /dev/null
  export PKG_CONFIG_PATH=/opt/kiln/lib/pkgconfig LD_LIBRARY_PATH=/opt/kiln/lib
  cc -std=c99 -Wall -Werror kiln/test/runtime-c/run_archive.c \
    $(pkg-config --cflags --libs kiln_runtime) -lm -o run_archive
  ./run_archive myfun.kiln case.txt
  /opt/kiln/bin/kiln-run myfun.kiln --input x=random:1 --dim N=5
  cmake -S kiln/examples/cpp -B build-example -G Ninja \
    -Dkiln_runtime_DIR=/opt/kiln/lib/cmake/kiln_runtime > /dev/null
  cmake --build build-example > /dev/null
  build-example/kiln-example myfun.kiln myfun
'
echo "runtime-only.sh: the runtime built, installed and ran on a Debian 12 without LLVM or MLIR ($ROOT)"
