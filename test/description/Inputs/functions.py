"""kiln.compile on functions: a @torch.jit.script function (its scripted
object, as `torch.jit.script` returns it), a plain top-level function that
calls a helper, and shapes from example inputs with a dynamic dim. Each
archive runs with `kiln run` against the eager function on the same input,
within 1e-5 of the output's largest magnitude (tanh and exp are kiln's
polynomial approximations). Prints `all ok: N runs`.

Usage: functions.py BIN_DIR WORK_DIR
"""
import os
import subprocess
import sys

import numpy as np
import torch

import kiln

TOL = 1e-5


def helper(x):
    return torch.tanh(x) * 2.0


def plain(x, y):
    return helper(x) + y.exp()


@torch.jit.script
def scripted(x: torch.Tensor) -> torch.Tensor:
    return torch.relu(x) - x.mean()


def run(bin_dir, work, archive, name, inputs):
    paths = []
    for i, t in enumerate(inputs):
        paths.append(os.path.join(work, "in%d.npy" % i))
        np.save(paths[-1], t.numpy())
    params = ["x", "y"][:len(inputs)]
    cmd = [os.path.join(bin_dir, "kiln"), "run", archive, "--entry", name,
           "--output", os.path.join(work, "out")]
    for p, path in zip(params, paths):
        cmd += ["--input", "%s=%s" % (p, path)]
    subprocess.run(cmd, check=True, capture_output=True)
    return torch.from_numpy(
        np.load(os.path.join(work, "out", name + ".result0.npy")))


def main():
    bin_dir, work = sys.argv[1:3]
    os.environ["KILN_BIN"] = os.path.join(bin_dir, "kiln")
    ok, runs = True, 0
    cases = [
        (plain, {"x": "f32[B,4]", "y": "f32[B,4]"}, None, "plain"),
        (scripted, None, torch.randn(3, 5), "scripted"),
    ]
    for fn, args, example, name in cases:
        archive = os.path.join(work, name + ".kiln")
        kiln.compile(fn, args=args, example_inputs=example,
                     dynamic={"x": {0: "B"}} if example is not None else None,
                     output=archive)
        for batch in (2, 6):
            inputs = [torch.randn(batch, 4 if fn is plain else 5)
                      for _ in range(2 if fn is plain else 1)]
            want = fn(*inputs)
            got = run(bin_dir, work, archive, name, inputs)
            err = (got - want).abs().max().item() / want.abs().max().item()
            good = got.shape == want.shape and err <= TOL
            print("%s B=%d: %s (max diff %.2e)" % (name, batch,
                                                   "ok" if good else "FAILED",
                                                   err))
            ok &= good
            runs += 1
    try:
        kiln.compile(lambda x: x, args={"x": "f32[2]"}, output="never.kiln")
        print("FAILED: a lambda compiled")
        ok = False
    except TypeError as e:
        print("lambda refused: %s" % str(e).split(",")[0])
    print("%s: %d runs" % ("all ok" if ok else "FAILED", runs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
