#!/usr/bin/python3
"""Differential tests generated from kiln's op table (frontend/OpTable.cpp).

Usage: gen_op_tests.py BIN_DIR [ROW_NAME ...]

Reads `kiln ops --json` and writes ONE Python file with one
@torch.jit.script function per (row, spelling, sample), each with the
sample's `# kiln:` spec:

    torch.X(x, ARGS)   x.X(ARGS)   F.X(x, ARGS)   z = x.clone(); z.X_(ARGS)
    torch.tensor(math.X(x.item(), ARGS))
    torch.X(ARGS)      (a row whose first parameter is not a Tensor:
                        torch.zeros(x.size(0), 3), torch.cat([x, y]))

A (spelling, sample) that eager PyTorch or TorchScript itself rejects (an
in-place op whose result cannot be stored into an int receiver, say) is
reported as `skipped` and left out, so the file holds real TorchScript only.
The file is compiled into one archive at -O0 and at -O2; every function runs
with `kiln run` (run_kiln.py's helpers) on run_eager.py's seeded inputs drawn
from the sample's value range, the dynamic dims taking one assignment at -O0
and the other at -O2, and is compared with eager PyTorch.

Rows whose values eager PyTorch does not fix (the catalog's `random`: rand,
randn, empty, ...) are compared by shape and dtype, and their values by what
the row promises (RANDOM_BOUNDS below).

Tolerances: run_kiln.py's RTOL=1e-4, ATOL=1e-5 unless a row states its own.
kiln's exp, tanh, erf and log are polynomial approximations accurate to a few
f32 ulp (codegen/cpu/ExpandMath.cpp), and the composite rows (log1p, expm1,
softplus, tan, ...) chain two or three of them, so a relative error of a few
1e-6 is expected; 1e-4 leaves margin without hiding a wrong formula, which
shows as errors of 1e-2 or more. ATOL covers results that cross zero (sin
near pi, erfc = 1 - erf near 3), where a relative bound means nothing.

Prints one line per function and opt level, the largest difference per row,
and `all ok: N runs (S skipped)` at the end, or FAILED; exits 1 on failure.
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
import run_eager  # noqa: E402
import run_kiln  # noqa: E402

HEADER = '''import math
import torch
import torch.nn.functional as F
from torch import Tensor

'''


def spec_names(inputs):
    return list(run_eager.parse_spec_text(inputs).keys())


def call_text(row, spelling, sample, k=0):
    """(statements, result expression) computing one spelling on a sample.

    Results that are not one tensor become tensors: a Python number is
    wrapped in torch.tensor(), and a tuple of tensors ("(Tensor, Tensor)")
    is spread into the function's result tuple."""
    stmts, result = tensor_call_text(row, spelling, sample, k)
    returns = row["returns"]
    kind = spelling.rpartition(".")[0]
    if kind != "math" and returns in ("int", "float", "bool", "Scalar"):
        return stmts, "torch.tensor(%s)" % result
    if returns.startswith("(") or returns == "Tensor[]":
        t = "t%d" % k
        n = (len(returns.split(",")) if returns.startswith("(")
             else piece_count(spelling, sample, result))
        return stmts + ["%s = %s" % (t, result)], ", ".join(
            "%s[%d]" % (t, i) for i in range(n))
    return stmts, result


def piece_count(spelling, sample, call):
    """How many tensors a Tensor[] row (split, chunk) returns on a sample:
    eager PyTorch's count on the first dims assignment. Samples keep the
    count the same under both assignments."""
    import math  # noqa: F401 (the call may name it)
    import torch.nn.functional as F  # noqa: F401
    env = {"torch": torch, "F": F, "math": math}
    for name, (dtype, shape) in run_eager.parse_spec_text(
            sample["inputs"]).items():
        sizes = [d if isinstance(d, int) else
                 run_eager.DIM_SETS[0].get(d, run_eager.DEFAULT_DIM[0])
                 for d in shape]
        env[name] = torch.zeros(sizes, dtype=run_eager.DTYPES[dtype])
    try:
        return len(eval(call, env))
    except Exception:  # noqa: BLE001 (torch refuses it; the check skips it)
        return 1


def first_param_is_tensor(row):
    """Whether the schema's first parameter is a Tensor. Rows whose first
    parameter is not (torch.zeros' int[] size, torch.cat's Tensor[],
    einsum's str) take every argument from the sample's args, which may
    name the sample's inputs: `x.size(0), 3`, `[x, y]`."""
    schema = row["schema"]
    first = schema[schema.index("(") + 1:].split(",")[0].split(")")[0]
    return first.strip().rpartition(" ")[0] in ("Tensor", "Tensor?")


