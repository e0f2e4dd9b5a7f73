# Golden IR for the constructs of issue 14: raise, isinstance,
# torch.jit.annotate, @torch.jit.unused/ignore functions that are present
# but not called, and Optional[Tensor] helpers specialized on None.
# RUN: kiln compile %s --emit=ir | FileCheck %s
# RUN: kiln compile %s --emit=ir | kiln-opt | kiln-opt | FileCheck %s
from typing import List, Optional

import torch
from torch import Tensor


# raise becomes a kiln.assert that always fails, carrying the exception's
# class and message; the branch that raised takes its variables from the
# other branch (kiln.undef, never read), so `y` is defined after the if.
# CHECK-LABEL: func.func @raises
# CHECK:      scf.if %{{.*}} {
# CHECK-NEXT:   %[[F:.*]] = arith.constant false
# CHECK-NEXT:   kiln.assert %[[F]], "ValueError: x must not be empty"
# CHECK-NEXT: }
# CHECK:      %[[Y:.*]] = scf.if %{{.*}} -> (tensor<?xf32>) {
# CHECK:        kiln.add %arg0
# CHECK:      } else {
# CHECK:        kiln.assert %{{.*}}, "RuntimeError: n must be positive"
# CHECK-NEXT:   %[[U:.*]] = kiln.undef : tensor<?xf32>
# CHECK-NEXT:   scf.yield %[[U]] : tensor<?xf32>
# CHECK:      return %[[Y]]
# kiln: x=f32[N]
@torch.jit.script
def raises(x, n: int):
    if x.size(0) == 0:
        raise ValueError("x must not be empty")
    if n > 0:
        y = x + 1
    else:
        raise RuntimeError("n must be positive")
    return y


# A raise whose condition is known at compile time is decided then: the
# dead raise produces nothing, and the code after it is not guarded.
# CHECK-LABEL: func.func @dead_raise
# CHECK-NEXT: return %arg0
# kiln: x=f32[N]
@torch.jit.script
def dead_raise(x):
    groups = 1
    if groups != 1:
        raise ValueError("only groups=1")
    return x


# isinstance on static types folds to a constant, and an `if` on it lowers
# only the branch that runs (the other would not type-check: n is an int).
# torch.jit.annotate returns its value; annotate(List[int], []) types the
# empty list.
# CHECK-LABEL: func.func @instances
# CHECK-NOT: scf.if
# CHECK: kiln.list_construct() : () -> !kiln.list<i64>
# CHECK-NOT: scf.if
# CHECK: return %{{[0-9]+}}, %true{{[_0-9]*}}, %false{{[_0-9]*}}, %true{{[_0-9]*}}, %false{{[_0-9]*}}, %true{{[_0-9]*}} :
# kiln: x=f32[N]
@torch.jit.script
def instances(x, n: int, f: float):
    a = isinstance(x, Tensor)
    b = isinstance(x, (int, float))
    c = isinstance(f, float) and isinstance(n, int)
    d = isinstance(True, int)  # TorchScript's bool is not an int
    e = isinstance((x, n), tuple) and isinstance("s", str)
    xs = torch.jit.annotate(List[int], [])
    xs.append(n)
    if not isinstance(n, int):
        return x.no_such_method(), a, b, c, d, e
    return x + float(len(xs)), a, b, c, d, e


# An Optional[Tensor] helper is specialized per call: with None, the
# `is None` branch is all there is; with a tensor, the other one.
# CHECK-LABEL: func.func @optional_helper
# CHECK: call @scaled(%arg0) : (tensor<?xf32>) -> tensor<?xf32>
# CHECK: call @scaled_1(%arg0, %arg1) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
# CHECK-LABEL: func.func private @scaled(%arg0: tensor<?xf32>)
# CHECK-NEXT: return %arg0
# CHECK-LABEL: func.func private @scaled_1(%arg0: tensor<?xf32>, %arg1: tensor<?xf32>)
# CHECK-NEXT: kiln.mul %arg0, %arg1
def scaled(x: Tensor, weight: Optional[Tensor] = None) -> Tensor:
    if weight is None:
        return x
    return x * weight


# kiln: x=f32[N], w=f32[N]
@torch.jit.script
def optional_helper(x, w):
    return scaled(x) + scaled(x, w)


# Functions left to Python are not compiled unless called, so their bodies
# may hold what kiln does not support.
@torch.jit.unused
def unused_helper(path):
    with open(path) as f:
        return f.read()


@torch.jit.ignore
def ignored_helper(x):
    print(x)


# super().method() and super(Class, self).method() call the base class's
# method on the same instance, named after the class that defines it;
# self.method() is the derived class's, as in Python.
# RUN: kiln compile %s --entry Derived --emit=ir | FileCheck %s --check-prefix=SUPER
# SUPER-LABEL: func.func @forward
# SUPER: call @Base.forward(%arg0)
# SUPER: call @extra(%arg0)
# SUPER: call @Base.extra(%arg0)
# SUPER-LABEL: func.func private @Base.forward
# SUPER: kiln.param "fc.weight"
# SUPER-LABEL: func.func private @extra
# SUPER: kiln.sub
# SUPER-LABEL: func.func private @Base.extra
# SUPER: kiln.mul
import torch.nn as nn


class Base(nn.Module):
    def __init__(self, n: int = 4):
        super().__init__()
        self.fc = nn.Linear(n, n)

    def forward(self, x):
        return self.fc(x)

    def extra(self, x):
        return x * 2


class Derived(Base):
    def __init__(self):
        super(Derived, self).__init__(4)

    def extra(self, x):
        return x - 1

    # kiln: x=f32[B,4]
    def forward(self, x):
        return super().forward(x) + self.extra(x) + super(Derived, self).extra(x)
