"""kiln's CPU benchmark: kiln beside eager PyTorch, TorchScript and ONNX
Runtime on the same inputs, in one run, at each thread count asked for.

Run it through bench/run, which installs what it needs. Each engine is timed
in a fresh process per thread count, with every thread pool pinned to that
count (torch.set_num_threads, OMP_NUM_THREADS and OPENBLAS_NUM_THREADS,
KILN_NUM_THREADS, ORT's intra_op_num_threads):

- eager: the Python functions and modules with PYTORCH_JIT=0, so that the
  seed examples' @torch.jit.script is the identity;
- TorchScript: the same code scripted, after warm-up calls (its profiling
  executor optimizes on the second call);
- ONNX Runtime: torch.onnx.export at opset 17 with static shapes (traced
  with PYTORCH_JIT=0, so loops are unrolled), ORT_ENABLE_ALL;
- kiln: `kiln-run bench --json` on the archive kiln.compile wrote, from C++
  as an app calls it, started from a process of its own so that no other
  engine's threads still spin on the cores;
- copy: torch's copy_ of the workload's input into a preallocated tensor,
  the same bytes read and written as an elementwise pass over them: the
  roofline of the memory-bound workloads.

Python engines report the best of 5 repeats of the mean of N calls, N sized
to about 0.1 s per repeat, under torch.no_grad(); they include Python's
call overhead (a few microseconds). kiln reports the median of 5*N single
calls of Model::run (C++ has no call overhead to average away). Ratios
above 1 mean kiln is faster. kiln's load (Model::load, every checksum
verified, from a warm page cache) is reported in microseconds, and its
first call twice: after a plain load, and after a load with
`--warm-at-load` (LoadOptions::warmup, one call on zeros at load, which
builds oneDNN's primitives). A process has one load and one first call,
so each of the three is the median over FRESH_PROCESSES processes: single
ones varied by 2x and more here (huge-page faults, an idle second core).

Compute-bound workloads (those with `flops`) get a second table: each
engine's GFLOP/s, and kiln's share of the peak, which is one core's
multiply-add rate (bench/peak_fma.cpp, measured before the timings: its
widest vectors, twelve independent chains in registers) times the thread
count.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))

REPEATS = 5
REPEAT_SECONDS = 0.1
# Processes whose load and first call give kiln's medians (time_kiln).
FRESH_PROCESSES = 5


def slug(name):
    return "".join(c if c.isalnum() else "_" for c in name).strip("_")


def calls_per_repeat(call):
    call()
    one = timeit.timeit(call, number=1)
    return max(1, min(100000, int(REPEAT_SECONDS / max(one, 1e-7))))


def best_us(call):
    import torch
    with torch.no_grad():
        for _ in range(5):  # warm-up; TorchScript optimizes on call 2
            call()
        n = calls_per_repeat(call)
        return min(timeit.repeat(call, number=n, repeat=REPEATS)) / n * 1e6


def prepare(work, workloads):
    """Archives and inputs (.npy), written anew each run so that the
    archives are this build's; the ONNX files of an earlier run go, so that
    the first timing process exports them from these workloads."""
    import numpy as np
    import kiln
    for w in workloads:
        base = os.path.join(work, slug(w.name))
        if os.path.exists(base + ".onnx"):
            os.remove(base + ".onnx")
        for name, t in zip(w.shapes, w.inputs()):
            np.save("%s.%s.npy" % (base, name), t.numpy())
        kiln.compile(w.obj, args=w.kiln_args(), output=base + ".kiln")


def export_onnx(w, path):
    import torch

    class Call(torch.nn.Module):
        def __init__(self, fn):
            super().__init__()
            self.fn = fn

        def forward(self, *args):
            return self.fn(*args)

    obj = w.obj if isinstance(w.obj, torch.nn.Module) else Call(w.obj)
    torch.onnx.export(obj, tuple(w.inputs()), path, opset_version=17,
                      input_names=list(w.shapes))


def time_python(w, work, threads):
    """eager, ONNX Runtime and copy, in a PYTORCH_JIT=0 process."""
    import numpy as np
    import onnxruntime as ort
    import torch
    inputs = w.inputs()
    out = {"eager": best_us(lambda: w.obj(*inputs))}
    path = os.path.join(work, slug(w.name) + ".onnx")
    if not os.path.exists(path):
        export_onnx(w, path)
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = \
        ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(path, options,
                                   providers=["CPUExecutionProvider"])
    feed = {i.name: np.ascontiguousarray(t.numpy())
            for i, t in zip(session.get_inputs(), inputs)}
    out["ort"] = best_us(lambda: session.run(None, feed))
    if w.memory_bound:
        src = inputs[0]
        dst = torch.empty_like(src)
        out["copy"] = best_us(lambda: dst.copy_(src))
    return out


def time_script(w, work):
    """TorchScript, in a process with the JIT on."""
    import torch
    inputs = w.inputs()
    scripted = torch.jit.script(w.obj) if isinstance(w.obj, torch.nn.Module) \
        else w.obj
    return {"torchscript": best_us(lambda: scripted(*inputs))}


def time_kiln(w, work):
    """kiln through kiln-run, from a process that runs nothing itself, so
    that no other engine's threads are still spinning on the cores."""
    base = os.path.join(work, slug(w.name))
    probe = kiln_bench(base, w, ["--iterations", "3"])
    n = max(20, min(200000, int(REPEATS * REPEAT_SECONDS * 1e6
                                / max(probe["median_us"], 0.05))))
    result = kiln_bench(base, w, ["--warmup", "5", "--iterations", str(n)])
    fresh = [result] + [kiln_bench(base, w, ["--warmup", "0", "--iterations",
                                             "1"])
                        for _ in range(FRESH_PROCESSES - 1)]
    # Loaded with a warm-up call (LoadOptions::warmup), the first call
    # finds oneDNN's primitives built.
    warm = [kiln_bench(base, w, ["--warm-at-load", "--warmup", "0",
                                 "--iterations", "1"])
            for _ in range(FRESH_PROCESSES)]

    def median(runs, key):
        return statistics.median(r[key] for r in runs)
    return {"kiln": result["median_us"],
            "kiln_first": median(fresh, "first_us"),
            "kiln_warm_first": median(warm, "first_us"),
            "kiln_load": median(fresh, "load_us")}


