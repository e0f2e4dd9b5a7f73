# Golden IR for torch.nn.functional and the nn tensor ops: what each call is
# composed of. Only conv2d, the pools, embedding, where, arange and erf are
# ops of their own; the rest is elementwise ops, reductions and shape ops
# that fusion can see through.
# RUN: kiln compile %s --emit=ir | FileCheck %s
# RUN: kiln compile %s --emit=ir | kiln-opt | kiln-opt | FileCheck %s
import torch
import torch.nn.functional as F


# softmax subtracts the max before exp (stable), then multiplies by the
# reciprocal of the sum (one division per row, as PyTorch's kernel);
# log_softmax subtracts the log of the sum instead; both keep the reduced
# dim for broadcasting. A negative dim is normalized. Both are prelude
# functions (frontend/prelude/functional.py) sharing the max-shift helper.
# CHECK-LABEL: func.func @softmaxes
# CHECK:      call @prelude_softmax_functional(%arg0,
# CHECK:      call @prelude_log_softmax(%arg0,
# CHECK-LABEL: func.func private @prelude_softmax(
# CHECK:      %[[S:.*]] = call @prelude__shifted(%arg0,
# CHECK-NEXT: %[[E:.*]] = kiln.exp %[[S]] : tensor<?x5xf32>
# CHECK-NEXT: %[[Z:.*]] = kiln.sum %[[E]] {dims = array<i64: 1>, keepdim = true} : tensor<?x5xf32> -> tensor<?x1xf32>
# CHECK-NEXT: %[[R:.*]] = call @prelude_reciprocal(%[[Z]]) : (tensor<?x1xf32>) -> tensor<?x1xf32>
# CHECK-NEXT: kiln.mul %[[E]], %[[R]] : (tensor<?x5xf32>, tensor<?x1xf32>) -> tensor<?x5xf32>
# CHECK-LABEL: func.func private @prelude__shifted(
# CHECK-NEXT: %[[M:.*]] = kiln.amax %arg0 {dims = array<i64: 1>, keepdim = true} : tensor<?x5xf32> -> tensor<?x1xf32>
# CHECK-NEXT: kiln.sub %arg0, %[[M]] : (tensor<?x5xf32>, tensor<?x1xf32>) -> tensor<?x5xf32>
# CHECK-LABEL: func.func private @prelude_log_softmax(
# CHECK:      %[[S2:.*]] = call @prelude__shifted_1(%arg0,
# CHECK-NEXT: %[[E2:.*]] = kiln.exp %[[S2]]
# CHECK-NEXT: %[[Z2:.*]] = kiln.sum %[[E2]] {dims = array<i64: 0>, keepdim = true}
# CHECK-NEXT: %[[L2:.*]] = kiln.log %[[Z2]] : tensor<1x5xf32>
# CHECK-NEXT: kiln.sub %[[S2]], %[[L2]] : (tensor<?x5xf32>, tensor<1x5xf32>) -> tensor<?x5xf32>
# CHECK-LABEL: func.func private @prelude__shifted_1(
# CHECK-NEXT: kiln.amax %arg0 {dims = array<i64: 0>, keepdim = true}
# kiln: x=f32[B,5]
@torch.jit.script
def softmaxes(x):
    return F.softmax(x, dim=-1), x.log_softmax(0)


# linear is x @ w.T + b, the prelude's (prelude/functional.py).
# CHECK-LABEL: func.func @linear
# CHECK:      call @prelude_linear(%arg0, %arg1, %arg2)
# CHECK-LABEL: func.func private @prelude_linear
# CHECK:      %[[T:.*]] = call @prelude_t(%arg1) : (tensor<6x8xf32>) -> tensor<8x6xf32>
# CHECK-NEXT: %[[MM:.*]] = kiln.matmul %arg0, %[[T]] : (tensor<?x?x8xf32>, tensor<8x6xf32>) -> tensor<?x?x6xf32>
# CHECK-NEXT: kiln.add %[[MM]], %arg2 : (tensor<?x?x6xf32>, tensor<6xf32>) -> tensor<?x?x6xf32>
# CHECK-LABEL: func.func private @prelude_t
# CHECK:      kiln.transpose %arg0 {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<6x8xf32> -> tensor<8x6xf32>
# kiln: x=f32[B,T,8], w=f32[6,8], b=f32[6]
@torch.jit.script
def linear(x, w, b):
    return F.linear(x, w, b)


