# Issue 19, item 1: a condition known while compiling lowers only the branch
# taken; the dead branch is parsed but never type-checked or lowered, and a
# method no entry point reaches is never lowered.
import torch
import torch.nn as nn
from torch import Tensor

# RUN: kiln compile %s --emit=ir --entry ranks 2>&1 | FileCheck %s --check-prefix=RANKS --implicit-check-not=error:
# RANKS-LABEL: func.func @ranks(
# RANKS-NOT: scf.if
# RANKS-NOT: kiln.tanh
# RANKS-NOT: kiln.sigmoid
# RANKS: kiln.exp
# RANKS-NOT: kiln.tanh
# RANKS: return
# kiln: x=f32[4,6]
@torch.jit.script
def ranks(x: Tensor) -> Tensor:
    # Rank 4 only: flatten(2) is out of range for this rank-2 input.
    if x.dim() == 4:
        return x.flatten(2).tanh()
    if len(x.shape) != 2 or x.dtype in (torch.float16, torch.bfloat16) or x.dtype is torch.double:
        x = x.sigmoid()
    elif torch.jit.is_scripting() and not torch.jit.is_tracing():
        x = x.exp()
    return x if x.is_floating_point() else x.tanh()


# An early return in a folded branch: after it, `x` is rebound to another
# rank, which the code after the if never sees.
# RUN: kiln compile %s --emit=ir --entry early 2>&1 | FileCheck %s --check-prefix=EARLY --implicit-check-not=error:
# EARLY-LABEL: func.func @early(
# EARLY-NOT: scf.if
# EARLY: kiln.tanh {{.*}}tensor<2x12xf32>
# EARLY-NOT: kiln.sigmoid
# EARLY: return
# kiln: x=f32[2,3,4]
@torch.jit.script
def early(x: Tensor) -> Tensor:
    if x.ndim == 3:
        x = x.flatten(1)
        return torch.tanh(x)
    x = x.unsqueeze(0)
    return x.sigmoid().sum(0)


# Module options: `self.stride == 1`, `self.flatten`, `self.inplace` in a
# conditional expression, `self.downsample is not None` and `self.training`
# (False: kiln compiles in eval mode). The dead sides would not type-check.
# An f-string in extra_repr and an unsupported construct in a method that
# nothing calls do not stop the class compiling.
# RUN: kiln compile %s --emit=ir --entry Options --random-weights=0 2>&1 | FileCheck %s --check-prefix=OPTS --implicit-check-not=error:
# OPTS-LABEL: func.func @forward(
# OPTS-NOT: scf.if
# OPTS-NOT: kiln.relu
# OPTS: call @prelude_flatten({{.*}}) : {{.*}} -> tensor<2x3x20xf32>
# OPTS: kiln.mul
# OPTS-NOT: kiln.relu
# OPTS: return {{.*}} : tensor<2x3x20xf32>
# OPTS: func.func private @prelude_flatten
# OPTS: kiln.reshape {{.*}} -> tensor<2x3x20xf32>
# OPTS-NOT: func.func @extra_repr
# OPTS-NOT: func.func @unused
class Options(nn.Module):
    def __init__(self):
        super().__init__()
        self.stride = 2
        self.flatten = True
        self.inplace = False
        self.downsample = None

    def extra_repr(self) -> str:
        return f"stride={self.stride}, flatten={self.flatten!r}"

    def unused(self, x: Tensor) -> Tensor:
        return {y for y in x if y > undefined_name}

    # kiln: x=f32[2,3,4,5]
    def forward(self, x: Tensor) -> Tensor:
        if self.stride == 1:
            x = x + x.sum()
        else:
            x = x * 2.0
        if self.flatten:
            y = x.flatten(2)
        else:
            y = x
        y = y.relu_() if self.inplace else y * y
        if self.downsample is not None:
            y = self.downsample(y)
        if self.training:
            y = y.relu()
        return y


# A method that uses Python outside kiln's subset is reported when an entry
# point reaches it, at the construct, with a note at the method.
# RUN: not kiln compile %s --emit=ir --entry Reached --random-weights=0 2>&1 | FileCheck %s --check-prefix=REACHED --strict-whitespace --implicit-check-not='{{error|note}}:'
# REACHED: {{^.*}}dead-branches.py:[[@LINE-23]]:16: error: set display is not supported{{$}}
# REACHED: {{^.*}}dead-branches.py:[[@LINE-25]]:9: note: in 'unused', which is compiled because an entry point calls it{{$}}
class Reached(Options):
    # kiln: x=f32[2,3,4,5]
    def forward(self, x: Tensor) -> Tensor:
        return self.unused(x)


# A branch that is live (its condition is a run-time value) must still
# join: the error names both sides and both lines.
# RUN: not kiln compile %s --emit=ir --entry live_expr 2>&1 | FileCheck %s --check-prefix=LIVEEXPR --strict-whitespace --implicit-check-not='{{error|note}}:'
# LIVEEXPR: {{^.*}}dead-branches.py:[[@LINE+6]]:9: error: the value of this expression is a Tensor[f32, 3x4] in the true branch and a Tensor[f32, 4] in the false branch{{$}}
# LIVEEXPR: {{^.*}}dead-branches.py:[[@LINE+5]]:9: note: the value of this expression is a Tensor[f32, 3x4] here{{$}}
# LIVEEXPR: {{^.*}}dead-branches.py:[[@LINE+4]]:31: note: the value of this expression is a Tensor[f32, 4] here{{$}}
# kiln: x=f32[3,4]
@torch.jit.script
def live_expr(x: Tensor) -> Tensor:
    y = x if x.sum() > 0 else x.sum(0)
    return y


# RUN: not kiln compile %s --emit=ir --entry live_if 2>&1 | FileCheck %s --check-prefix=LIVEIF --strict-whitespace --implicit-check-not='{{error|note}}:'
# LIVEIF: {{^.*}}dead-branches.py:[[@LINE+6]]:5: error: 'z' is a Tensor[f32, 3] in the true branch and a Tensor[f32, 3x4] in the false branch{{$}}
# LIVEIF: {{^.*}}dead-branches.py:[[@LINE+6]]:9: note: 'z' is a Tensor[f32, 3] here{{$}}
# LIVEIF: {{^.*}}dead-branches.py:[[@LINE+8]]:9: note: 'z' is a Tensor[f32, 3x4] here{{$}}
# kiln: x=f32[3,4]
@torch.jit.script
def live_if(x: Tensor) -> Tensor:
    if x.max() > 1:
        z = x.sum(1)
    else:
        # the other side
        z = x
    return z
