#!/usr/bin/python3
"""Differential test of Optional[Tensor] entry inputs against eager PyTorch.

Usage: run_optional.py BIN_DIR test/e2e/Inputs/optional_inputs.py WORK_DIR

Compiles the script's @torch.jit.script functions into one archive, and each
of its modules, MaskedAttention and TwoLayers (weights from a seeded eager
instance, through safetensors), into another, at -O0 and at -O2. Each case then runs through
`kiln run` with the optional input given as a tensor, as `--input NAME=None`
and left out, on two sets of dim sizes, and the result is compared with the
eager function called with the same tensor or None.

Prints one line per run, then `all ok: N runs`; a mismatch prints FAILED
and the exit status is 1.
"""
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
import run_eager  # noqa: E402
import save_state_dict  # noqa: E402

# The compiled code sums in other orders than PyTorch (oneDNN's GEMM in the
# attention, vectorized reductions) and its exp is a polynomial, each good
# to a few f32 ulps; 1e-4 relative leaves a wide margin over that while any
# wrong branch (bias added or not, mask applied or not) is off by far more.
RTOL = 1e-4
ATOL = 1e-5


MODULES = ("MaskedAttention", "TwoLayers")


def load_eager(path):
    return run_eager.exec_eager(path, "optional_eager")[0]


def kiln(bin_dir, *args):
    return subprocess.run([os.path.join(bin_dir, "kiln")] + list(args),
                          capture_output=True, text=True)


def spell(value):
    """A scalar as `kiln run --input NAME=VALUE` takes it."""
    return "True" if value is True else "False" if value is False else repr(value)


def input_args(work, tag, named):
    """`--input` arguments for (name, value) pairs: a tensor is saved as
    WORK/TAG.NAME.npy, a scalar or str is spelled out."""
    args = []
    for name, value in named:
        if isinstance(value, torch.Tensor):
            path = os.path.join(work, "%s.%s.npy" % (tag, name))
            np.save(path, value.numpy())
            args += ["--input", name + "=" + path]
        else:
            args += ["--input", "%s=%s" % (
                name, value if isinstance(value, str) else spell(value))]
    return args


def result_problems(work, entry, wants, rtol, atol):
    """What differs between `kiln run --output WORK`'s ENTRY.NAME.npy files
    and `wants` ({NAME: eager tensor}): one line per result, none if all
    match."""
    problems = []
    for name, want in wants.items():
        got = np.load(os.path.join(work, "%s.%s.npy" % (entry, name)))
        want = want.numpy() if isinstance(want, torch.Tensor) else np.asarray(want)
        if got.shape != want.shape:
            problems.append("%s: shape %s vs %s" % (name, got.shape,
                                                    want.shape))
        elif not np.allclose(got, want, rtol=rtol, atol=atol):
            problems.append("%s: max diff %s" % (name,
                                                 np.abs(got - want).max()))
    return problems


class Tally:
    """Runs archives against eager and counts: one line per run, `ok: LABEL`
    or `FAILED: LABEL: why`, then `all ok: N runs` from exit_code()."""

    def __init__(self, bin_dir, work, rtol, atol):
        self.bin_dir, self.work = bin_dir, work
        self.rtol, self.atol = rtol, atol
        self.runs, self.failed = 0, False

    def compile(self, script, opt, archive, *extra):
        """Compiles `script`; False (after saying why) when it fails."""
        done = kiln(self.bin_dir, "compile", script, opt, "-o", archive,
                    *extra)
        if done.returncode != 0:
            print("FAILED: compile %s %s: %s" % (archive, opt, done.stderr))
        return done.returncode == 0

    def check(self, label, run_args, entry, expected):
        """`kiln run RUN_ARGS --output WORK`, compared with `expected()`, the
        eager results by name ({"result0": tensor})."""
        self.runs += 1
        done = kiln(self.bin_dir, "run", *run_args, "--output", self.work)
        problems = ([done.stderr.strip()] if done.returncode != 0 else
                    result_problems(self.work, entry, expected(), self.rtol,
                                    self.atol))
        self.failed |= bool(problems)
        print("FAILED: %s: %s" % (label, "; ".join(problems)) if problems
              else "ok: %s" % label)

    def exit_code(self):
        if self.failed:
            return 1
        print("all ok: %d runs" % self.runs)
        return 0


def causal_mask(t):
    return torch.tril(torch.ones(t, t))