# conv2d has an op; int arguments become pairs and the bias is added after
# it as (O, 1, 1), so it can fuse with what follows. max_pool2d's stride
# defaults to the kernel; ceil_mode rounds the output size up.
# CHECK-LABEL: func.func @conv_pool
# CHECK:      %[[C:.*]] = kiln.conv2d %arg0, %arg1 {dilation = array<i64: 1, 2>, groups = 2 : i64, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<?x4x9x9xf32>, tensor<6x2x3x3xf32>) -> tensor<?x6x5x4xf32>
# CHECK:      %[[B:.*]] = kiln.reshape %arg2[%c6_i64, %c1_i64, %c1_i64] : tensor<6xf32> -> tensor<6x1x1xf32>
# CHECK-NEXT: %[[Y:.*]] = kiln.add %[[C]], %[[B]] : (tensor<?x6x5x4xf32>, tensor<6x1x1xf32>) -> tensor<?x6x5x4xf32>
# CHECK-NEXT: kiln.max_pool2d %[[Y]] {ceil_mode = true, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<?x6x5x4xf32> -> tensor<?x6x3x2xf32>
# CHECK:      kiln.avg_pool2d %arg0 {ceil_mode = false, count_include_pad = false, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 3, 3>} : tensor<?x4x9x9xf32> -> tensor<?x4x3x3xf32>
# kiln: x=f32[B,4,9,9], w=f32[6,2,3,3], b=f32[6]
@torch.jit.script
def conv_pool(x, w, b):
    y = F.conv2d(x, w, b, stride=2, padding=1, dilation=(1, 2), groups=2)
    return F.max_pool2d(y, 2, ceil_mode=True), F.avg_pool2d(x, 3, padding=1, count_include_pad=False)


# adaptive_avg_pool2d (prelude/functional.py): (1, 1) is a mean over H and
# W; sizes that divide the input are an avg_pool2d; others average
# PyTorch's windows [floor(i*in/out), ceil((i+1)*in/out)) with slices, one
# dim at a time (its loop over the windows is unrolled while compiling).
# CHECK-LABEL: func.func @adaptive
# CHECK:      call @prelude_adaptive_avg_pool2d(%arg0,
# CHECK:      call @prelude_adaptive_avg_pool2d_1(%arg0,
# CHECK:      call @prelude_adaptive_avg_pool2d_2(%arg0,
# CHECK-LABEL: func.func private @prelude_adaptive_avg_pool2d(
# CHECK-NEXT: kiln.mean %arg0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<?x3x10x7xf32> -> tensor<?x3x1x1xf32>
# CHECK-LABEL: func.func private @prelude_adaptive_avg_pool2d_1(
# CHECK:      kiln.avg_pool2d %arg0 {ceil_mode = false, count_include_pad = true, kernel = array<i64: 2, 7>, padding = array<i64: 0, 0>, stride = array<i64: 2, 7>} : tensor<?x3x10x7xf32> -> tensor<?x3x5x1xf32>
# CHECK-LABEL: func.func private @prelude_adaptive_avg_pool2d_2(
# CHECK:      %[[H:.*]] = call @prelude__adaptive_along(%arg0,
# CHECK:      call @prelude__adaptive_along_1(%[[H]],
# CHECK-LABEL: func.func private @prelude__adaptive_along(
# CHECK:      kiln.slice %arg0[%{{.*}} : %{{.*}} : %{{.*}}] {dim = 2 : i64} : tensor<?x3x10x7xf32> -> tensor<?x3x4x7xf32>
# CHECK-NEXT: kiln.mean %{{.*}} {dims = array<i64: 2>, keepdim = true} : tensor<?x3x4x7xf32> -> tensor<?x3x1x7xf32>
# CHECK-COUNT-2: kiln.slice %arg0
# CHECK:      kiln.cat %{{.*}} {dim = 2 : i64} : !kiln.list<tensor<?x3x1x7xf32>> -> tensor<?x3x3x7xf32>
# CHECK-LABEL: func.func private @prelude__adaptive_along_1(
# CHECK-NEXT: kiln.mean %arg0 {dims = array<i64: 3>, keepdim = true} : tensor<?x3x3x7xf32> -> tensor<?x3x3x1xf32>
# kiln: x=f32[B,3,10,7]
@torch.jit.script
def adaptive(x):
    return F.adaptive_avg_pool2d(x, 1), F.adaptive_avg_pool2d(x, (5, 1)), F.adaptive_avg_pool2d(x, (3, 1))


