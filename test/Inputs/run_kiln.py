#!/usr/bin/python3
"""Differential test: kiln-compiled code against eager PyTorch.

Usage: run_kiln.py BIN_DIR FILE.py [ENTRY ...]

For the example file, at -O0 and at -O2, this script
  * compiles every @torch.jit.script entry point into ONE archive with
    `kiln compile FILE -O<n> -o ...`;
  * for each of the two dim assignments in run_eager.DIM_SETS, builds the
    same seeded inputs as run_eager.py, writes them as .npy, runs
    `kiln run ARCHIVE --entry NAME --input x=x.npy ... --output DIR`, and
    runs the eager Python function on the same inputs;
  * checks that every output has the same dtype and shape, and values
    within RTOL/ATOL (kiln's tanh/exp are polynomial approximations, so the
    tolerance is looser than eager-vs-TorchScript), and that the lines the
    script print()s are the same text, numbers equal to PRINT_TOL.

It prints one line per entry point, opt level and dim set:
    NAME -O2 dims#1: ok (max diff D, P printed lines)
and `all ok: N runs` at the end; anything else (FAILED, error) is a failure
and the exit status is 1.
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_eager  # noqa: E402  (same inputs, same entry-point discovery)

RTOL = 1e-4
ATOL = 1e-5
PRINT_TOL = 2e-4
OPT_LEVELS = [0, 2]
NUMBER = re.compile(r"-?\d+\.?\d*(?:e[+-]?\d+)?")


def to_numpy(value):
    if isinstance(value, torch.Tensor):
        return value.detach().numpy()
    return np.asarray(value)


def prints_match(expected, actual):
    if len(expected) != len(actual):
        return False
    for e, a in zip(expected, actual):
        if NUMBER.sub("#", e) != NUMBER.sub("#", a):
            return False
        for x, y in zip(NUMBER.findall(e), NUMBER.findall(a)):
            if abs(float(x) - float(y)) > PRINT_TOL * max(1.0, abs(float(x))):
                return False
    return True


def eager_run(fn, args):
    """Runs fn, returning (outputs as a list, printed lines)."""
    import contextlib
    import io
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), torch.no_grad():
        out = fn(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args])
    return run_eager.flatten(out), buffer.getvalue().splitlines()


def split_output(stdout):
    """Separates `kiln run`'s result summaries from the script's own prints.

    A summary starts with `resultN: DTYPE [SHAPE]`, then the tensor as
    PyTorch prints it: on the same line when it fits on one, else from the
    next line on; it ends where its parentheses balance. Returns (printed
    lines, number of results)."""
    printed, count, depth, pending = [], 0, 0, False
    for line in stdout.splitlines():
        if depth > 0 or pending:
            depth += line.count("(") - line.count(")")
            pending = False
        elif re.match(r"result\d+: ", line):
            count += 1
            depth = line.count("(") - line.count(")")
            pending = "(" not in line
        else:
            printed.append(line)
    return printed, count


def kiln_run(bin_dir, archive, name, params, args, work):
    cmd = [os.path.join(bin_dir, "kiln"), "run", archive, "--entry", name,
           "--output", work]
    for param, value in zip(params, args):
        path = os.path.join(work, "%s.npy" % param)
        np.save(path, to_numpy(value))
        cmd += ["--input", "%s=%s" % (param, path)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("kiln run failed (%d): %s" % (proc.returncode,
                                                        proc.stderr.strip()))
    printed, count = split_output(proc.stdout)
    outputs = [np.load(os.path.join(work, "%s.result%d.npy" % (name, i)))
               for i in range(count)]
    return outputs, printed


def compare(expected, actual):
    """Returns (problem or None, max diff)."""
    if len(expected) != len(actual):
        return "%d outputs, expected %d" % (len(actual), len(expected)), 0.0
    max_diff = 0.0
    for i, (e, a) in enumerate(zip(expected, actual)):
        e = to_numpy(e)
        if e.dtype != a.dtype or e.shape != a.shape:
            return "output %d is %s%s, expected %s%s" % (
                i, a.dtype, list(a.shape), e.dtype, list(e.shape)), max_diff
        if e.size == 0:
            continue
        if np.issubdtype(e.dtype, np.floating):
            diff = np.abs(e.astype(np.float64) - a.astype(np.float64))
            max_diff = max(max_diff, float(np.nanmax(diff)) if diff.size else 0.0)
            if not np.allclose(a, e, rtol=RTOL, atol=ATOL, equal_nan=True):
                return "output %d differs (max diff %g)" % (i, max_diff), max_diff
        elif not np.array_equal(e, a):
            return "output %d differs" % i, max_diff
    return None, max_diff


def check_run(label, make_inputs, eager_fn, bin_dir, archive, name, params,
              work):
    """Runs eager_fn and the archive's entry `name` on make_inputs(), prints
    one line saying how they compare, and returns whether they agree."""
    try:
        args = make_inputs()
        expected, expected_prints = eager_run(eager_fn, args)
        actual, actual_prints = kiln_run(bin_dir, archive, name, params, args,
                                         work)
        problem, diff = compare(expected, actual)
        if problem is None and not prints_match(expected_prints, actual_prints):
            problem = "printed %r, expected %r" % (actual_prints, expected_prints)
        if problem:
            print("%s: FAILED: %s" % (label, problem))
        else:
            print("%s: ok (max diff %.3g, %d printed lines)" % (
                label, diff, len(expected_prints)))
    except Exception as exc:
        problem = "error"
        print("%s: error: %s" % (label, exc))
    sys.stdout.flush()
    return problem is None


def main():
    if len(sys.argv) < 3:
        print("usage: run_kiln.py BIN_DIR FILE.py [ENTRY ...]", file=sys.stderr)
        return 2
    bin_dir, path, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
    _, eager_ns, source = run_eager.load_both(path)
    entries = [e for e in run_eager.find_entry_points(source)
               if e[0] == "function" and (not wanted or e[1] in wanted)]
    ok, runs = True, 0
    with tempfile.TemporaryDirectory(prefix="kiln-e2e-") as work:
        for opt in OPT_LEVELS:
            archive = os.path.join(work, "O%d.kiln" % opt)
            compile_cmd = [os.path.join(bin_dir, "kiln"), "compile", path,
                           "-O%d" % opt, "-o", archive]
            for _, name, _, _ in entries:
                compile_cmd += ["--entry", name]
            proc = subprocess.run(compile_cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                print("-O%d: error: kiln compile failed: %s" % (opt, proc.stderr.strip()))
                ok = False
                continue
            for _, name, spec, funcdef in entries:
                params = [a.arg for a in funcdef.args.args]
                for k, dims in enumerate(run_eager.DIM_SETS):
                    runs += 1
                    label = "%s -O%d dims#%d" % (name, opt, k)
                    ok &= check_run(
                        label, lambda: run_eager.make_inputs(name, funcdef, spec, dims, k),
                        eager_ns[name], bin_dir, archive, name, params, work)
    print("%s: %d runs" % ("all ok" if ok else "FAILED", runs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