def tensor_call_text(row, spelling, sample, k):
    args = sample["args"]
    names = spec_names(sample["inputs"])
    first = names[0]
    rest = (", " + args) if args else ""
    kind, _, name = spelling.rpartition(".")
    if kind == "math":
        call = "%s(%s.item()%s)" % (spelling, first, rest)
        dtype = ", dtype=torch.float64" if row["returns"] == "float" else ""
        return [], "torch.tensor(%s%s)" % (call, dtype)
    if kind in ("torch", "F") and not first_param_is_tensor(row):
        return [], "%s(%s)" % (spelling, args)
    if kind in ("torch", "F"):
        return [], "%s(%s%s)" % (spelling, first, rest)
    # Tensor methods: the receiver is the parameter named self, which
    # where() puts second.
    positional = [a.strip() for a in args.split(",")] if args else []
    receiver = first
    if row["params"][0] != "self":
        receiver = positional.pop(0) if len(positional) else first
        positional.insert(0, first)
    arg_text = ", ".join(positional)
    if name.endswith("_"):
        z = "z%d" % k
        return ["%s = %s.clone()" % (z, receiver),
                "%s.%s(%s)" % (z, name, arg_text)], z
    return [], "%s.%s(%s)" % (receiver, name, arg_text)


def function_text(fn, sample, calls):
    """One script function returning the results of `calls`, a list of
    (statements, result) pairs, as a tuple."""
    lines = ["# kiln: %s" % sample["inputs"], "@torch.jit.script",
             "def %s(%s):" % (fn, ", ".join(spec_names(sample["inputs"])))]
    results = []
    for stmts, result in calls:
        lines += ["    " + st for st in stmts]
        results.append(result)
    lines.append("    return (%s,)" % ", ".join(results))
    return "\n".join(lines) + "\n\n\n"


def generate(rows):
    """The per-spelling check file: (source, [(fn, row, spelling, sample
    index)])."""
    chunks, functions = [HEADER], []
    for row in rows:
        for spelling in row["spellings"]:
            for k, sample in enumerate(row["samples"]):
                fn = "c%d_%s" % (len(functions), row["name"])
                chunks.append(function_text(
                    fn, sample, [call_text(row, spelling, sample)]))
                functions.append((fn, row, spelling, k))
    return "".join(chunks), functions


def grouped(rows, accepted):
    """The compiled file: one function per (row, sample) with one output
    per spelling TorchScript and eager accept, so the archive has a few
    hundred entry points rather than one per spelling.
    Returns (source, [(fn, row, sample, spellings)])."""
    chunks, entries = [HEADER], []
    for r, row in enumerate(rows):
        for k, sample in enumerate(row["samples"]):
            spellings = [s for s in row["spellings"]
                         if (row["name"], s, k) in accepted]
            if not spellings:
                continue
            fn = "%s__%d_%d" % (row["name"], r, k)
            calls = [call_text(row, s, sample, i) for i, s in enumerate(spellings)]
            chunks.append(function_text(fn, sample, calls))
            entries.append((fn, row, sample, spellings))
    return "".join(chunks), entries


def accepted_by_torch(path, functions, work):
    """The functions eager PyTorch and TorchScript both run; others skipped.

    The file is imported once with @torch.jit.script replaced by a wrapper
    that scripts each function and records a refusal instead of raising."""
    import importlib.util
    source = open(path).read()
    check = os.path.join(work, "ops_check.py")
    with open(check, "w") as f:
        f.write(source.replace("@torch.jit.script", "@_try_script"))
    refused = {}

    def try_script(fn):
        try:
            torch.jit.script(fn)
        except Exception as exc:  # noqa: BLE001 (any TorchScript refusal)
            refused[fn.__name__] = str(exc).strip().splitlines()[0][:100]
        return fn

    spec = importlib.util.spec_from_file_location("kiln_ops_check", check)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["kiln_ops_check"] = mod
    mod.__dict__["_try_script"] = try_script
    spec.loader.exec_module(mod)
    tree = run_eager.ast.parse(source)
    defs = {n.name: n for n in tree.body if isinstance(n, run_eager.ast.FunctionDef)}
    kept, skipped = [], []
    for fn, row, spelling, k in functions:
        sample = row["samples"][k]
        if fn in refused:
            skipped.append((row["name"], spelling, k, refused[fn]))
            continue
        spec_ = run_eager.parse_spec_text(sample["inputs"])
        run_eager.VALUE_RANGE[fn] = (sample["lo"], sample["hi"])
        try:
            args = run_eager.make_inputs(fn, defs[fn], spec_,
                                         run_eager.DIM_SETS[0], 0)
            with torch.no_grad():
                getattr(mod, fn)(*[a.clone() for a in args])
        except Exception as exc:  # noqa: BLE001 (an eager refusal)
            skipped.append((row["name"], spelling, k,
                            str(exc).strip().splitlines()[0][:100]))
            continue
        kept.append((row["name"], spelling, k))
    return kept, skipped


def eager_case(opt, entry):
    """The inputs and eager outputs of one entry at -O`opt`'s dim set. Run
    on the main thread only: eager_run swaps sys.stdout to capture prints,
    and two threads doing that at once can leave it swapped for good."""
    fn, row, sample, eager, funcdef, spec = entry
    run_eager.VALUE_RANGE[fn] = (sample["lo"], sample["hi"])
    k = 0 if opt == 0 else 1
    args = run_eager.make_inputs(fn, funcdef, spec, run_eager.DIM_SETS[k], k)
    try:
        return args, run_kiln.eager_run(eager, args)[0], None
    except Exception as exc:  # noqa: BLE001
        return args, None, "error: eager: %s" % exc


