#!/usr/bin/python3
"""Differential test of Optional[Tensor] inputs passed to prelude ops.

Usage: run_optional_prelude.py BIN_DIR optional_prelude.py WORK_DIR

Compiles the script's functions into one archive at -O0 and at -O2 and runs
each with its optional inputs given as tensors and as None, on two sets of
dim sizes, through `kiln run`, comparing with the eager function called
with the same tensors or None (run_optional.py's helpers and tolerance:
the norms and the loss sum in other orders than PyTorch, a few f32 ulps,
while a wrong branch, a weight applied or not, is off by far more).

Prints one line per run, then `all ok: N runs`; a mismatch prints FAILED
and the exit status is 1.
"""
import itertools
import os
import sys

import torch

import run_optional as ro


def cases(ns):
    g = torch.Generator().manual_seed(0)

    def r(*shape):
        return torch.randn(*shape, generator=g)

    out = []
    for n, m in ((3, 5), (1, 2)):
        x = r(n, 4, m)
        for w, b in itertools.product((r(4), None), (r(4), None)):
            out.append(("group_norm", [("x", x), ("w", w), ("b", b)]))
        x = r(n, 3, m)
        for w in (r(3), None):
            out.append(("instance_norm", [("x", x), ("w", w)]))
        x, t = r(n, 5), torch.randint(0, 5, (n,), generator=g)
        for w in (r(5).abs() + 0.1, None):
            out.append(("cross_entropy", [("x", x), ("t", t), ("w", w)]))
    return out


def main():
    bin_dir, script, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    ns = ro.load_eager(script)
    runs, failed = 0, False
    for opt in ("-O0", "-O2"):
        archive = os.path.join(work, "prelude%s.kiln" % opt)
        done = ro.kiln(bin_dir, "compile", script, opt, "-o", archive)
        if done.returncode != 0:
            print("FAILED: compile %s: %s" % (opt, done.stderr))
            return 1
        for i, (entry, inputs) in enumerate(cases(ns)):
            expected = ns[entry](*[v for _, v in inputs]).numpy()
            tag = "%s%d" % (opt, i)
            actual, err = ro.run_case(bin_dir, archive, entry, inputs, False,
                                      work, tag)
            given = ", ".join("%s=%s" % (n, "None" if v is None else "tensor")
                              for n, v in inputs[1:])
            label = "%s %s(%s) %s" % (opt, entry, given,
                                      "x".join(map(str, inputs[0][1].shape)))
            runs += 1
            failed |= not ro.report(label, actual, expected, err)
    if failed:
        return 1
    print("all ok: %d runs" % runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
