#!/usr/bin/python3
"""Checks kiln's f16/bf16 conversions bit for bit against PyTorch.

Usage: check_half_conversions.py KILN ARCHIVE WORKDIR

ARCHIVE is half_conversions.py compiled by KILN (for any --target-cpu).
The inputs are every f16 and every bf16 bit pattern, and f32/f64 values at
and around every rounding boundary: subnormals, the largest finite values,
halfway cases between neighbours (ties to even), overflow to infinity,
signed zeros, infinities and NaN, plus random bit patterns. Results must
have PyTorch's bits exactly, except that any NaN matches any NaN.
Prints "ok: N values" per output, or FAILED with the first mismatches.
"""
import os
import subprocess
import sys

import numpy as np
import torch


def boundary_f32():
    rng = np.random.default_rng(0)
    values = [0.0, -0.0, np.inf, -np.inf, np.nan, 65504.0, 65519.99, 65520.0,
              65536.0, 1e30, -1e30, 2.0 ** -14, 2.0 ** -24, 2.0 ** -25,
              1.5 * 2.0 ** -25, 2.0 ** -26, 3.0e38, 1.0, 1.0 + 2.0 ** -11,
              1.0 + 3 * 2.0 ** -11, 1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -8]
    # Every f16 and bf16 value, and the midpoints between neighbours (ties)
    # and a hair either side of them.
    half = np.arange(65536, dtype=np.uint16).view(np.float16).astype(np.float32)
    brain = (np.arange(65536, dtype=np.uint32) << 16).view(np.float32)
    for grid in (half, brain):
        finite = np.unique(grid[np.isfinite(grid)])
        mid = ((finite[:-1].astype(np.float64) + finite[1:]) / 2).astype(np.float32)
        values += [finite, mid, np.nextafter(mid, np.float32(np.inf)),
                   np.nextafter(mid, np.float32(-np.inf))]
    values.append(rng.integers(0, 2 ** 32, 20000, dtype=np.uint64)
                  .astype(np.uint32).view(np.float32))
    return np.concatenate([np.atleast_1d(np.asarray(v, np.float32)) for v in values])


def same_bits(expected, actual):
    e = np.asarray(expected)
    a = np.asarray(actual)
    if e.dtype != a.dtype or e.shape != a.shape:
        return np.zeros(1, bool), "dtype/shape %s%s vs %s%s" % (e.dtype, e.shape, a.dtype, a.shape)
    ints = {2: np.uint16, 4: np.uint32, 8: np.uint64}[e.dtype.itemsize]
    nan = np.isnan(e.astype(np.float64)) & np.isnan(a.astype(np.float64))
    ok = (e.view(ints) == a.view(ints)) | nan
    return ok, ""


def main():
    kiln, archive, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    x = boundary_f32()
    d = x.astype(np.float64)  # NaN stays NaN
    # A few doubles whose rounding to f32 first changes the f16 result.
    d = np.concatenate([d, 1.0 + 2.0 ** -11 + np.array([2.0 ** -40, -2.0 ** -40])])
    x = np.concatenate([x, x[:2]])
    h = np.arange(65536, dtype=np.uint16).view(np.float16)
    # Every bf16 value, as the f32 it equals.
    bf = (np.arange(65536, dtype=np.uint32) << 16).view(np.float32)
    g = np.flip(h).copy()
    inputs = {"x": x, "d": d, "h": h, "bf": bf, "g": g}
    for name, value in inputs.items():
        np.save(os.path.join(work, name + ".npy"), value)

    tx, td, th, tg = (torch.from_numpy(v) for v in (x, d, h, g))
    b = torch.from_numpy(bf).bfloat16()
    expected = {
        "convert": [tx.half(), tx.bfloat16().float(), td.half(),
                    td.bfloat16().float(), th.float(), th.double(), b.float(),
                    b.double(), th.bfloat16().float(), b.half()],
        # PyTorch computes f16 elementwise ops in f32 and rounds each result.
        "half_arith": [th + tg, th * tg, th / tg,
                       th.float().exp().half(), th.float().sqrt().half()],
    }
    args = {"convert": ["x", "d", "h", "bf"], "half_arith": ["h", "g"]}
    failed = False
    for entry, outputs in expected.items():
        out = os.path.join(work, entry)
        os.makedirs(out, exist_ok=True)
        cmd = [kiln, "run", archive, "--entry", entry, "--output", out]
        for name in args[entry]:
            cmd += ["--input", "%s=%s" % (name, os.path.join(work, name + ".npy"))]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        for i, want in enumerate(outputs):
            got = np.load(os.path.join(out, "%s.result%d.npy" % (entry, i)))
            want = want.numpy()
            # exp and sqrt are polynomial approximations in f32; rounded to
            # f16 they may differ from PyTorch's libm in the last bit.
            approx = entry == "half_arith" and i >= 3
            if approx:
                w = want.astype(np.float64)
                a = got.astype(np.float64)
                ok = np.isclose(a, w, rtol=2 ** -10, atol=0, equal_nan=True)
                why = ""
            else:
                ok, why = same_bits(want, got)
            label = "%s result%d" % (entry, i)
            if why or not ok.all():
                failed = True
                bad = np.flatnonzero(~ok)[:5]
                print("FAILED: %s %s %s" % (label, why, [
                    (tuple(inputs[n].flat[min(k, inputs[n].size - 1)] for n in args[entry]),
                     want.flat[k], got.flat[k]) for k in bad]))
            else:
                print("ok: %s, %d values%s" % (label, ok.size,
                                               " (within 1 f16 ulp)" if approx else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