def run_one(bin_dir, archive, opt, entry, case, work):
    fn, row, sample, eager, funcdef, spec = entry
    args, expected, problem = case
    label = "%s -O%d" % (fn, opt)
    if problem:
        return label, row["name"], problem, 0.0
    sub = os.path.join(work, "O%d-%s" % (opt, fn))
    os.makedirs(sub)
    params = [a.arg for a in funcdef.args.args]
    try:
        actual, _ = run_kiln.kiln_run(bin_dir, archive, fn, params, args, sub)
        rtol, atol = row["rtol"] or RTOL, row["atol"] or ATOL
        if row["random"]:
            problem, diff = compare_random(row["random"], expected, actual)
        else:
            problem, diff = compare(expected, actual, rtol, atol)
    except Exception as exc:  # noqa: BLE001
        problem, diff = "error: %s" % exc, 0.0
    return label, row["name"], problem, diff


def load_entries(path, entries):
    """Eager functions of the grouped file, with their defs and specs."""
    _, eager_ns, source = run_eager.load_both(path)
    tree = run_eager.ast.parse(source)
    defs = {n.name: n for n in tree.body
            if isinstance(n, run_eager.ast.FunctionDef)}
    return [(fn, row, sample, eager_ns[fn], defs[fn],
             run_eager.parse_spec_text(sample["inputs"]))
            for fn, row, sample, _ in entries]


# run_kiln's defaults; compare() sets its module's tolerances per row.
RTOL, ATOL = run_kiln.RTOL, run_kiln.ATOL

# What a row's `random` promises of its values: [lo, hi), only finite
# (None), or nothing (False: empty is zero-filled in kiln, any value in
# eager). The op table's notes say so in the documentation.
RANDOM_BOUNDS = {"uniform": (0.0, 1.0), "normal": None, "any": False}


def compare_random(kind, expected, actual):
    import numpy as np
    shapes = [np.zeros_like(run_kiln.to_numpy(e)) for e in expected]
    problem, _ = compare(shapes, [np.zeros_like(a) for a in actual], 0, 0)
    if problem:
        return problem, 0.0
    bounds = RANDOM_BOUNDS[kind]
    for i, a in enumerate(actual):
        if bounds is False or a.size == 0:
            continue
        if not np.all(np.isfinite(a)):
            return "output %d has values that are not finite" % i, 0.0
        if bounds and not np.all((a >= bounds[0]) & (a < bounds[1])):
            return "output %d has values outside [%g, %g)" % (
                i, bounds[0], bounds[1]), 0.0
    return None, 0.0


def compare(expected, actual, rtol, atol):
    # run_kiln.compare reads its module's tolerances; calls run in threads,
    # so compare under a lock.
    with compare.lock:
        run_kiln.RTOL, run_kiln.ATOL = rtol, atol
        return run_kiln.compare(expected, actual)


compare.lock = __import__("threading").Lock()


def main():
    if len(sys.argv) < 2:
        print("usage: gen_op_tests.py BIN_DIR [ROW ...]", file=sys.stderr)
        return 2
    bin_dir, wanted = sys.argv[1], sys.argv[2:]
    kiln = os.path.join(bin_dir, "kiln")
    rows = json.loads(subprocess.run([kiln, "ops", "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    rows = [r for r in rows if not wanted or r["name"] in wanted]
    ok, runs, max_diff = True, 0, {}
    with tempfile.TemporaryDirectory(prefix="kiln-ops-") as work:
        path = os.path.join(work, "ops.py")
        source, functions = generate(rows)
        with open(path, "w") as f:
            f.write(source)
        kept, skipped = accepted_by_torch(path, functions, work)
        for name, spelling, k, why in skipped:
            print("%s sample %d: skipped (torch refuses it: %s)" % (spelling, k, why))
        source, entries = grouped(rows, set(kept))
        path = os.path.join(work, "ops_grouped.py")
        with open(path, "w") as f:
            f.write(source)
        kept = load_entries(path, entries)
        for opt in (0, 2):
            archive = os.path.join(work, "O%d.kiln" % opt)
            cmd = [kiln, "compile", path, "-O%d" % opt, "-o", archive]
            for entry in kept:
                cmd += ["--entry", entry[0]]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                print("-O%d: error: kiln compile failed: %s" % (opt, proc.stderr.strip()))
                ok = False
                continue
            cases = [eager_case(opt, e) for e in kept]
            with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
                results = list(pool.map(
                    lambda ec: run_one(bin_dir, archive, opt, ec[0], ec[1], work),
                    zip(kept, cases)))
            for label, name, problem, diff in results:
                runs += 1
                max_diff[name] = max(max_diff.get(name, 0.0), diff)
                if problem:
                    ok = False
                    print("%s: FAILED: %s" % (label, problem))
                else:
                    print("%s: ok (max diff %.3g)" % (label, diff))
    for name in sorted(max_diff):
        print("max diff %s: %.3g" % (name, max_diff[name]))
    print("%s: %d runs (%d skipped)" % ("all ok" if ok else "FAILED", runs,
                                        len(skipped)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
