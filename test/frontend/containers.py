# Golden IR for containers and iteration (issue 19, item 6): sequences
# known while compiling (shapes, tuples, constant ranges, ModuleLists) are
# walked while compiling and fold; run-time lists become scf loops.
# RUN: kiln compile %s --emit=ir | FileCheck %s
import torch
from torch import Tensor
from typing import List


# A comprehension over a constant range with a filter is unrolled: only the
# kept elements are computed, and sum/max/all of a shape are constants.
# CHECK-LABEL: func.func @unrolled
# CHECK-NOT:   scf.for
# CHECK:       %[[C0:.*]] = kiln.mul %arg0, %c0_i64
# CHECK:       %[[C2:.*]] = kiln.mul %arg0, %c2_i64
# CHECK:       kiln.list_construct(%[[C0]], %[[C2]])
# CHECK:       kiln.add %{{.*}}, %c11_i64
# CHECK:       return {{.*}}, %true
# kiln: x=f32[3,4,5]
@torch.jit.script
def unrolled(x: Tensor):
    parts = [x * i for i in range(4) if i % 2 == 0]
    n = sum(d for d in x.shape) + max(x.shape) - min(x.shape) - 3
    return torch.stack(parts) + n, all(d > 1 for d in x.shape)


# enumerate, zip and reversed over tuples unroll like the tuple loop.
# CHECK-LABEL: func.func @zipped
# CHECK-NOT:   scf.for
# CHECK:       kiln.mul %arg0, %c3_i64
# CHECK:       kiln.mul %{{.*}}, %c2_i64
# kiln: x=f32[2]
@torch.jit.script
def zipped(x: Tensor):
    for i, (a, b) in enumerate(zip((3, 2), reversed((5, 4)))):
        x = x * a + b * i
    return x, (1,) * 3, 4 in x.shape


# A comprehension over a run-time list is a loop that appends; its filter
# is an scf.if, and the list's element type is fixed before the loop.
# CHECK-LABEL: func.func @runtime
# CHECK:       %[[E:.*]] = kiln.list_construct() : () -> !kiln.list<tensor<2xf32>>
# CHECK:       scf.for {{.*}} iter_args(%{{.*}} = %[[E]])
# CHECK:         kiln.list_get
# CHECK:         scf.if
# CHECK:           kiln.list_append
# kiln: x=f32[2]
@torch.jit.script
def runtime(x: Tensor, n: int):
    xs: List[Tensor] = []
    for i in range(n):
        xs.append(x * float(i))
    ys = [y + 1 for y in xs if float(y.sum()) > 0.0]
    return len(ys), len(xs[1:])
