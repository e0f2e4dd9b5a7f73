#!/usr/bin/python3
"""The CUDA differential test: kiln archives on a GPU against PyTorch on CUDA.

A GPU machine has CUDA and PyTorch but no LLVM or MLIR, so the test has two
halves, run on two machines:

  gpu_diff.py prepare BUILD_DIR OUT_DIR     (the build machine)
      compiles every entry point of the example files below with
      `kiln compile --target=cuda` at -O0 (and --target=cpu,cuda at -O2),
      writes seeded inputs for
      two dim sets as .npy (test/Inputs/run_eager.py makes them, as for
      the CPU differential test), and copies into OUT_DIR what the GPU
      machine needs: the archives, the inputs, the sources, kiln-run, the
      runtime and the libraries it links, and this script.

  gpu_diff.py prepare-bench BUILD_DIR OUT_DIR
      the same for bench/gpu_bench.py alone: the archives it times (their
      weights are large, and the two folders together would pass the 64 MiB
      a GPU machine's session takes along), kiln-run, the runtime and the
      scripts.

  gpu_diff.py check OUT_DIR                 (the GPU machine; run_on_gpu.sh)
      runs each case with kiln-run (inputs from the CPU, and at -O2 also
      from the GPU: kiln-run --inputs-on cuda) and the same function in eager
      PyTorch on CUDA, on the same inputs, and compares. Then it makes the
      run-time checks inside kernels fail (KERNEL_ERRORS), through kiln.load
      (python/kiln, copied along), and expects the CPU's messages.

The comparison and its tolerance are the CPU differential test's
(test/Inputs/run_kiln.py, copied along): rtol 1e-4, atol 1e-5. libdevice's tanh, exp and erf are within a few ulp of
CUDA's, but kiln reduces a row in one thread in order while PyTorch uses a
tree; for the rows here (at most 2^12 elements of magnitude <= 1) the two
sums differ by far less than 1e-4 relative.

check prints one line per case and `all ok: N runs` (or FAILED) at the end.
"""
import functools
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The examples the GPU runs (relative to the repository root), and per
# file the entry points that the CUDA target supports so far.
FILES = {
    "test/gpu/Inputs/kernels.py": None,  # all of them
    "test/cuda/Inputs/lookups.py": None,
    "examples/seed/foo.py": None,
    "examples/seed/foo_bar.py": None,
    "examples/seed/func.py": None,
    "examples/seed/myfun.py": None,
    "examples/seed/pairwise_distance.py": None,
    "examples/seed/rnn.py": None,
    "test/snippets/chunk_loop.py": None,
    "test/snippets/chunk_loop_dynamic.py": None,
    "test/gpu/Inputs/random.py": None,
    "test/gpu/Inputs/exact.py": None,
}
# Files whose results are random: kiln's numbers are not PyTorch's, so each
# GPU run is compared with the -O2 archive's CPU code (`kiln-run --device
# cpu`) run in a fresh process, which draws the same stream key. The bits
# of rand agree exactly (integer Philox rounds, then one exact scaling);
# randn's log, sqrt and cos are libdevice's on the GPU and kiln's own on
# the CPU, a few ulp apart, within the usual tolerance.
KILN_CPU_REFERENCE = {"test/gpu/Inputs/random.py"}
# Per file, the entries (None: all) whose results must agree with the
# reference bit for bit, not only within the tolerance: correctly rounded
# operations, and rand's exact bits.
BIT_EXACT = {"test/gpu/Inputs/random.py": {"uniform", "dropout_mask"},
             "test/gpu/Inputs/exact.py": None}