# layer_norm normalizes with the biased variance, the mean of the squared
# deviations; batch_norm folds its running statistics into a per-channel
# scale and shift, reshaped to (C, 1, 1).
# CHECK-LABEL: func.func @norms
# CHECK:      call @prelude_layer_norm(%arg0, %{{.*}}, %arg1, %arg2,
# CHECK:      call @prelude_batch_norm(%arg3, %arg4, %arg5,
# CHECK-LABEL: func.func private @prelude_layer_norm
# CHECK:      %[[MU:.*]] = kiln.mean %arg0 {dims = array<i64: 2>, keepdim = true}
# CHECK-NEXT: %[[D:.*]] = kiln.sub %arg0, %[[MU]]
# CHECK-NEXT: %[[SQ:.*]] = kiln.mul %[[D]], %[[D]]
# CHECK-NEXT: %[[VAR:.*]] = kiln.mean %[[SQ]] {dims = array<i64: 2>, keepdim = true}
# CHECK-NEXT: %[[VE:.*]] = kiln.add %[[VAR]], %{{.*}} : (tensor<?x?x1xf32>, f64)
# CHECK-NEXT: %[[INV:.*]] = kiln.rsqrt %[[VE]]
# CHECK-NEXT: %[[N:.*]] = kiln.mul %[[D]], %[[INV]]
# CHECK-NEXT: %[[W:.*]] = kiln.mul %[[N]], %arg2 : (tensor<?x?x6xf32>, tensor<6xf32>) -> tensor<?x?x6xf32>
# CHECK-NEXT: kiln.add %[[W]], %arg3 : (tensor<?x?x6xf32>, tensor<6xf32>) -> tensor<?x?x6xf32>
# CHECK-LABEL: func.func private @prelude_batch_norm
# CHECK:      %[[SC:.*]] = kiln.rsqrt %{{.*}} : tensor<4xf32>
# CHECK:      %[[SH:.*]] = kiln.neg %{{.*}} : tensor<4xf32>
# CHECK:      %[[SC3:.*]] = kiln.reshape %[[SC]][{{.*}}] : tensor<4xf32> -> tensor<4x1x1xf32>
# CHECK-NEXT: %[[XS:.*]] = kiln.mul %arg0, %[[SC3]]
# CHECK:      %[[SH3:.*]] = kiln.reshape %[[SH]][{{.*}}] : tensor<4xf32> -> tensor<4x1x1xf32>
# CHECK-NEXT: kiln.add %[[XS]], %[[SH3]]
# kiln: x=f32[B,T,6], w=f32[6], b=f32[6], y=f32[B,4,5,5], m=f32[4], v=f32[4]
@torch.jit.script
def norms(x, w, b, y, m, v):
    return F.layer_norm(x, (6,), w, b), F.batch_norm(y, m, v)


# gelu is 0.5 * x * (1 + erf(x / sqrt(2))); dropout with training=False is
# the identity; embedding has an op.
# gelu and dropout are the prelude's (prelude/activations.py,
# prelude/functional.py), called here and inlined by the pipeline.
# CHECK-LABEL: func.func @gelu_dropout_embedding
# CHECK:      %[[G:.*]] = call @prelude_gelu(%arg0) : (tensor<?x8xf32>) -> tensor<?x8xf32>
# CHECK:      %[[D:.*]] = call @prelude_dropout(%arg0, %{{.*}}, %false) : (tensor<?x8xf32>, f64, i1) -> tensor<?x8xf32>
# CHECK:      %[[EMB:.*]] = kiln.embedding %arg2[%arg1] : (tensor<10x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
# CHECK:      return %[[G]], %[[D]], %[[EMB]]
# CHECK-LABEL: func.func private @prelude_gelu
# CHECK:      %[[K:.*]] = arith.constant 0.70710678118654757 : f64
# CHECK-NEXT: %[[XK:.*]] = kiln.mul %arg0, %[[K]]
# CHECK-NEXT: %[[ERF:.*]] = kiln.erf %[[XK]] : tensor<?x8xf32>
# kiln: x=f32[N,8], i=i64[N], w=f32[10,8]
@torch.jit.script
def gelu_dropout_embedding(x, i, w):
    return F.gelu(x), F.dropout(x, 0.5, training=False), F.embedding(i, w)


