#!/usr/bin/python3
"""Differential test of defaulted scalar entry inputs against eager PyTorch.

Usage: run_defaults.py BIN_DIR test/e2e/Inputs/entry_defaults.py WORK_DIR

Compiles the script's @torch.jit.script functions into one archive, its
Scale module into another, and its `activation` once more for each other
value of its str parameter (`--arg activation.mode=str:gelu`), at -O0 and
at -O2. Each case runs through `kiln
run` with its scalar inputs left out (so the manifest's defaults apply) and
with them given (an Optional one also as `=None`), on two sets of dim
sizes, and is compared with the eager function called the same way
(defaults left to Python).

Prints one line per run, then `all ok: N runs`; a mismatch prints FAILED
and the exit status is 1.
"""
import os
import sys

import torch

# The eager loader and the kiln runner of the Optional-input test.
from run_optional import Tally, input_args, load_eager  # noqa: E402

# rsqrt and exp are polynomials in the compiled code, good to a few f32
# ulps, and reductions sum in other orders; a wrong scalar (a default not
# applied) is off by far more.
RTOL = 1e-4
ATOL = 1e-6


def cases():
    """(archive, entry, eager name, tensor inputs, scalar inputs given)."""
    g = torch.Generator().manual_seed(0)

    def r(*shape):
        return torch.randn(*shape, generator=g) * 3

    out = []
    for b, c, h in ((2, 5, 3), (3, 4, 6)):
        x2, x3 = r(b, c), r(b, c, h)
        for given in ({}, {"inplace": True}):
            out.append(("fn", "swish", [("x", x2)], given))
        for given in ({}, {"eps": 0.5}, {"eps": 2}):
            out.append(("fn", "pixel_norm", [("x", x3)], given))
        for given in ({}, {"temperature": 4.0}, {"temperature": 0.5, "steps": 3}):
            out.append(("fn", "softmax_t", [("logits", x2)], given))
        for given in ({}, {"gamma": 2.5}, {"negate": True}):
            out.append(("Scale", "forward", [("x", x2)], given))
        q, k = r(b, c, 8), r(b, c, 8)
        for given in ({}, {"scale": 0.25}, {"cap": 1}, {"softmax": None},
                      {"softmax": False, "scale": None, "cap": 2}):
            out.append(("fn", "attention_scores", [("q", q), ("k", k)],
                        given))
        # A str is compiled for: the "fn" archive has the default, the
        # others were compiled with --arg activation.mode=str:...
        out.append(("fn", "activation", [("x", x2)], {}))
        for mode in ("gelu", "tanh"):
            out.append((mode, "activation", [("x", x2)], {"mode": mode}))
        h = r(b, c, 8)
        for given in ({}, {"temperature": 2.0}):
            out.append(("fn", "classifier_outputs", [("hidden", h)], given))
    return out


def main():
    bin_dir, script, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    ns = load_eager(script)
    builds = [("fn", []), ("Scale", ["--entry", "Scale"])] + [
        (mode, ["--entry", "activation", "--arg",
                "activation.mode=str:" + mode]) for mode in ("gelu", "tanh")]
    tally = Tally(bin_dir, work, RTOL, ATOL)
    for opt in ("-O0", "-O2"):
        archives = {}
        for key, extra in builds:
            archives[key] = os.path.join(work, "%s%s.kiln" % (key, opt))
            if not tally.compile(script, opt, archives[key], *extra):
                return 1
        for i, (key, entry, tensors, given) in enumerate(cases()):
            args = [archives[key], "--entry", entry]
            # A str is compiled for (its archive), never given at run time.
            args += input_args(work, str(i), tensors + [
                (n, v) for n, v in given.items() if not isinstance(v, str)])
            label = "%s %s%s(%s)" % (opt, key + "." if key == "Scale" else "",
                                     entry, ", ".join(
                                         "%s=%s" % kv for kv in given.items()))
            label += " " + "x".join(str(d) for d in tensors[0][1].shape)

            def expected():
                fn = ns["Scale"]().forward if key == "Scale" else ns[entry]
                want = fn(*[t.clone() for _, t in tensors], **given)
                # A dict's values are saved by key: ENTRY.KEY.npy.
                return want if isinstance(want, dict) else {"result0": want}
            tally.check(label, args, entry, expected)
    return tally.exit_code()


if __name__ == "__main__":
    sys.exit(main())
