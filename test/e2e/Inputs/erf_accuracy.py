"""kiln's f32 erf (codegen/cpu/FastErf.cpp) against torch.erf on 400,001
points of [-6, 6] and the special values: within 5e-7 absolute (the fit's
4.3e-7 bound plus the rounding of its evaluation in f32), inside [-1, 1],
odd, and exact at 0, +-inf and NaN.

Usage: erf_accuracy.py BIN_DIR WORK_DIR
"""
import sys

import numpy as np
import torch

from unary_accuracy import kiln_unary

bin_dir, work = sys.argv[1], sys.argv[2]
specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-20, 1e-40, 4.0,
            -4.0, 3.9999, 100.0]
x = np.concatenate([np.linspace(-6, 6, 400001, dtype=np.float32),
                    np.array(specials, dtype=np.float32)])
got = kiln_unary(bin_dir, work, "torch.erf", x)
want = torch.erf(torch.from_numpy(x)).numpy()
finite = np.isfinite(want)
worst = float(np.max(np.abs(got[finite] - want[finite])))
assert worst <= 5e-7, worst
assert np.nanmax(np.abs(got)) <= 1.0
assert np.array_equal(got[:200001], -got[400000:199999:-1]), "not odd"
assert np.isnan(got[x.size - len(specials) + 4])
for value, expected in [(0.0, 0.0), (np.inf, 1.0), (-np.inf, -1.0)]:
    assert got[list(x).index(value)] == expected, value
print("erf ok: max abs error %.2e over %d points" % (worst, x.size))