# masked_fill is a where whose fill value takes x's dtype; float("-inf")
# is a constant. triu compares column - row indices from arange with the
# diagonal and picks with where.
# CHECK-LABEL: func.func @masks
# CHECK:      call @prelude_masked_fill(%arg0, %arg1, %{{.*}}) : (tensor<?x4x4xf32>, tensor<4x4xi1>, f64) -> tensor<?x4x4xf32>
# CHECK:      call @prelude_masked_fill_1(%arg2, %arg1, %{{.*}}) : (tensor<4x4xi32>, tensor<4x4xi1>, f64) -> tensor<4x4xi32>
# CHECK-LABEL: func.func private @prelude_masked_fill(
# CHECK:      %[[NINF:.*]] = arith.constant 0xFFF0000000000000 : f64
# CHECK-NEXT: kiln.where %arg1, %[[NINF]], %arg0 : (tensor<4x4xi1>, f64, tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
# CHECK-LABEL: func.func private @prelude_masked_fill_1(
# CHECK:      %[[FILL:.*]] = arith.constant 2 : i64
# CHECK-NEXT: kiln.where %arg1, %[[FILL]], %arg0 : (tensor<4x4xi1>, i64, tensor<4x4xi32>) -> tensor<4x4xi32>
# CHECK-LABEL: func.func private @prelude_triu(
# CHECK:      %[[ROWS:.*]] = kiln.arange %{{.*}}, %c4_i64, %{{.*}} : (i64, i64, i64) -> tensor<4xi64>
# CHECK-NEXT: %[[R:.*]] = kiln.unsqueeze %[[ROWS]] {dim = 1 : i64} : tensor<4xi64> -> tensor<4x1xi64>
# CHECK:      %[[COLS:.*]] = kiln.arange
# CHECK-NEXT: %[[C:.*]] = kiln.unsqueeze %[[COLS]] {dim = 0 : i64} : tensor<4xi64> -> tensor<1x4xi64>
# CHECK-NEXT: %[[OFF:.*]] = kiln.sub %[[C]], %[[R]] : (tensor<1x4xi64>, tensor<4x1xi64>) -> tensor<4x4xi64>
# CHECK-NEXT: %[[KEEP:.*]] = kiln.cmp ge, %[[OFF]], %c1_i64{{.*}} : (tensor<4x4xi64>, i64) -> tensor<4x4xi1>
# CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
# CHECK-NEXT: kiln.where %[[KEEP]], %arg0, %[[ZERO]] : (tensor<4x4xi1>, tensor<?x4x4xf32>, f64) -> tensor<?x4x4xf32>
# kiln: x=f32[B,4,4], m=bool[4,4], i=i32[4,4]
@torch.jit.script
def masks(x, m, i):
    return x.masked_fill(m, float("-inf")), i.masked_fill(m, 2.5), x.triu(1)


# argmax is max_dim's indices (prelude/reductions.py); with no dim it runs
# over the flattened tensor.
# CHECK-LABEL: func.func @argmaxes
# CHECK:      %[[I:.*]] = call @prelude_argmax(%arg0, {{.*}}) : (tensor<?x5xf32>, i64, i1) -> tensor<?x1xi64>
# CHECK:      %[[J:.*]] = call @prelude_argmax_1(%arg0, {{.*}}) : (tensor<?x5xf32>, i1) -> tensor<i64>
# CHECK:      return %[[I]], %[[J]] : tensor<?x1xi64>, tensor<i64>
# CHECK-LABEL: func.func private @prelude__argmax(
# CHECK:      %{{.*}}, %[[I:.*]] = kiln.max_dim %arg0 {dim = 1 : i64, keepdim = true} : tensor<?x5xf32> -> (tensor<?x1xf32>, tensor<?x1xi64>)
# CHECK-NEXT: return %[[I]]
# CHECK-LABEL: func.func private @prelude__argmax_1(
# CHECK:      %[[FLAT:.*]] = call @prelude_flatten(%arg0, {{.*}}) : (tensor<?x5xf32>, i64, i64) -> tensor<?xf32>
# CHECK-NEXT: %{{.*}}, %[[J:.*]] = kiln.max_dim %[[FLAT]] {dim = 0 : i64, keepdim = false} : tensor<?xf32> -> (tensor<f32>, tensor<i64>)
# CHECK-NEXT: return %[[J]]
# CHECK-LABEL: func.func private @prelude_flatten(
# CHECK:      kiln.reshape %arg0[%{{.*}}] : tensor<?x5xf32> -> tensor<?xf32>
# kiln: x=f32[B,5]
@torch.jit.script
def argmaxes(x):
    return x.argmax(-1, keepdim=True), x.argmax()