# Modules compiled a third time, with --allow-tf32 (at -O2), and compared
# with eager PyTorch allowing TF32 too. TF32 rounds each product's inputs
# to a 10-bit mantissa (a relative error up to 2^-11 each), and the two
# sides need not pick the same algorithm, so their results differ by up to
# ~1e-3 of the sums of |products|, which for these layers (inputs and
# weights below 1) stays well under TF32_TOLERANCE.
TF32_MODULES = [
    ("examples/models/mlp.py", "MLP"),
    ("examples/models/lenet.py", "Net"),
]
TF32_TOLERANCE = 1e-2  # rtol and atol
# Files run at the CPU test's dim sets only: chunk_loop_dynamic's
# x.chunk(4) must give 4 pieces, which a first dim of 3 or 67 (the GPU's
# extra dim sets) does not; kiln refuses the fewer pieces PyTorch would
# give, with a clear error.
CPU_DIM_SETS_ONLY = {"test/snippets/chunk_loop_dynamic.py"}
# nn.Modules (relative to the repository root) and the class compiled, with
# the weights run_model.py gives them (seed 0); matmul and linear run on
# cuBLAS, conv2d on cuDNN. Every example model, and the public snippets of
# the CPU test (test/snippets).
MODULES = [
    ("examples/models/rnn.py", "RNN"),
    ("examples/models/mlp.py", "MLP"),
    ("examples/models/transformer_block.py", "Block"),
    ("examples/models/lenet.py", "Net"),
    ("examples/models/resnet_block.py", "BasicBlock"),
    ("examples/models/lstm_cell.py", "LSTMCell"),
    ("test/snippets/mingpt_newgelu.py", "NewGELU"),
    ("test/snippets/mingpt_attention.py", "CausalSelfAttention"),
    ("test/snippets/torchvision_basicblock.py", "BasicBlock"),
    ("test/snippets/torchvision_basicblock.py", "Downsampled"),
    ("test/snippets/llama_rmsnorm.py", "RMSNorm"),
    ("test/snippets/llama_feedforward.py", "FeedForward"),
    ("test/snippets/positional_encoding.py", "PositionalEncoding"),
    ("test/snippets/constructs.py", "Computed"),
    ("test/snippets/constructs.py", "Derived"),
    # Linear layers whose bias and relu run in cuBLASLt's epilogue, with
    # NaN rows that the relu must keep.
    ("test/models/Inputs/linear_epilogues.py", "LinearEpilogues"),
    # kiln-max-pool-first: bias and relu after the pool, with a NaN.
    ("test/models/Inputs/conv_pool.py", "ConvPool"),
]
# The models bench/gpu_bench.py times, at the sizes, with random
# weights: (archive, file, class, --init-arg values, --arg spec, other
# flags).
# The functions bench/gpu_bench.py times (as name.O2.kiln), from these
# files.
BENCH_FUNCTIONS = [("myfun", "examples/seed/myfun.py"),
                   ("func", "examples/seed/func.py"),
                   ("softmax", "test/cuda/Inputs/softmax.py")]
BENCH_MODELS = [
    ("mlp_bench", "examples/models/mlp.py", "MLP",
     ["sizes=(784, 1024, 1024)"], "x=f32[B,784]", []),
    ("block_bench", "examples/models/transformer_block.py", "Block",
     ["n_embd=256", "n_head=8", "block_size=512"], "x=f32[B,T,256]", []),
    ("resnet_bench", "examples/models/resnet_block.py", "BasicBlock",
     ["in_planes=64", "planes=128", "stride=2"], "x=f32[B,64,56,56]", []),
    ("resnet_bench_tf32", "examples/models/resnet_block.py", "BasicBlock",
     ["in_planes=64", "planes=128", "stride=2"], "x=f32[B,64,56,56]",
     ["--allow-tf32"]),
]
# Run-time checks that fail inside a kernel: (entry of lookups.py, inputs,
# the same inputs made valid). check_kernel_errors runs each through
# kiln.load (the C API), one loaded model for all: the bad inputs must fail with the message
# the CPU archive gives (taken at prepare time, first line: file, line,
# column and text), and then the valid ones must still run and match eager
# PyTorch, as the failed check left the CUDA context usable (a device-side
# assert would not). One bad index each, so that any thread's report is
# the CPU's.
KERNEL_ERRORS = [
    ("embed", {"ids": [[1, 9, 2]], "table": ("f32", [8, 4])},
     {"ids": [[1, 7, 2]]}),
    ("pick", {"x": ("f32", [3, 6]), "idx": [[0, 1], [2, -1], [5, 5]]},
     {"idx": [[0, 1], [2, 3], [5, 5]]}),
    ("rows", {"x": ("f32", [6, 3]), "idx": [0, 6, 2]}, {"idx": [0, 5, 2]}),
    ("buckets", {"x": [7, 8, 9, 10, 11], "width": [1, 1, -1, 2, 3]},
     {"width": [1, 1, 0, 2, 3]}),
]
# Large dims as well as the CPU test's small ones: a kernel then has many
# blocks, and a partial last block.
GPU_DIM_SETS = [{"B": 3, "N": 5}, {"B": 67, "N": 1000}]
# Row lengths for the kernels' own file beside those: a row tile's host
# launches one kernel for rows of up to 256 or 512 points (the register
# path, codegen/cuda/RowInRegisters.cpp) and another for longer rows. 5
# takes the first and 1000 the last; 300 takes the second, and 2000 the
# last again, each with a partial last round of the lanes.
KERNEL_ROW_DIM_SETS = [{"B": 5, "N": 300}, {"B": 9, "N": 2000}]
OPT_LEVELS = [0, 2]
# At -O2 the archives hold CPU code too, which a GPU machine leaves alone:
# a --target=cpu,cuda archive runs its CUDA code unless asked.
TARGETS = {0: "--target=cuda", 2: "--target=cpu,cuda"}
RUNTIME_LIBS = ["libdnnl.so.2", "libOpenCL.so.1", "libgomp.so.1", "libxxhash.so.0"]


