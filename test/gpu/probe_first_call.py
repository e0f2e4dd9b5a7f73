"""Where a first call after --warm-at-load goes: a probe for docs/cuda.md.

The ResNet block's first call after a load with warm-up took about twice
its warm call on an H100, where myfun's and the MLP's took 1.4 times. This
times, on the GPU machine, from the folder run_on_gpu.sh --prepare made:
- kiln's first call after warm-up and the call after it alone
  (`kiln-run bench --warm-at-load --warmup 0 --iterations 1`), with the
  driver's default lazy module loading and with CUDA_MODULE_LOADING=EAGER
  (which loads every kernel of cuDNN and cuBLAS at their load);
- kiln's warm median;
- eager PyTorch's same module: its 2nd, 3rd and 4th calls one by one after
  a first, then its warm median.

Run on a GPU machine: python3 OUT/probe_first_call.py OUT
"""
import json
import os
import subprocess
import sys
import time


def kiln(out, archive, entry, dims, warmup, iterations, extra_env=None):
    from gpu_diff import runtime_env
    cmd = [os.path.join(out, "bin", "kiln-run"), "bench",
           os.path.join(out, "archives", archive), "--input", "x=random",
           "--entry", entry, "--inputs-on", "cuda", "--warm-at-load",
           "--json", "--warmup", str(warmup), "--iterations", str(iterations)]
    for symbol, size in dims.items():
        cmd += ["--dim", "%s=%d" % (symbol, size)]
    env = runtime_env(out)
    env.update(extra_env or {})
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip())
    return json.loads(proc.stdout)


def eager_calls(fn, inputs, count=4):
    """Times of calls 1..count one by one, synchronized, then the median
    of 50 more."""
    import torch
    times = []
    for _ in range(count + 50):
        start = time.perf_counter()
        fn(*inputs)
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) * 1e6)
    steady = sorted(times[count:])
    return times[:count], steady[len(steady) // 2]


def main(out):
    sys.path.insert(0, out)
    os.environ["PYTORCH_JIT"] = "0"
    import torch
    from gpu_bench import WORKLOADS
    from gpu_diff import eager_like_kiln
    print("GPU: %s" % torch.cuda.get_device_name(0))
    for label, archive, dims, make, _, tf32 in WORKLOADS:
        if not label.startswith(("ResNet block 64", "MLP", "myfun")):
            continue
        entry = "forward" if "_bench" in archive else archive.split(".")[0]
        lazy = kiln(out, archive, entry, dims, 0, 1)
        eager_loading = kiln(out, archive, entry, dims, 0, 1,
                             {"CUDA_MODULE_LOADING": "EAGER"})
        warm = kiln(out, archive, entry, dims, 3, 50)
        print("%s: kiln after warm-up: call 1 %.1f us, call 2 %.1f us; "
              "with CUDA_MODULE_LOADING=EAGER: %.1f, %.1f; warm median %.1f"
              % (label, lazy["first_us"], lazy["median_us"],
                 eager_loading["first_us"], eager_loading["median_us"],
                 warm["median_us"]))
        eager_like_kiln(tf32)
        fn, inputs = make(out)
        with torch.no_grad():
            calls, steady = eager_calls(fn, inputs)
        print("%s: eager calls 1-4 %s us, warm median %.1f"
              % (label, ", ".join("%.1f" % t for t in calls), steady))


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]))