# split and chunk are prelude functions that return tuples of slices.
# Sizes given for a dynamic dim are checked at run time, and the input is
# reshaped to the checked size, which makes the pieces' sizes static. cat
# of a tuple of different widths has the sum of the widths.
# CHECK-LABEL: func.func @splits
# CHECK:      call @prelude_split(%arg0, %c4_i64, %c1_i64) : (tensor<?x6xf32>, i64, i64) -> (tensor<?x4xf32>, tensor<?x2xf32>)
# CHECK:      call @prelude_split_sections(%arg0, {{.*}}) : (tensor<?x6xf32>, i64, i64, i64) -> (tensor<1x6xf32>, tensor<2x6xf32>)
# CHECK:      call @prelude_chunk(%arg0, {{.*}}) : (tensor<?x6xf32>, i64, i64) -> (tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xf32>)
# CHECK:      kiln.cat %{{.*}} {dim = 1 : i64} : !kiln.list<tensor<?x?xf32>> -> tensor<?x6xf32>
# CHECK-LABEL: func.func private @prelude__narrow(
# CHECK:      kiln.slice %arg0[%{{.*}} : %{{.*}} : %{{.*}}] {dim = 1 : i64} : tensor<?x6xf32> -> tensor<?x4xf32>
# CHECK-LABEL: func.func private @prelude__narrow_1(
# CHECK:      kiln.slice %arg0[%{{.*}} : %{{.*}} : %{{.*}}] {dim = 1 : i64} : tensor<?x6xf32> -> tensor<?x2xf32>
# CHECK-LABEL: func.func private @prelude__split_1(
# CHECK:      %[[N:.*]] = call @prelude_size{{.*}}(%arg0, %c0_i64)
# CHECK:      %[[BAD:.*]] = kiln.cmp ne, %[[N]], %c3_i64 : (i64, i64) -> i1
# CHECK-NEXT: scf.if %[[BAD]] {
# CHECK:      kiln.assert %false, "RuntimeError: split_with_sizes expects split_sizes to sum exactly to the size of dimension 0, but got split_sizes=[1, 2]"
# CHECK:      %[[X:.*]] = kiln.reshape %arg0[%c3_i64, %c6_i64] : tensor<?x6xf32> -> tensor<3x6xf32>
# CHECK:      call @prelude__narrow_2(%[[X]], {{.*}}) -> tensor<1x6xf32>
# CHECK:      call @prelude__narrow_3(%[[X]], {{.*}}) -> tensor<2x6xf32>
# CHECK-COUNT-3: kiln.slice %arg0[{{.*}}] {dim = 1 : i64} : tensor<?x6xf32> -> tensor<?x2xf32>
# kiln: x=f32[B,6]
@torch.jit.script
def splits(x):
    a, b = x.split(4, dim=1)
    c, d = torch.split(x, [1, 2])
    e, f, g = x.chunk(3, 1)
    return a, b, c, d, e, f, g, torch.cat((a, b), dim=1)


# arange: ints give i64, any float gives f32 (its bounds become f64); the
# length is static when the bounds are constants.
# CHECK-LABEL: func.func @aranges
# CHECK:      kiln.arange %{{.*}}, %{{.*}}, %{{.*}} : (i64, i64, i64) -> tensor<3xi64>
# CHECK:      kiln.arange %{{.*}}, %{{.*}}, %{{.*}} : (f64, f64, f64) -> tensor<4xf32>
# CHECK:      %[[N:.*]] = call @prelude_size_dim{{.*}}(%arg0, %{{.*}}) : (tensor<?xf32>, i64) -> i64
# CHECK:      kiln.arange %{{.*}}, %[[N]], %{{.*}} : (i64, i64, i64) -> tensor<?xi64>
# CHECK:      kiln.arange %{{.*}} : (f64, f64, f64) -> tensor<?xf32>
# kiln: x=f32[N]
@torch.jit.script
def aranges(x):
    return torch.arange(2, 9, 3), torch.arange(0.0, 1.0, 0.25), torch.arange(x.size(0)), torch.arange(x.size(0), dtype=torch.float32)