def prepare(build_dir, out):
    sys.path.insert(0, os.path.join(HERE, "..", "Inputs"))
    import numpy as np
    import run_eager
    root = os.path.abspath(os.path.join(HERE, "..", ".."))
    for sub in ("archives", "inputs", "src", "bin"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    cases = []
    for rel, wanted in FILES.items():
        path = os.path.join(root, rel)
        stem = os.path.splitext(os.path.basename(rel))[0]
        shutil.copy(path, os.path.join(out, "src", stem + ".py"))
        _, _, source = run_eager.load_both(path)
        entries = [e for e in run_eager.find_entry_points(source)
                   if e[0] == "function" and (not wanted or e[1] in wanted)]
        for opt in OPT_LEVELS:
            archive = "archives/%s.O%d.kiln" % (stem, opt)
            cmd = [os.path.join(build_dir, "bin", "kiln"), "compile", path,
                   TARGETS[opt], "-O%d" % opt, "-o",
                   os.path.join(out, archive)]
            for _, name, _, _ in entries:
                cmd += ["--entry", name]
            subprocess.run(cmd, check=True)
            for _, name, spec, funcdef in entries:
                params = [a.arg for a in funcdef.args.args]
                dim_sets = (run_eager.DIM_SETS if rel in CPU_DIM_SETS_ONLY
                            else run_eager.DIM_SETS[:1] + GPU_DIM_SETS)
                if rel == "test/gpu/Inputs/kernels.py":
                    dim_sets = dim_sets + KERNEL_ROW_DIM_SETS
                for k, dims in enumerate(dim_sets):
                    args = run_eager.make_inputs(name, funcdef, spec, dims, k)
                    inputs = []
                    for param, value in zip(params, args):
                        if hasattr(value, "numpy"):
                            inputs.append([param, "npy",
                                           save_input(out, value.numpy())])
                        else:
                            inputs.append([param, "scalar", value])
                    # At -O2 also from inputs already on the GPU (CUDA
                    # tensors used in place, as an app passes them).
                    for device in ["cpu"] + (["cuda"] if opt == 2 else []):
                        case = {"file": stem, "entry": name, "opt": opt,
                                "dims": k, "archive": archive,
                                "device": device, "inputs": inputs}
                        if rel in KILN_CPU_REFERENCE:
                            case["reference"] = "archives/%s.O2.kiln" % stem
                        if rel in BIT_EXACT:
                            case["exact"] = (BIT_EXACT[rel] is None or
                                             name in BIT_EXACT[rel])
                        cases.append(case)
    for rel, cls in MODULES:
        cases += prepare_module(build_dir, out, root, rel, cls)
    for rel, cls in TF32_MODULES:
        cases += prepare_module(build_dir, out, root, rel, cls, tf32=True)
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1)
    prepare_kernel_errors(build_dir, out, root)
    prepare_tools(build_dir, out, root)
    print("prepared %d cases in %s" % (len(cases), out))


