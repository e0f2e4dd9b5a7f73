#!/usr/bin/env python3
"""The GPU benchmark: kiln on CUDA beside eager PyTorch on the same GPU.

Runs on a GPU machine, from the folder test/gpu/run_on_gpu.sh --prepare
made (it holds the archives, kiln-run and the runtime):

    python3 OUT/gpu_bench.py OUT [PREFIX...]

(with PREFIXes, only the workloads whose label starts with one of them)

For each workload it times, in one run on one GPU, with inputs already on
the GPU and a synchronize after every call (so a call's time is what a
caller waits for):
  * kiln: `kiln-run bench --inputs-on cuda --json` (Model::run, median of the
    calls after warm-up; first call reported apart);
  * eager PyTorch on CUDA, the same function or nn.Module (TF32 off, as
    PyTorch's default and kiln's);
  * for the memory-bound myfun and softmax, a device-to-device copy of the same bytes
    (torch's copy_), the roofline: its bandwidth counts bytes read and
    written, and kiln's is computed the same way.
and prints a table of medians and ratios (eager / kiln: above 1 means kiln
is faster). A second table times kiln's first call again after a load with
--warm-at-load (LoadOptions::warmup), which calls each entry once on zeros
of the same shapes. The first call comes after kiln-run has made the
inputs, during which the GPU idles, and an idle GPU is slower to start; so
that table also times warm calls each after the same idle (`kiln-run bench
--pause-ms`, and a sleep before each of eager PyTorch's calls): the first
call is compared with a warm call that found the GPU as idle. A third times calls on inputs in host memory
(HOST_INPUT_WORKLOADS): kiln copies them through its pinned staging buffer
(`kiln-run bench --inputs-on cpu`), eager PyTorch once from pageable
memory (`x.cuda()`) and once from memory pinned beforehand
(`x.pin_memory()`, then `x.cuda(non_blocking=True)`).
"""
import json
import os
import subprocess
import sys
import time

# Beside this script in the folder.
from gpu_diff import eager_like_kiln, load_eager, runtime_env

def seed_function(stem, size):
    """A function of the benchmark's sources (test/gpu/gpu_diff.py,
    BENCH_FUNCTIONS) and an input of `size` (a length or a shape) near 1."""
    def make(out):
        import torch
        fn = getattr(load_eager(out, stem), stem)
        return fn, [torch.rand(size, device="cuda") * 0.02 + 0.99]
    return make


def model(stem, cls, kwargs, shape):
    """An nn.Module of an example at the sizes test/gpu/gpu_diff.py compiled
    it with (random weights: only the time is compared)."""
    def make(out):
        import torch
        torch.manual_seed(0)
        m = getattr(load_eager(out, stem), cls)(**kwargs).cuda().eval()
        return m, [torch.randn(shape, device="cuda")]
    return make


# label, archive, kiln-run --dim values, eager builder, memory-bound?, and
# whether both sides may use TF32 (the archive compiled with --allow-tf32).
WORKLOADS = [
    ("myfun tanh(x*x), x[64M]", "myfun.O2.kiln", {"N": 64 << 20},
     seed_function("myfun", 64 << 20), True, False),
    ("func 10 squarings, x[1024]", "func.O2.kiln", {"N": 1024},
     seed_function("func", 1024), False, False),
    # The transformer block's attention rows: B*H*T rows of T.
    ("softmax rows x[131072, 512]", "softmax.O2.kiln",
     {"B": 131072, "N": 512}, seed_function("softmax", (131072, 512)), True,
     False),
    # Longer rows, of BERT-large's and GPT-2's widths and beyond: the
    # register path's largest tier, and the kernel for longer rows.
    ("softmax rows x[65536, 1024]", "softmax.O2.kiln",
     {"B": 65536, "N": 1024}, seed_function("softmax", (65536, 1024)), True,
     False),
    ("softmax rows x[16384, 4096]", "softmax.O2.kiln",
     {"B": 16384, "N": 4096}, seed_function("softmax", (16384, 4096)), True,
     False),
    ("MLP 784-1024-1024-10 b4096", "mlp_bench.kiln", {"B": 4096},
     model("mlp", "MLP", {"sizes": (784, 1024, 1024)}, [4096, 784]), False,
     False),
    ("GPT block d256 h8 b32 t512", "block_bench.kiln", {"B": 32, "T": 512},
     model("transformer_block", "Block",
           {"n_embd": 256, "n_head": 8, "block_size": 512}, [32, 512, 256]),
     False, False),
    ("ResNet block 64->128 s2 b32 56x56", "resnet_bench.kiln", {"B": 32},
     model("resnet_block", "BasicBlock",
           {"in_planes": 64, "planes": 128, "stride": 2}, [32, 64, 56, 56]),
     False, False),
    ("ResNet block, TF32 on both sides", "resnet_bench_tf32.kiln", {"B": 32},
     model("resnet_block", "BasicBlock",
           {"in_planes": 64, "planes": 128, "stride": 2}, [32, 64, 56, 56]),
     False, True),
]
ITERATIONS = 50
# Warm calls each after an idle pause: as many, and the pause at most this
# long (the GPU's clocks have long dropped by then).
IDLE_ITERATIONS = 7
MAX_PAUSE_MS = 200
# The workloads also timed on inputs in host memory.
HOST_INPUT_WORKLOADS = ["myfun tanh(x*x), x[64M]", "MLP 784-1024-1024-10 b4096"]


