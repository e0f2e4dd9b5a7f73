#!/usr/bin/python3
"""Differential test of kiln.load against eager PyTorch.

Usage: load_check.py BIN_DIR WORK_DIR

Compiles load_functions.py with `kiln compile` and load_net.py's Net (a
live instance, batch dim B) with kiln.compile, each at -O0 and -O2; loads
every archive with kiln.load and calls its entry points as Python would
(positional and keyword inputs, None and left-out defaults, a list for a
List[Tensor], a str for a str choice, numpy arrays, a non-contiguous
tensor) on two sets of sizes. Each result must be a torch tensor (a tuple
of them, or a dict for a returned dict) with eager's dtype and shape and
values within RTOL/ATOL, the tolerance of test/Inputs/run_kiln.py: kiln's
exp, tanh and erf are polynomial approximations, a few ulps from libm's.
Prints one line per call and `all ok: N runs`.
"""
import os
import subprocess
import sys

import numpy as np
import torch

RTOL = 1e-4
ATOL = 1e-5
HERE = os.path.dirname(os.path.abspath(__file__))


def eager_functions():
    """load_functions.py run as plain Python: torch.jit.script is the
    identity while it is imported."""
    real = torch.jit.script
    torch.jit.script = lambda fn, *a, **k: fn
    try:
        sys.path.insert(0, HERE)
        import load_functions
    finally:
        torch.jit.script = real
    return load_functions


def calls(f, n, b):
    """(label, entry, args, kwargs, eager result) for sizes n and b."""
    x, y = torch.randn(n, 4), torch.randn(n, 4)
    mask = torch.randn(b, 7)
    logits = torch.randn(b, 7)
    xs = [torch.randn(n, 3), torch.randn(n, 5)]
    wide = torch.randn(6, b).t()  # not contiguous
    hidden = torch.randn(b, 5, 8)
    ids = torch.arange(n)
    return [
        ("blend", (x, y), {}, f.blend(x, y)),
        ("blend", (x.numpy(),), {"y": y.numpy()}, f.blend(x, y)),
        ("masked_softmax", (logits,), {}, f.masked_softmax(logits)),
        ("masked_softmax", (logits, None, 0.5), {},
         f.masked_softmax(logits, None, 0.5)),
        ("masked_softmax", (logits,), {"mask": mask, "temperature": 2},
         f.masked_softmax(logits, mask, 2.0)),
        ("concat", (xs,), {}, f.concat(xs)),
        ("concat", (tuple(xs),), {}, f.concat(xs)),
        ("activation", (wide,), {}, f.activation(wide)),
        ("activation", (wide, "gelu"), {}, f.activation(wide, "gelu")),
        ("activation", (wide,), {"mode": "tanh"}, f.activation(wide, "tanh")),
        ("heads", (hidden,), {}, f.heads(hidden)),
        ("shift", (ids,), {}, f.shift(ids)),
        ("shift", (ids.numpy(), 5), {}, f.shift(ids, 5)),
        ("pick", (x[:, 1], -1), {}, f.pick(x[:, 1], -1)),
    ]


def same(actual, expected):
    """Why `actual` differs from `expected`, or None."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict) or actual.keys() != expected.keys():
            return "got %r, expected a dict of %s" % (type(actual),
                                                      list(expected))
        pairs = [(actual[k], expected[k]) for k in expected]
    elif isinstance(expected, tuple):
        if not isinstance(actual, tuple) or len(actual) != len(expected):
            return "got %r, expected a tuple of %d" % (type(actual),
                                                       len(expected))
        pairs = list(zip(actual, expected))
    else:
        pairs = [(actual, expected)]
    for a, e in pairs:
        if not isinstance(a, torch.Tensor):
            return "got %r, not a torch tensor" % type(a)
        if a.dtype != e.dtype or a.shape != e.shape:
            return "got %s%s, expected %s%s" % (a.dtype, list(a.shape),
                                                e.dtype, list(e.shape))
        if not np.allclose(a.numpy(), e.detach().numpy(), rtol=RTOL,
                           atol=ATOL):
            return "max diff %.3g" % (a - e).abs().max().item()
    return None


def check(label, fn, args, kwargs, expected):
    problem = same(fn(*args, **kwargs), expected)
    print("%s: %s" % (label, "FAILED: " + problem if problem else "ok"))
    return problem is None


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    os.environ["KILN_BIN"] = os.path.join(bin_dir, "kiln")
    import kiln
    f = eager_functions()
    from load_net import Net
    torch.manual_seed(0)
    net = Net(16).eval()
    ok, runs = True, 0
    for opt in (0, 2):
        path = os.path.join(work, "functions-O%d.kiln" % opt)
        subprocess.run([os.environ["KILN_BIN"], "compile",
                        os.path.join(HERE, "load_functions.py"),
                        "-O%d" % opt, "-o", path], check=True)
        net_path = kiln.compile(net, args={"x": "f32[B,6]"},
                                output=os.path.join(work, "net-O%d.kiln" % opt),
                                opt=opt)
        with kiln.load(path) as model, kiln.load(net_path) as compiled:
            for n, b in ((3, 2), (6, 5)):
                seen = {}
                for name, args, kwargs, expected in calls(f, n, b):
                    runs += 1
                    seen[name] = seen.get(name, 0) + 1
                    ok &= check("-O%d %s#%d n=%d b=%d" % (
                        opt, name, seen[name], n, b), model[name], args,
                        kwargs, expected)
                x = torch.randn(b, 6)
                with torch.no_grad():
                    expected = net(x)
                runs += 1
                ok &= check("-O%d Net.forward b=%d" % (opt, b),
                            compiled.forward, (x,), {}, expected)
    print("%s: %d runs" % ("all ok" if ok else "FAILED", runs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