def kiln_bench(base, w, flags):
    """`kiln-run bench --json` on the workload's archive and inputs."""
    import torch
    entry = "forward" if isinstance(w.obj, torch.nn.Module) else w.obj.name
    cmd = [os.path.join(ROOT, os.environ["KILN_BENCH_BIN"], "kiln-run"),
           "bench", base + ".kiln", "--json", "--entry", entry] + flags
    for name in w.shapes:
        cmd += ["--input", "%s=%s.%s.npy" % (name, base, name)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("bench: %s failed:\n%s" % (" ".join(cmd), proc.stderr))
    return json.loads(proc.stdout)


def child(args):
    import torch
    torch.set_num_threads(args.threads)
    from workloads import workloads
    results = {}
    for w in selected(workloads(), args.only):
        if args.mode == "python":
            results[w.name] = time_python(w, args.work, args.threads)
        elif args.mode == "script":
            results[w.name] = time_script(w, args.work)
        else:
            results[w.name] = time_kiln(w, args.work)
    json.dump(results, sys.stdout)


def selected(ws, only):
    return [w for w in ws if not only or any(o in w.name for o in only)]


def run_child(args, mode, threads):
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                "KILN_NUM_THREADS"):
        env[var] = str(threads)
    env["PYTORCH_JIT"] = "0" if mode == "python" else "1"
    cmd = [sys.executable, os.path.abspath(__file__), "--child", mode,
           "--threads", str(threads), "--work", args.work]
    for o in args.only or []:
        cmd += ["--only", o]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True,
                          cwd=HERE)
    if proc.returncode != 0:
        sys.exit("bench: the %s timings at %d threads failed:\n%s"
                 % (mode, threads, proc.stderr))
    return json.loads(proc.stdout)