def time_torch(fn, iterations=ITERATIONS, pause_ms=0):
    import torch
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iterations):
        time.sleep(pause_ms / 1e3)
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) * 1e6)
    times.sort()
    return times[len(times) // 2]


def kiln_bench(out, archive, entry, dims, warm_at_load=False,
               inputs_on="cuda", pause_ms=0):
    cmd = [os.path.join(out, "bin", "kiln-run"), "bench",
           os.path.join(out, "archives", archive), "--input", "x=random",
           "--entry", entry, "--inputs-on", inputs_on, "--json",
           "--iterations", str(IDLE_ITERATIONS if pause_ms else ITERATIONS),
           "--pause-ms", str(pause_ms)]
    if warm_at_load:
        cmd.append("--warm-at-load")
    for symbol, size in dims.items():
        cmd += ["--dim", "%s=%d" % (symbol, size)]
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env=runtime_env(out))
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip())
    return json.loads(proc.stdout)


def main(out, only):
    os.environ["PYTORCH_JIT"] = "0"
    import torch
    print("GPU: %s, PyTorch %s" % (torch.cuda.get_device_name(0),
                                   torch.__version__))
    rows = []
    for label, archive, dims, make, roofline, tf32 in WORKLOADS:
        if only and not any(label.startswith(p) for p in only):
            continue
        eager_like_kiln(tf32)
        fn, inputs = make(out)
        x = inputs[0]
        with torch.no_grad():
            eager = time_torch(lambda: fn(*inputs))
        # A model's entry is its forward; a seed file's, its function.
        entry = "forward" if "_bench" in archive else \
            archive.split(".")[0]
        k = kiln_bench(out, archive, entry, dims)
        warm = kiln_bench(out, archive, entry, dims, warm_at_load=True)
        pause = min(MAX_PAUSE_MS,
                    max(1, round(warm["idle_before_first_us"] / 1e3)))
        idle = kiln_bench(out, archive, entry, dims, warm_at_load=True,
                          pause_ms=pause)
        with torch.no_grad():
            eager_idle = time_torch(lambda: fn(*inputs), IDLE_ITERATIONS,
                                    pause)
        row = {"workload": label, "eager_us": eager, "kiln_us": k["median_us"],
               "kiln_first_us": k["first_us"], "kiln_load_us": k["load_us"],
               "warm_first_us": warm["first_us"],
               "warm_median_us": warm["median_us"],
               "warm_load_us": warm["load_us"],
               "idle_us": warm["idle_before_first_us"], "pause_ms": pause,
               "idle_kiln_us": idle["median_us"], "idle_eager_us": eager_idle}
        if roofline:
            y = torch.empty_like(x)
            row["copy_us"] = time_torch(lambda: y.copy_(x))
            row["bytes"] = 2 * x.numel() * x.element_size()
        if label in HOST_INPUT_WORKLOADS:
            host = x.cpu()
            pinned = host.pin_memory()
            with torch.no_grad():
                row["host_eager_us"] = time_torch(lambda: fn(host.cuda()))
                row["pinned_eager_us"] = time_torch(
                    lambda: fn(pinned.cuda(non_blocking=True)))
            row["host_kiln_us"] = kiln_bench(out, archive, entry, dims,
                                             inputs_on="cpu")["median_us"]
            row["host_bytes"] = x.numel() * x.element_size()
        rows.append(row)
    print()
    print("| workload | eager PyTorch (us) | kiln (us) | eager / kiln | "
          "copy (us) | kiln GB/s | copy GB/s | kiln / copy bandwidth | "
          "kiln first call (us) | first / warm |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        copy = r.get("copy_us")
        bw = lambda t: r["bytes"] / t / 1e3 if copy else None
        print("| %s | %.1f | %.1f | %.2fx | %s | %s | %s | %s | %.1f | %.2f |" % (
            r["workload"], r["eager_us"], r["kiln_us"],
            r["eager_us"] / r["kiln_us"],
            "%.1f" % copy if copy else "-",
            "%.0f" % bw(r["kiln_us"]) if copy else "-",
            "%.0f" % bw(copy) if copy else "-",
            "%.0f%%" % (100 * copy / r["kiln_us"]) if copy else "-",
            r["kiln_first_us"], r["kiln_first_us"] / r["kiln_us"]))
    # The same archives loaded with --warm-at-load (LoadOptions::warmup):
    # the load calls each entry once on zeros of the benchmark's shapes.
    print()
    # Then warm calls after the idle that preceded the first call (capped at
    # MAX_PAUSE_MS), kiln's and eager PyTorch's: what idling alone costs.
    print("| workload | load (us) | load with warm-up (us) | first call after "
          "warm-up (us) | warm call (us) | first / warm | idle before the "
          "first call (ms) | kiln warm after that idle, pause (us, ms) | "
          "first / warm after idle | eager after idle / eager warm |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %.0f | %.0f | %.1f | %.1f | %.2f | %.1f | %.1f, %d | "
              "%.2f | %.2f |" % (
                  r["workload"], r["kiln_load_us"], r["warm_load_us"],
                  r["warm_first_us"], r["warm_median_us"],
                  r["warm_first_us"] / r["warm_median_us"],
                  r["idle_us"] / 1e3, r["idle_kiln_us"], r["pause_ms"],
                  r["warm_first_us"] / r["idle_kiln_us"],
                  r["idle_eager_us"] / r["eager_us"]))
    # Inputs in host memory: each call copies its input to the GPU first.
    print()
    print("| workload, input in host memory | input MB | eager, pageable "
          "(us) | eager, pinned beforehand (us) | kiln, staged (us) | "
          "eager pageable / kiln |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        if "host_kiln_us" in r:
            print("| %s | %.1f | %.1f | %.1f | %.1f | %.2fx |" % (
                r["workload"], r["host_bytes"] / 1e6, r["host_eager_us"],
                r["pinned_eager_us"], r["host_kiln_us"],
                r["host_eager_us"] / r["host_kiln_us"]))
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
