# Tensor argument shapes come from `# kiln:` comments or --arg; symbolic
# dims are `?` in the type and keep their names in `kiln.dims`.
# RUN: kiln compile %s --emit=ir | FileCheck %s --check-prefix=COMMENT
# RUN: kiln compile %s --emit=ir --arg x=f64[2,K] | FileCheck %s --check-prefix=FLAG
# RUN: not kiln compile %s --entry nospec 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: kiln compile %s --entry nospec --arg y=i64[] | FileCheck %s --check-prefix=SCALAR0D
import torch

# COMMENT: func.func @f(%arg0: tensor<?x784xf32> {kiln.dims = ["B", "784"], kiln.name = "x"}, %arg1: i64 {kiln.name = "n"})
# FLAG: func.func @f(%arg0: tensor<2x?xf64> {kiln.dims = ["2", "K"], kiln.name = "x"}, %arg1: i64 {kiln.name = "n"})
# kiln: x=f32[B,784]
@torch.jit.script
def f(x, n: int):
    return x * n


# A missing spec is an error that says how to give one.
# MISSING: arg-specs.py:[[@LINE+3]]:12: error: no shape for tensor argument 'y' of 'nospec'; pass --arg y=f32[N] or write '# kiln: y=f32[N]' on the line above the def
# MISSING-NEXT: def nospec(y):
# MISSING-NEXT:            ^
def nospec(y):
    return y + 1

# SCALAR0D: func.func @nospec(%arg0: tensor<i64> {kiln.dims = [], kiln.name = "y"}) -> tensor<i64>