def ratio(a, b):
    return "%.2f×" % (a / b) if a and b else "-"


def table(threads, results, names):
    print("\n%d thread%s, µs per call (ratios: engine time / kiln time, "
          "above 1 = kiln faster)\n" % (threads, "" if threads == 1 else "s"))
    print("| workload | eager | TorchScript | ONNX Runtime | kiln | "
          "vs eager | vs TorchScript | vs ORT | copy (roofline) | "
          "kiln / copy | kiln load | kiln first call | "
          "first after a warm load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        r = results[name]
        copy = r.get("copy")
        print("| %s | %.1f | %.1f | %.1f | %.2f | %s | %s | %s | %s | %s | "
              "%.1f | %.1f | %.1f |" % (
                  name, r["eager"], r["torchscript"], r["ort"], r["kiln"],
                  ratio(r["eager"], r["kiln"]),
                  ratio(r["torchscript"], r["kiln"]),
                  ratio(r["ort"], r["kiln"]),
                  "%.1f" % copy if copy else "-",
                  "%.2f" % (r["kiln"] / copy) if copy else "-",
                  r["kiln_load"], r["kiln_first"], r["kiln_warm_first"]))


def peak_fma():
    """One core's peak f32 multiply-add rate (bench/peak_fma.cpp)."""
    proc = subprocess.run([os.environ["KILN_PEAK_FMA"]], capture_output=True,
                          text=True, check=True)
    return json.loads(proc.stdout)


def gemm_table(threads, results, ws, peak):
    """The compute-bound workloads' speed against the cores' peak: one
    core's measured rate times the thread count."""
    if not ws:
        return
    roof = peak["gflops"] * threads
    print("\nCompute-bound, %d thread%s: GFLOP/s and share of the peak "
          "(%.0f GFLOP/s: %s multiply-adds, %.1f per core, measured)\n" % (
              threads, "" if threads == 1 else "s", roof, peak["isa"],
              peak["gflops"]))
    print("| workload | eager | TorchScript | ONNX Runtime | kiln | "
          "kiln / peak |")
    print("|---|---|---|---|---|---|")
    for w in ws:
        r = results[w.name]
        rate = {k: w.flops / r[k] / 1e3 for k in
                ("eager", "torchscript", "ort", "kiln")}
        print("| %s | %.1f | %.1f | %.1f | %.1f | %.0f%% |" % (
            w.name, rate["eager"], rate["torchscript"], rate["ort"],
            rate["kiln"], 100 * rate["kiln"] / roof))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", default="1,%d" % os.cpu_count(),
                        help="comma-separated thread counts (default: 1 and "
                             "all cores)")
    parser.add_argument("--only", action="append",
                        help="only workloads whose name contains this "
                             "(repeatable)")
    parser.add_argument("--work", help=argparse.SUPPRESS)
    parser.add_argument("--child", dest="mode", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mode:
        args.threads = int(args.threads)
        return child(args)
    args.work = os.path.join(ROOT, os.environ["KILN_BENCH_BIN"], "..",
                             "bench")
    os.makedirs(args.work, exist_ok=True)
    sys.path.insert(0, HERE)
    from workloads import workloads
    ws = selected(workloads(), args.only)
    prepare(args.work, ws)
    counts = sorted({int(t) for t in args.threads.split(",")})
    peak = peak_fma()
    for threads in counts:
        results = {w.name: {} for w in ws}
        for mode in ("python", "script", "kiln"):
            for name, r in run_child(args, mode, threads).items():
                results[name].update(r)
        table(threads, results, [w.name for w in ws])
        gemm_table(threads, results, [w for w in ws if w.flops], peak)


if __name__ == "__main__":
    main()
