# Golden IR: arithmetic on Python numbers known while compiling is folded as
# it is lowered, so sizes computed from static dims stay static in the types
# built from them; shape tuples slice and concatenate while compiling.
# RUN: kiln compile %s --emit=ir | FileCheck %s
# RUN: kiln compile %s --emit=ir | kiln-opt | kiln-opt | FileCheck %s
# RUN: not kiln compile %s --emit=ir --entry zero_step 2>&1 | FileCheck %s --check-prefix=ZEROSTEP --strict-whitespace
# RUN: not kiln compile %s --emit=ir --entry dynamic_bound 2>&1 | FileCheck %s --check-prefix=DYNBOUND --strict-whitespace
import torch


# x.size(-1) // 2 + 1 is 5 while compiling, so the view's type is static;
# a dynamic dim stays a run-time value.
# CHECK-LABEL: func.func @folded_sizes
# CHECK-NOT:   kiln.floordiv
# CHECK:       kiln.reshape %arg0[%{{.*}}, %c5_i64, %c2_i64] : tensor<?x10xf32> -> tensor<?x5x2xf32>
# kiln: x=f32[B,10]
@torch.jit.script
def folded_sizes(x):
    half = x.size(-1) // 2
    return x.reshape(x.size(0), half, x.size(-1) - half - 3)


# shape[:-1] + (a, b) and shape[-2:] as public code writes them (Hugging
# Face's view of a head split; torchvision's spatial size).
# CHECK-LABEL: func.func @shape_tuples
# CHECK:       kiln.reshape %arg0[%{{.*}}, %{{.*}}, %c2_i64, %c4_i64] : tensor<?x?x8xf32> -> tensor<?x?x2x4xf32>
# kiln: x=f32[B,T,8]
@torch.jit.script
def shape_tuples(x):
    heads = x.size()[:-1] + (2, 4)
    spatial = x.shape[-2:]
    return x.view(heads) * spatial[1]


# Every third dim from the end, a negative step.
# CHECK-LABEL: func.func @stepped
# CHECK:       kiln.reshape %{{.*}}[%c5_i64, %c2_i64] : tensor<2x5xf32> -> tensor<5x2xf32>
# kiln: x=f32[2,3,4,5]
@torch.jit.script
def stepped(x):
    s = x.shape[::-3]
    return x.sum((1, 2)).reshape(s).t().reshape(s)


# ZEROSTEP: {{^.*}}static-numbers.py:[[@LINE+3]]:32: error: slice step cannot be zero{{$}}
# kiln: x=f32[2,3]
def zero_step(x):
    return x.reshape(x.shape[::0])


# DYNBOUND: {{^.*}}static-numbers.py:[[@LINE+3]]:30: error: a tuple slice bound must be a constant int, got an int{{$}}
# kiln: x=f32[2,3]
def dynamic_bound(x, n: int):
    return x.reshape(x.shape[n:])
