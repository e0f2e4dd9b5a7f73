# Golden IR: torch.ops.aten.X, the spelling kiln.trace writes for what
# torch.jit.trace records. This proves, on --emit=ir:
# - torch.X's own row wins, with ATen's argument order where it differs
#   from F.X's (batch_norm's weight and bias come before the running
#   statistics: the rsqrt is of the 5th argument, running_var);
# - an in-place op rebinds its first argument, as Tensor.add_ does;
# - F.X with inplace=True is ATen's X_, and rebinds its first argument too;
# - a bare int for an int[] is refused: ATen reads it as a dtype;
# - the Tensor method (view, with self first) and F.X (linear) serve the
#   ops Python's torch module lacks;
# - torch.ops.prim.NumToTensor makes a 0-d tensor of a size, and int()
#   reads it back;
# - getattr(self, "0") is a submodule, and a Sequential's forward may call
#   another Sequential's (per-instance recursion check).
#
# RUN: kiln compile %s --emit=ir --entry aten_batch_norm | FileCheck %s --check-prefix=BN
# RUN: kiln compile %s --emit=ir --entry in_place | FileCheck %s --check-prefix=INPLACE
# RUN: kiln compile %s --emit=ir --entry fallbacks | FileCheck %s --check-prefix=FALLBACK
# RUN: kiln compile %s --emit=ir --entry Outer | FileCheck %s --check-prefix=GETATTR
# RUN: kiln compile %s --emit=ir --entry Outer | kiln-opt | kiln-opt | FileCheck %s --check-prefix=GETATTR
# RUN: kiln compile %s --emit=ir --entry functional_in_place | FileCheck %s --check-prefix=FINPLACE
# RUN: not kiln compile %s --emit=ir --entry view_dtype 2>&1 | FileCheck %s --check-prefix=VIEWDTYPE --strict-whitespace
# RUN: not kiln compile %s --emit=ir --entry unknown 2>&1 | FileCheck %s --check-prefix=UNKNOWN --strict-whitespace
# RUN: not kiln compile %s --emit=ir --entry BadGetattr 2>&1 | FileCheck %s --check-prefix=BADGETATTR --strict-whitespace
import torch
from torch import Tensor


# BN-LABEL: func.func private @prelude_aten_batch_norm(
# BN:       call @prelude_batch_norm(%arg0, %arg3, %arg4, %arg1, %arg2,
# BN-LABEL: func.func private @prelude_batch_norm(
# BN:       %[[VAR:.*]] = kiln.add %arg2, %cst
# BN-NEXT:  kiln.rsqrt %[[VAR]]
# kiln: x=f32[B,3,4,4], w=f32[3], b=f32[3], m=f32[3], v=f32[3]
def aten_batch_norm(x, w, b, m, v):
    return torch.ops.aten.batch_norm(x, w, b, m, v, False, 0.1, 1e-5, True)


# INPLACE-LABEL: func.func @in_place(
# INPLACE:       %[[SUM:.*]] = kiln.add %arg0, %arg1
# INPLACE:       %[[R:.*]] = kiln.relu %[[SUM]]
# INPLACE:       return %[[R]]
# kiln: x=f32[B,4], y=f32[B,4]
def in_place(x, y):
    torch.ops.aten.add_(x, y)
    torch.ops.aten.relu_(x)
    return x


# FALLBACK-LABEL: func.func @fallbacks(
# FALLBACK:       %[[N:.*]] = call @prelude_size_dim(%arg0, %c0_i64)
# FALLBACK-NEXT:  %[[T:.*]] = kiln.from_scalar %[[N]] : i64 -> tensor<i64>
# FALLBACK-NEXT:  %[[I:.*]] = kiln.item %[[T]]
# FALLBACK:       %[[FLAT:.*]] = kiln.reshape %arg0[%[[I]], %c-1_i64]
# FALLBACK-NEXT:  call @prelude_linear(%[[FLAT]], %arg1)
# kiln: x=f32[B,2,4], w=f32[3,8]
def fallbacks(x, w):
    n = torch.ops.prim.NumToTensor(torch.ops.aten.size(x, 0))
    flat = torch.ops.aten.view(x, [int(n), -1])
    return torch.ops.aten.linear(flat, w)


