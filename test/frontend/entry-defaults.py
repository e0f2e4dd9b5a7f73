# Defaults of scalar entry parameters: the frontend records each on its
# argument as `kiln.default` (the manifest's "default"); the code takes the
# parameter like any other, since the runtime passes the default for an
# omitted input. Each function is one case, compiled alone with --entry.
import torch
from torch import Tensor


# An int, a float (an int literal widened, a negative one) and a bool.
# RUN: kiln compile %s --emit=ir --entry scale 2>&1 | FileCheck %s --check-prefix=SCALE
# SCALE: func.func @scale(%arg0: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "x"}, %arg1: i64 {kiln.default = 2 : i64, kiln.name = "k"}, %arg2: f64 {kiln.default = 1.000000e-05 : f64, kiln.name = "eps"}, %arg3: i1 {kiln.default = false, kiln.name = "flag"}, %arg4: f64 {kiln.default = -1.000000e+00 : f64, kiln.name = "neg"}, %arg5: f64 {kiln.default = 3.000000e+00 : f64, kiln.name = "three"}) -> tensor<?xf32> attributes {kiln.entry}
# kiln: x=f32[N]
def scale(x: Tensor, k: int = 2, eps: float = 1e-5, flag: bool = False,
          neg: float = -1.0, three: float = 3) -> Tensor:
    y = x * k + eps
    if flag:
        y = y * neg
    return y * three


# A module's forward takes defaults the same way.
# RUN: kiln compile %s --emit=ir --entry Scaled 2>&1 | FileCheck %s --check-prefix=MODULE
# MODULE: func.func @forward(%arg0: tensor<2x3xf32> {kiln.dims = ["2", "3"], kiln.name = "x"}, %arg1: f64 {kiln.default = 5.000000e-01 : f64, kiln.name = "alpha"}) -> tensor<2x3xf32> attributes {kiln.entry}
class Scaled(torch.nn.Module):
    # kiln: x=f32[2,3]
    def forward(self, x: Tensor, alpha: float = 0.5) -> Tensor:
        return x * alpha