def prepare_bench(build_dir, out):
    """What bench/gpu_bench.py and probe_first_call.py need: the seed
    functions they time and BENCH_MODELS, compiled, with their sources."""
    root = os.path.abspath(os.path.join(HERE, "..", ".."))
    for sub in ("archives", "src", "bin"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    kiln = os.path.join(build_dir, "bin", "kiln")
    for stem, rel in BENCH_FUNCTIONS:
        path = os.path.join(root, rel)
        shutil.copy(path, os.path.join(out, "src"))
        subprocess.run([kiln, "compile", path, TARGETS[2], "-O2", "-o",
                        os.path.join(out, "archives", stem + ".O2.kiln")],
                       check=True)
    for name, rel, cls, init_args, spec, flags in BENCH_MODELS:
        shutil.copy(os.path.join(root, rel), os.path.join(out, "src"))
        subprocess.run([os.path.join(build_dir, "bin", "kiln"), "compile",
                        os.path.join(root, rel), "--entry", cls,
                        "--random-weights", "--arg", spec, "--target=cuda",
                        "-o", os.path.join(out, "archives", name + ".kiln")]
                       + ["--init-arg=" + a for a in init_args] + flags,
                       check=True)
    prepare_tools(build_dir, out, root)
    print("prepared the benchmark in %s" % out)


def prepare_tools(build_dir, out, root):
    """kiln-run, the runtime and the scripts, which both folders need."""
    shutil.copy(os.path.join(build_dir, "bin", "kiln-run"),
                os.path.join(out, "bin"))
    pack_libraries(build_dir, out)
    shutil.copy(os.path.abspath(__file__), out)
    # kiln.load, which check_kernel_errors runs the archives through.
    shutil.copytree(os.path.join(root, "python", "kiln"),
                    os.path.join(out, "python", "kiln"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    for helper in ("run_kiln.py", "run_eager.py"):
        shutil.copy(os.path.join(HERE, "..", "Inputs", helper), out)
    shutil.copy(os.path.join(root, "bench", "gpu_bench.py"), out)
    for script in ("run_on_gpu.sh", "probe_first_call.py",
                   "compare_archives.py"):
        shutil.copy(os.path.join(HERE, script), out)


def pack_libraries(build_dir, out):
    """The runtime, its CUDA plugin (which it opens from beside itself) and
    the libraries it links, as OUT/lib.tar.xz, which
    run_on_gpu.sh unpacks into OUT/lib: oneDNN alone is 40 MB, which xz
    makes 7 and so leaves room for the archives in the 64 MiB a GPU
    machine's session takes along."""
    import tarfile
    with tarfile.open(os.path.join(out, "lib.tar.xz"), "w:xz",
                      dereference=True) as tar:
        for own in ["libkiln_runtime.so.0", "libkiln_runtime_cuda.so.0"]:
            tar.add(os.path.join(build_dir, "lib", own), "lib/" + own)
        for lib in RUNTIME_LIBS:
            tar.add(os.path.join("/lib/x86_64-linux-gnu", lib), "lib/" + lib)


def kernel_error_inputs(out, inputs, fixes=None):
    """KERNEL_ERRORS' inputs as .npy files under OUT/inputs: a list is an
    i64 tensor, (dtype, shape) seeded random values; `fixes` replaces
    some."""
    import numpy as np
    gen = np.random.default_rng(0)
    files = {}
    for name, value in dict(inputs, **(fixes or {})).items():
        array = (np.array(value, np.int64) if isinstance(value, list) else
                 gen.uniform(-1, 1, value[1]).astype(np.float32))
        files[name] = save_input(out, array)
    return files


def prepare_kernel_errors(build_dir, out, root):
    """Compiles lookups.py for the CPU and takes each KERNEL_ERRORS case's
    message from it, for check_kernel_errors to expect on the GPU."""
    source = os.path.join(root, "test", "cuda", "Inputs", "lookups.py")
    kiln = os.path.join(build_dir, "bin", "kiln")
    cpu = os.path.join(out, "archives", "lookups.cpu.kiln")
    subprocess.run([kiln, "compile", source, "-o", cpu], check=True)
    cases = []
    for entry, bad, fixes in KERNEL_ERRORS:
        files = kernel_error_inputs(out, bad)
        proc = subprocess.run(
            [kiln, "run", cpu, "--entry", entry] +
            ["--input=%s=%s" % (n, os.path.join(out, f))
             for n, f in files.items()], capture_output=True, text=True)
        assert proc.returncode != 0, "%s runs on the CPU" % entry
        cases.append({"entry": entry, "bad": files,
                      "good": kernel_error_inputs(out, bad, fixes),
                      "message": proc.stderr.splitlines()[0]})
    os.remove(cpu)
    with open(os.path.join(out, "kernel_errors.json"), "w") as f:
        json.dump(cases, f, indent=1)


def save_input(out, array):
    """Writes `array` as .npy under a name made of its bytes, so that the
    many cases with equal inputs share one file (the folder must fit the
    64 MiB a GPU machine's session takes along)."""
    import hashlib
    import io
    import numpy as np
    data = io.BytesIO()
    np.save(data, array)
    file = "inputs/%s.npy" % hashlib.sha1(data.getvalue()).hexdigest()[:16]
    with open(os.path.join(out, file), "wb") as f:
        f.write(data.getvalue())
    return file


def prepare_module(build_dir, out, root, rel, cls, tf32=False):
    """Compiles the nn.Module `cls` of `rel` with run_model.py's weights,
    saved for kiln as safetensors and for the GPU side as .npz; with
    `tf32`, at -O2 with --allow-tf32 only."""
    import numpy as np
    import run_eager
    import run_model
    import save_state_dict
    save_state_dict.add_python_deps()
    path = os.path.join(root, rel)
    # Named with its folder: examples/models/rnn.py is not the seed's rnn.py.
    stem = "%s_%s" % (os.path.basename(os.path.dirname(rel)),
                      os.path.splitext(os.path.basename(rel))[0])
    shutil.copy(path, os.path.join(out, "src", stem + ".py"))
    namespace, source = run_model.load_eager(path)
    model = run_model.build_model(namespace, cls, {})
    # A file may hold several modules: each its own weights and archives.
    unit = "%s.%s" % (stem, cls)
    weights = os.path.join(out, "inputs", unit + ".safetensors")
    save_state_dict.save(model, weights)
    npz = "inputs/%s.weights.npz" % unit
    np.savez(os.path.join(out, npz),
             **{k: v.numpy() for k, v in model.state_dict().items()})
    cases = []
    for opt in [2] if tf32 else OPT_LEVELS:
        archive = "archives/%s.O%d%s.kiln" % (unit, opt,
                                             ".tf32" if tf32 else "")
        subprocess.run([os.path.join(build_dir, "bin", "kiln"), "compile",
                        path, "--entry", cls, "--weights", weights,
                        TARGETS[opt], "-O%d" % opt, "-o",
                        os.path.join(out, archive)] +
                       (["--allow-tf32"] if tf32 else []), check=True)
        for name, spec, funcdef in run_model.entry_methods(source, cls, path):
            params = [a.arg for a in funcdef.args.args if a.arg != "self"]
            for k, dims in enumerate(run_eager.DIM_SETS):
                args = run_eager.make_inputs(name, funcdef, spec, dims, k)
                inputs = []
                for param, value in zip(params, args):
                    inputs.append([param, "npy", save_input(out, value.numpy())])
                for device in ["cpu"] + (["cuda"] if opt == 2 else []):
                    cases.append({"file": stem, "entry": name, "opt": opt,
                                  "dims": k, "archive": archive,
                                  "device": device, "inputs": inputs,
                                  "module": cls, "weights": npz,
                                  "tf32": tf32})
    return cases


def load_eager(out, stem):
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        stem, os.path.join(out, "src", stem + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_module(out, namespace, case):
    """The case's nn.Module on the GPU, with the weights kiln compiled."""
    import numpy as np
    import torch
    model = getattr(namespace, case["module"])()
    state = np.load(os.path.join(out, case["weights"]))
    model.load_state_dict({k: torch.from_numpy(state[k]) for k in state.files})
    return model.cuda().eval()


def flatten(value):
    if isinstance(value, (tuple, list)):
        return [x for item in value for x in flatten(item)]
    return [value]


def kiln_run(out, archive, case, work, *flags):
    """kiln-run's command for `case` on `archive`, with its inputs, writing
    into `work`."""
    cmd = [os.path.join(out, "bin", "kiln-run"), os.path.join(out, archive),
           "--entry", case["entry"], "--output", work] + list(flags)
    for param, kind, value in case["inputs"]:
        cmd += ["--input", "%s=%s" % (param, os.path.join(out, value)
                                      if kind == "npy" else json.dumps(value))]
    return cmd


def check_random_case(out, case, work):
    """A KILN_CPU_REFERENCE case: its GPU run against the CPU code's."""
    import numpy as np
    import run_kiln
    runs = []
    for where, flags in [("gpu", ["--inputs-on", case["device"]]),
                         ("cpu", ["--device", "cpu"])]:
        folder = os.path.join(work, where)
        archive = case["archive"] if where == "gpu" else case["reference"]
        cmd = kiln_run(out, archive, case, folder, *flags)
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              env=runtime_env(out))
        if proc.returncode != 0:
            return "kiln-run (%s) failed: %s" % (where, proc.stderr.strip()), 0.0
        runs.append(np.load(os.path.join(folder, case["entry"] + ".result0.npy")))
    return run_kiln.compare([runs[1]], [runs[0]])


def check_case(out, case, module, work):
    """(problem or None, max diff) of `case` against its reference."""
    problem, diff = (check_random_case(out, case, work) if "reference" in case
                     else check_eager_case(out, case, module, work))
    if problem is None and case.get("exact") and diff != 0:
        problem = "not bit for bit (max diff %g)" % diff
    return problem, diff


def check_eager_case(out, case, module, work):
    import numpy as np
    import torch
    cmd = kiln_run(out, case["archive"], case, work,
                   "--inputs-on", case["device"])
    args = [torch.from_numpy(np.load(os.path.join(out, value))).cuda()
            if kind == "npy" else value
            for _, kind, value in case["inputs"]]
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env=runtime_env(out))
    if proc.returncode != 0:
        return "kiln-run failed: " + proc.stderr.strip(), 0.0
    import contextlib
    import io
    import run_kiln
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), torch.no_grad():
        expected = [e.cpu() if isinstance(e, torch.Tensor) else e
                    for e in flatten(getattr(module, case["entry"])(*args))]
    actual = [np.load(os.path.join(work, "%s.result%d.npy" % (case["entry"], i)))
              for i in range(len(expected))]
    # The CPU differential test's comparisons and tolerances; a tensor
    # printed on both sides says device='cuda:0'.
    kiln_prints, _ = run_kiln.split_output(proc.stdout)
    if not run_kiln.prints_match(printed.getvalue().splitlines(), kiln_prints):
        return ("printed %r, eager %r" % (kiln_prints[:4],
                                          printed.getvalue().splitlines()[:4]),
                0.0)
    return run_kiln.compare(expected, actual)


@functools.lru_cache(maxsize=None)
def runtime_env(out):
    """The environment kiln-run needs here: the runtime and the libraries it
    links (copied into OUT/lib), and cuDNN. A pip install of PyTorch brings
    its own cuDNN (site-packages/nvidia/*/lib), which is not on the
    loader's path; the runtime dlopens libcudnn.so.9 by name. Looked up once
    per run, not per case."""
    import glob
    import site
    dirs = [os.path.join(out, "lib")]
    for base in site.getsitepackages() + [site.getusersitepackages()]:
        for lib in glob.glob(os.path.join(base, "nvidia", "*", "lib",
                                          "libcudnn.so.9")):
            dirs.append(os.path.dirname(lib))
    return dict(os.environ, LD_LIBRARY_PATH=":".join(dirs))


def check_kernel_errors(out):
    """KERNEL_ERRORS on the GPU, through kiln.load (the C API over ctypes,
    python/kiln, copied along) with the runtime in OUT/lib."""
    os.environ["PYTORCH_JIT"] = "0"
    os.environ["KILN_RUNTIME_LIB"] = os.path.join(out, "lib",
                                                  "libkiln_runtime.so.0")
    sys.path.insert(0, os.path.join(out, "python"))
    import numpy as np
    import torch
    import kiln
    import run_kiln
    eager_like_kiln()
    lookups = load_eager(out, "lookups")
    with open(os.path.join(out, "kernel_errors.json")) as f:
        cases = json.load(f)
    ok = True
    for opt in OPT_LEVELS:
        model = kiln.load(os.path.join(out, "archives",
                                       "lookups.O%d.kiln" % opt))
        for case in cases:
            load = lambda files: [np.load(os.path.join(out, f))
                                  for f in files.values()]
            try:
                model.run(case["entry"], *load(case["bad"]))
                problem = "the bad inputs ran"
            except kiln.RunError as error:
                got = str(error).splitlines()[0]
                problem = (None if got == case["message"] else
                           "said %r, the CPU %r" % (got, case["message"]))
            if problem is None:
                good = load(case["good"])
                expected = getattr(lookups, case["entry"])(
                    *[torch.from_numpy(a).cuda() for a in good])
                actual = model.run(case["entry"], *good).numpy()
                problem, diff = run_kiln.compare([expected.cpu()], [actual])
            ok &= problem is None
            print("kernel check lookups.%s -O%d: %s" % (
                case["entry"], opt, "FAILED: " + problem if problem else
                "ok (%s; then valid inputs, max diff %.3g)" %
                (case["message"].split(": error: ")[1], diff)))
        model.close()
    return 0 if ok else 1


def eager_like_kiln(tf32=False):
    """Eager PyTorch computing as kiln does: f32 products and convolutions
    without TF32 (PyTorch's default allows it for cuDNN's convolutions), or
    with it, as an archive compiled with --allow-tf32."""
    import torch
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32


def check(out):
    import tempfile
    # Eager functions: the decorator becomes the identity.
    os.environ["PYTORCH_JIT"] = "0"
    import torch
    import run_kiln
    default_tolerance = (run_kiln.RTOL, run_kiln.ATOL)
    print("GPU: %s, PyTorch %s" % (torch.cuda.get_device_name(0),
                                   torch.__version__))
    with open(os.path.join(out, "cases.json")) as f:
        cases = json.load(f)
    modules = {}
    ok = True
    for case in cases:
        # A function file, or one nn.Module of a file.
        unit = case["file"] + ("." + case["module"] if "module" in case
                               else "")
        if unit not in modules:
            modules[unit] = load_eager(out, case["file"])
            if "module" in case:
                modules[unit] = build_module(out, modules[unit], case)
        tf32 = case.get("tf32", False)
        label = "%s.%s -O%d%s dims#%d inputs on %s" % (
            unit, case["entry"], case["opt"], " --allow-tf32" if tf32 else "",
            case["dims"], case["device"])
        eager_like_kiln(tf32)
        run_kiln.RTOL, run_kiln.ATOL = ((TF32_TOLERANCE, TF32_TOLERANCE)
                                        if tf32 else default_tolerance)
        with tempfile.TemporaryDirectory() as work:
            try:
                problem, diff = check_case(out, case, modules[unit], work)
            except Exception as exc:  # a crash is a failure, not an abort
                problem, diff = "error: %s" % exc, 0.0
        ok &= problem is None
        print("%s: %s" % (label, "FAILED: " + problem if problem
                          else "ok (max diff %.3g)" % diff))
        sys.stdout.flush()
    errors = subprocess.run([sys.executable, os.path.abspath(__file__),
                             "errors", out], env=runtime_env(out))
    ok &= errors.returncode == 0
    print("%s: %d runs" % ("all ok" if ok else "FAILED",
                           len(cases) + 2 * len(KERNEL_ERRORS)))
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "prepare":
        sys.exit(prepare(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 4 and sys.argv[1] == "prepare-bench":
        sys.exit(prepare_bench(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2]))
    if len(sys.argv) == 3 and sys.argv[1] == "errors":
        sys.exit(check_kernel_errors(sys.argv[2]))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