# FINPLACE-LABEL: func.func @functional_in_place(
# FINPLACE:       %[[H:.*]] = call @prelude_hardtanh(%arg0,
# FINPLACE:       %[[S:.*]] = kiln.add %[[H]], %cst
# FINPLACE:       return %[[S]]
# kiln: x=f32[B,4]
def functional_in_place(x):
    torch.ops.aten.hardtanh_(x, 0., 6.)
    return x + 1.0


# VIEWDTYPE:      error: torch.ops.aten.view() takes a list for 'size' (int[]); ATen reads an int there as a dtype, as in Tensor.view(dtype), which kiln does not support
# VIEWDTYPE-NEXT:     return torch.ops.aten.view(x, 6)
# VIEWDTYPE-NEXT:                                   ^
# kiln: x=f32[2,3]
def view_dtype(x):
    return torch.ops.aten.view(x, 6)


# UNKNOWN:      error: 'torch.ops.aten.lgamma' is an ATen op that kiln does not support yet; docs/python-subset.md lists kiln's ops
# UNKNOWN-NEXT:     return torch.ops.aten.lgamma(x)
# UNKNOWN-NEXT:            ^~~~~~~~~~~~~~~~~~~~~
# kiln: x=f32[4]
def unknown(x):
    return torch.ops.aten.lgamma(x)


class Scale(torch.nn.Module):
    def __init__(self, k: float):
        super().__init__()
        self.k = k

    def forward(self, x: Tensor) -> Tensor:
        return x * self.k


class Pair(torch.nn.Module):
    """As traced code writes nn.Sequential: children named by numbers."""

    def __init__(self, a: torch.nn.Module, b: torch.nn.Module):
        super().__init__()
        self.add_module("0", a)
        self.add_module("1", b)

    def forward(self, x: Tensor) -> Tensor:
        _1 = getattr(self, "1")
        _0 = getattr(self, "0")
        return (_1).forward((_0).forward(x, ), )


# GETATTR-LABEL: func.func @forward(
# GETATTR:       call @"0.forward"(%arg0)
# GETATTR-LABEL: func.func private @"0.forward"(
# GETATTR:       %[[A:.*]] = call @"0.0.forward"(%arg0)
# GETATTR-NEXT:  call @"0.1.forward"(%[[A]])
# GETATTR-LABEL: func.func private @"0.0.forward"(
# GETATTR:       %[[B:.*]] = call @"0.0.0.forward"(%arg0)
# GETATTR-NEXT:  call @"0.0.1.forward"(%[[B]])
# GETATTR-LABEL: func.func private @"0.0.0.forward"(
# GETATTR:       arith.constant 2.000000e+00
# GETATTR-LABEL: func.func private @"0.0.1.forward"(
# GETATTR:       arith.constant 3.000000e+00
# GETATTR-LABEL: func.func private @"0.1.forward"(
# GETATTR:       arith.constant 5.000000e+00
class Outer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.add_module("0", Pair(Pair(Scale(2.0), Scale(3.0)), Scale(5.0)))

    # kiln: x=f32[B,4]
    def forward(self, x: Tensor) -> Tensor:
        return getattr(self, "0")(x)


# BADGETATTR:      error: getattr() takes an object and a constant string, as TorchScript's does (no default)
# BADGETATTR-NEXT:         return getattr(self, "k", 1.0) * x
# BADGETATTR-NEXT:                ^~~~~~~~~~~~~~~~~~~~~~~
class BadGetattr(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 2.0

    # kiln: x=f32[4]
    def forward(self, x: Tensor) -> Tensor:
        return getattr(self, "k", 1.0) * x
