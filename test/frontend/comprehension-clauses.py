# Golden IR and errors of comprehensions with several `for` clauses
# (frontend/LowerContainers.cpp). The clauses before the last walk
# sequences known while compiling, so they unroll; the last may be a
# run-time walk, one per element of the clauses before it, and a run-time
# filter of an outer clause guards the elements of the inner ones.
# RUN: kiln compile %s --emit=ir --entry known | FileCheck %s --check-prefix=KNOWN
# RUN: kiln compile %s --emit=ir --entry runtime_inner | FileCheck %s --check-prefix=INNER
import torch
from torch import Tensor


# Everything known while compiling: the result is a compile-time sequence
# and its sum folds to a constant (1*10 + 1*20 + 3*10 + 3*20 = 120).
# KNOWN-LABEL: func.func @known
# KNOWN-NOT: scf.
# KNOWN: %[[C:.*]] = arith.constant 120 : i64
# KNOWN: return %[[C]]
# kiln: x=f32[2]
@torch.jit.script
def known(x: Tensor):
    return sum([a * b for a in (1, 2, 3) if a != 2 for b in (10, 20)])


# A run-time inner range: one scf.for per element of the outer clause,
# each under the outer clause's run-time filter (scf.if), the second
# appending to the list the first built.
# INNER-LABEL: func.func @runtime_inner
# INNER: %[[FIRST:.*]] = scf.for
# INNER: scf.if
# INNER: kiln.list_append
# INNER: scf.for {{.*}} iter_args(%{{.*}} = %[[FIRST]])
# INNER: scf.if
# INNER: kiln.list_append
# INNER-NOT: scf.for
# INNER: return
# kiln: x=f32[N]
@torch.jit.script
def runtime_inner(x: Tensor):
    n = x.size(0)
    return len([i * k for k in (1, 2) if bool(x.sum() > 0.0) for i in range(n)])


# RUN: not kiln compile %s --emit=ir --entry runtime_outer 2>&1 | FileCheck %s --check-prefix=OUTER --strict-whitespace --implicit-check-not='{{error|note}}:'
# OUTER: {{^.*}}comprehension-clauses.py:[[@LINE+6]]:28: error: a comprehension's 'for' clauses before the last must walk a sequence known while compiling (a tuple, a shape, a list display, a constant range), not a run-time list or a range with run-time bounds{{$}}
# OUTER-NEXT: {{^}}    return [i + j for i in range(n) for j in (1, 2)]{{$}}
# OUTER-NEXT: {{^}}                           ^~~~~~~~{{$}}
# kiln: x=f32[N]
def runtime_outer(x: Tensor):
    n = x.size(0)
    return [i + j for i in range(n) for j in (1, 2)]
