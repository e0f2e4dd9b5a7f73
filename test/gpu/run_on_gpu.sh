#!/usr/bin/env bash
# Runs the CUDA differential test on a GPU machine (CUDA driver and PyTorch
# with CUDA; no LLVM, MLIR or kiln compiler needed).
#
# On the build machine:   test/gpu/run_on_gpu.sh --prepare OUT_DIR
#   (compiles the archives with build/bin/kiln and gathers everything the
#   GPU machine needs into OUT_DIR; KILN_BUILD_DIR picks the build)
# Copy OUT_DIR to the GPU machine, then there:
#                         OUT_DIR/run_on_gpu.sh OUT_DIR [--bench]
# It prints one line per case and `all ok: N runs`; exit status 1 on any
# failure. With --bench it then runs bench/gpu_bench.py, kiln beside eager
# PyTorch on the same GPU.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [[ "${1:-}" == "--prepare" ]]; then
  out="${2:?usage: run_on_gpu.sh --prepare OUT_DIR}"
  build="${KILN_BUILD_DIR:-$here/../../build}"
  exec /usr/bin/python3 "$here/gpu_diff.py" prepare "$build" "$out"
fi
out="$(cd "${1:-$here}" && pwd)"
# The runtime and its libraries travel packed (gpu_diff.py pack_libraries).
tar -xJf "$out/lib.tar.xz" -C "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
status=0
python3 "$out/gpu_diff.py" check "$out" || status=$?
if [[ "${2:-}" == "--bench" ]]; then
  python3 "$out/gpu_bench.py" "$out" || status=$?
fi
exit $status
