#!/usr/bin/python3
"""Differential test of str entry parameters chosen at run time.

Usage: run_str_choices.py BIN_DIR test/e2e/Inputs/str_choices.py WORK_DIR

Compiles the script's @torch.jit.script functions, whose `# kiln:` specs
list each str parameter's values (`activation=str:relu|gelu`), into one
archive at -O0 and at -O2. Each case runs through `kiln run` once per value,
given as `--input activation=gelu`, and once with the str left out (its
default), on two sets of dim sizes; the result is compared with the eager
function called with the same string.

Prints one line per run, then `all ok: N runs`; a mismatch prints FAILED
and the exit status is 1.
"""
import os
import sys

import torch

from run_optional import Tally, input_args, load_eager  # noqa: E402

# linear goes through oneDNN's GEMM and gelu's erf is a polynomial, each
# good to a few f32 ulps, and sums run in other orders; the wrong function
# for a value (relu for gelu, mean for sum) is off by far more.
RTOL = 1e-4
ATOL = 1e-5


def cases():
    """(entry, tensor inputs, str parameter, values; None = left out)."""
    g = torch.Generator().manual_seed(0)

    def r(*shape):
        return torch.randn(*shape, generator=g)

    out = []
    for b, d in ((3, 4), (1, 6)):
        out.append(("feed_forward", [("x", r(b, d)), ("w1", r(2 * d, d)),
                                     ("w2", r(d, 2 * d))],
                    "activation", ("relu", "gelu", None)))
        out.append(("smooth_l1", [("input", r(b, d)), ("target", r(b, d))],
                    "reduction", ("mean", "sum", None)))
        out.append(("pad_1d", [("x", r(b, d + 3))], "mode",
                    ("constant", "reflect", "replicate", None)))
    return out


def main():
    bin_dir, script, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    ns = load_eager(script)
    tally = Tally(bin_dir, work, RTOL, ATOL)
    for opt in ("-O0", "-O2"):
        archive = os.path.join(work, "fn%s.kiln" % opt)
        if not tally.compile(script, opt, archive):
            return 1
        for i, (entry, tensors, param, values) in enumerate(cases()):
            args = [archive, "--entry", entry]
            args += input_args(work, str(i), tensors)
            for value in values:
                given = [] if value is None else ["--input",
                                                  "%s=%s" % (param, value)]
                label = "%s %s(%s=%s) %s" % (
                    opt, entry, param, value or "left out",
                    "x".join(str(d) for d in tensors[0][1].shape))
                kwargs = {} if value is None else {param: value}

                def expected():
                    with torch.no_grad():
                        return {"result0": ns[entry](
                            *[t for _, t in tensors], **kwargs)}
                tally.check(label, args + given, entry, expected)
    return tally.exit_code()


if __name__ == "__main__":
    sys.exit(main())
