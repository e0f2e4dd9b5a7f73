#!/usr/bin/env bash
# Runs the CUDA differential test on a GPU machine (CUDA driver and PyTorch
# with CUDA; no LLVM, MLIR or kiln compiler needed).
#
# On the build machine:   test/gpu/run_on_gpu.sh --prepare OUT_DIR
#   (compiles the archives with build/bin/kiln and gathers everything the
#   GPU machine needs into OUT_DIR; KILN_BUILD_DIR picks the build)
# and, for the benchmark, test/gpu/run_on_gpu.sh --prepare-bench BENCH_DIR
#   (its archives' weights are large: each folder alone fits the 64 MiB a
#   GPU session takes along, the two together do not)
# Copy a folder to the GPU machine, then there:
#                         OUT_DIR/run_on_gpu.sh OUT_DIR
#                         BENCH_DIR/run_on_gpu.sh BENCH_DIR --bench
# The first prints one line per case and `all ok: N runs`; exit status 1
# on any failure. The second runs bench/gpu_bench.py, kiln beside eager
# PyTorch on the same GPU.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [[ "${1:-}" == "--prepare" ]]; then
  out="${2:?usage: run_on_gpu.sh --prepare OUT_DIR}"
  build="${KILN_BUILD_DIR:-$here/../../build}"
  exec /usr/bin/python3 "$here/gpu_diff.py" prepare "$build" "$out"
fi
if [[ "${1:-}" == "--prepare-bench" ]]; then
  out="${2:?usage: run_on_gpu.sh --prepare-bench OUT_DIR}"
  build="${KILN_BUILD_DIR:-$here/../../build}"
  exec /usr/bin/python3 "$here/gpu_diff.py" prepare-bench "$build" "$out"
fi
out="$(cd "${1:-$here}" && pwd)"
# The runtime and its libraries travel packed (gpu_diff.py pack_libraries).
tar -xJf "$out/lib.tar.xz" -C "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
status=0
if [[ -f "$out/cases.json" ]]; then
  python3 "$out/gpu_diff.py" check "$out" || status=$?
fi
if [[ "${2:-}" == "--bench" ]]; then
  python3 "$out/gpu_bench.py" "$out" || status=$?
fi
exit $status
