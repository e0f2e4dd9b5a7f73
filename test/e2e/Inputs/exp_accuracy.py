"""kiln's f32 exp (codegen/cpu/FastExp.cpp) against exp in f64, rounded, on
2,000,001 points of [-104, 90] and the special values.

Where exp is a normal f32 above 2^-125, kiln must be within 1.5 ulp of the
exact value (the fit is within 2e-9 relative; its evaluation in f32 adds
about one ulp; PyTorch's own exp is within one). Below 2^-125 it flushes
to 0, an absolute error under 2.4e-38; past ln(FLT_MAX) it is inf; exp(0)
is exactly 1; NaN stays NaN.

Usage: exp_accuracy.py BIN_DIR WORK_DIR
"""
import sys

import numpy as np

from unary_accuracy import kiln_unary

bin_dir, work = sys.argv[1], sys.argv[2]
specials = {0.0: 1.0, -0.0: 1.0, np.inf: np.inf, -np.inf: 0.0,
            88.7229: np.inf, 89.0: np.inf, 1000.0: np.inf, -1000.0: 0.0,
            -88.0: 0.0}
x = np.concatenate([np.linspace(-104, 90, 2000001, dtype=np.float32),
                    np.array(list(specials) + [np.nan], dtype=np.float32)])
got = kiln_unary(bin_dir, work, "torch.exp", x).astype(np.float64)
with np.errstate(over="ignore"):
    exact = np.exp(x.astype(np.float64))
normal = (exact >= 2.0 ** -125) & (exact <= np.finfo(np.float32).max)
ulp = np.spacing(exact[normal].astype(np.float32)).astype(np.float64)
worst_ulp = float(np.max(np.abs(got[normal] - exact[normal]) / ulp))
assert worst_ulp <= 1.5, worst_ulp
tiny = exact < 2.0 ** -125
worst_tiny = float(np.max(np.abs(got[tiny] - exact[tiny])))
assert worst_tiny < 2.4e-38, worst_tiny
for value, expected in specials.items():
    index = list(x).index(np.float32(value))
    assert got[index] == expected, (value, got[index])
assert np.isnan(got[-1])
print("exp ok: max error %.2f ulp over %d points, %.1e below 2^-125"
      % (worst_ulp, int(normal.sum()), worst_tiny))