def cases(ns):
    """(archive, entry, eager callable, [(name, tensor-or-None)]) for each
    dim set; a None input is tried both as =None and left out when it is
    last."""
    g = torch.Generator().manual_seed(0)

    def r(*shape):
        return torch.randn(*shape, generator=g)

    out = []
    for n, m in ((5, 3), (2, 7)):
        x, b = r(n), r(n)
        out.append(("fn", "add_bias", ns["add_bias"], [("x", x), ("b", b)]))
        out.append(("fn", "add_bias", ns["add_bias"], [("x", x), ("b", None)]))
        xm = r(n, m)
        for w in (r(m).abs() + 0.6, -r(m).abs(), None):
            out.append(("fn", "scale_or_default", ns["scale_or_default"],
                        [("x", xm), ("w", w)]))
        for shift in (r(n), None):
            out.append(("fn", "through_helper", ns["through_helper"],
                        [("x", x), ("shift", shift), ("other", r(n))]))
    for bsz, t in ((2, 5), (1, 3)):
        x = r(bsz, t, 8)
        for key in MODULES:
            for mask in (causal_mask(t), None):
                out.append((key, "forward", None, [("x", x), ("mask", mask)]))
    return out


def run_case(bin_dir, archive, entry, inputs, omit_none, work, tag):
    args = ["run", archive, "--entry", entry, "--output", work]
    for i, (name, value) in enumerate(inputs):
        if value is None:
            if not omit_none:
                args += ["--input", name + "=None"]
            continue
        path = os.path.join(work, "%s.%s.npy" % (tag, name))
        np.save(path, value.numpy())
        args += ["--input", name + "=" + path]
    done = kiln(bin_dir, *args)
    if done.returncode != 0:
        return None, done.stderr.strip()
    return np.load(os.path.join(work, entry + ".result0.npy")), ""


def main():
    bin_dir, script, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    ns = load_eager(script)
    save_state_dict.add_python_deps()
    modules, builds = {}, [("fn", [])]
    for key in MODULES:
        torch.manual_seed(0)
        modules[key] = ns[key]().eval()
        weights = os.path.join(work, key + ".safetensors")
        save_state_dict.save(modules[key], weights)
        builds.append((key, ["--entry", key, "--weights", weights]))

    runs, failed = 0, False
    for opt in ("-O0", "-O2"):
        archives = {key: os.path.join(work, "%s%s.kiln" % (key, opt))
                    for key, _ in builds}
        for key, extra in builds:
            done = kiln(bin_dir, "compile", script, opt, "-o", archives[key],
                        *extra)
            if done.returncode != 0:
                print("FAILED: compile %s %s: %s" % (key, opt, done.stderr))
                return 1
        for i, (key, entry, fn, inputs) in enumerate(cases(ns)):
            with torch.no_grad():
                call = modules.get(key, fn)
                expected = call(*[v for _, v in inputs]).numpy()
            has_none = any(v is None for _, v in inputs)
            # Left out only when nothing after it is given.
            may_omit = has_none and inputs[-1][1] is None
            for omit in ((False, True) if may_omit else (False,)):
                tag = "%s%d%s" % (opt, i, "o" if omit else "")
                actual, err = run_case(bin_dir, archives[key], entry, inputs,
                                       omit, work, tag)
                given = ", ".join(
                    "%s=%s" % (n, "tensor" if v is not None
                               else ("left out" if omit else "None"))
                    for n, v in inputs)
                name = entry if key == "fn" else key + "." + entry
                label = "%s %s(%s) %s" % (opt, name, given,
                                          "x".join(map(str, inputs[0][1].shape)))
                runs += 1
                failed |= not report(label, actual, expected, err)
    if failed:
        return 1
    print("all ok: %d runs" % runs)
    return 0


def report(label, actual, expected, err):
    """Prints the outcome of one run; True when kiln matched eager."""
    if actual is None:
        print("FAILED: %s: %s" % (label, err))
        return False
    if (actual.shape != expected.shape or
            not np.allclose(actual, expected, rtol=RTOL, atol=ATOL)):
        print("FAILED: %s: max difference %s" % (
            label, np.abs(actual - expected).max()
            if actual.shape == expected.shape else "(shape %s, "
            "expected %s)" % (actual.shape, expected.shape)))
        return False
    print("ok: " + label)
    return True


if __name__ == "__main__":
    sys.exit(main())
