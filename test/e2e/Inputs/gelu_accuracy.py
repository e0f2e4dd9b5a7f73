"""kiln's f32 GELU (codegen/cpu/FastErf.cpp's GeluPattern: erf's rational
function with 1/sqrt(2) and the halving folded into its coefficients)
against GELU in f64 on 800,001 points of [-8, 8] and the special values.

The bound: kiln's f32 erf is within 4.6e-7 of erf, and GELU is
x * (1 + erf(x / sqrt 2)) / 2, so its error is up to |x| * 2.3e-7 plus the
rounding of the f32 evaluation; 1e-6 + 3e-7 |x| holds that with room and is
what the test asserts. From +-4 sqrt(2) on (the clamp, and the specials
checked exactly) GELU is x or -0, as torch's is, exactly; -inf gives NaN,
as torch's f32 GELU does (-inf * 0).

Usage: gelu_accuracy.py BIN_DIR WORK_DIR
"""
import sys

import numpy as np
import torch

from unary_accuracy import kiln_unary

bin_dir, work = sys.argv[1], sys.argv[2]
clamp = np.float32(4 * np.sqrt(2))
past = np.nextafter(clamp, np.float32(np.inf))
specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 5.7, -5.7,
            100.0, -100.0, 1e30, -1e30, clamp, -clamp, past, -past]
x = np.concatenate([np.linspace(-8, 8, 800001, dtype=np.float32),
                    np.array(specials, dtype=np.float32)])
got = kiln_unary(bin_dir, work, "torch.nn.functional.gelu", x)
exact = torch.nn.functional.gelu(torch.from_numpy(x).double()).numpy()
torch32 = torch.nn.functional.gelu(torch.from_numpy(x)).numpy()
finite = np.isfinite(exact)
error = np.abs(got[finite] - exact[finite])
bound = 1e-6 + 3e-7 * np.abs(x[finite])
assert np.all(error <= bound), (float(np.max(error - bound)),
                                float(x[finite][np.argmax(error - bound)]))
tail = got[x.size - len(specials):]
want = torch32[x.size - len(specials):]
for value, g, w in zip(specials, tail, want):
    assert (np.isnan(g) and np.isnan(w)) or g == w, (value, g, w)
print("gelu ok: max abs error %.2e over %d points" % (float(np.max(error)),
                                                        x.size))
