#!/usr/bin/python3
"""Differential test of List and Tuple entry inputs against eager PyTorch.

Usage: run_structured.py BIN_DIR test/e2e/Inputs/structured_inputs.py WORK_DIR

Compiles the script's @torch.jit.script functions into one archive at -O0
and at -O2. Each case runs through `kiln run` with every element of a list
or tuple parameter given as an input of its own (`--input box_cls.0=...`,
`--input box.2=5`; a parameter with a default also left out), on two
sets of dim sizes, and each result
(`result0`, `result1`, ...: the eager result's tensors and scalars in
order, nested lists and tuples flattened) is compared with the eager
function called with the lists and tuples themselves.

Prints one line per run, then `all ok: N runs`; a mismatch prints FAILED
and the exit status is 1.
"""
import os
import sys

import numpy as np
import torch

from run_optional import Tally, input_args, load_eager  # noqa: E402

# mm goes through oneDNN's GEMM and the compiled sigmoid and tanh are
# polynomials, each good to a few f32 ulps; an element taken from the wrong
# input or a wrong scalar is off by far more. Copies and slices are exact.
RTOL = 1e-4
ATOL = 1e-5


def leaves(name, value):
    """(input name, tensor or scalar) for each element, as kiln names them."""
    if isinstance(value, (list, tuple)):
        out = []
        for i, v in enumerate(value):
            out += leaves("%s.%d" % (name, i), v)
        return out
    return [(name, value)]


def results(value):
    """The eager result's tensors and scalars in order, as numpy arrays."""
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            out += results(v)
        return out
    if isinstance(value, torch.Tensor):
        return [value.numpy()]
    return [np.array(value)]


def cases():
    """(entry, [(parameter, value)]) for each dim set."""
    g = torch.Generator().manual_seed(0)

    def r(*shape):
        return torch.randn(*shape, generator=g)

    out = []
    for n, b, hidden, inp in ((2, 3, 5, 4), (1, 2, 3, 6)):
        out.append(("concat_box_prediction_layers", [
            ("box_cls", [r(n, 3, 8, 8), r(n, 3, 4, 4)]),
            ("box_regression", [r(n, 12, 8, 8), r(n, 12, 4, 4)])]))
        gates = 4 * hidden
        out.append(("lstm_cell", [
            ("input", r(b, inp)), ("state", (r(b, hidden), r(b, hidden))),
            ("weight_ih", r(gates, inp)), ("weight_hh", r(gates, hidden)),
            ("bias_ih", r(gates)), ("bias_hh", r(gates))]))
        img = r(3, 6 + n, 7 + b)
        for box in ([1, 2, 3, 4], [0, 0, 6 + n, 7 + b], [2, 1, 0, 3]):
            out.append(("crop", [("img", img), ("box", box)]))
        out.append(("affine", [("x", r(inp)), ("ab", (0.5 * n, -b))]))
        out.append(("mixed", [("pair", (r(hidden), 1.5 + n)),
                              ("feats", [r(2, hidden), r(3, hidden),
                                         r(1, hidden)])]))
        # None: the parameter is left out, its elements take its default.
        x = r(b, hidden)
        for ab, bounds in ((None, None), ((0.5, 1.0), None),
                           (None, (0, 1)), ((-1.0, 0.25), (-2, 3))):
            out.append(("scale_clamp", [("x", x), ("ab", ab),
                                        ("bounds", bounds)]))
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
        for i, (entry, params) in enumerate(cases()):
            args = [archive, "--entry", entry]
            args += input_args(work, str(i), [
                leaf for name, value in params if value is not None
                for leaf in leaves(name, value)])
            label = "%s %s %s" % (opt, entry, "x".join(
                str(d) for d in leaves(*params[0])[0][1].shape))
            if entry in ("crop", "scale_clamp"):
                label += " " + ", ".join(
                    "%s=%s" % (n, "left out" if v is None else v)
                    for n, v in params[1:])

            def expected():
                with torch.no_grad():
                    want = ns[entry](**{n: v for n, v in params
                                        if v is not None})
                return {"result%d" % k: v for k, v in enumerate(results(want))}
            tally.check(label, args, entry, expected)
    return tally.exit_code()


if __name__ == "__main__":
    sys.exit(main())
