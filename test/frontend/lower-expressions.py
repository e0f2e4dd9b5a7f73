# Golden IR for every expression form the lowering accepts.
# RUN: kiln compile %s --emit=ir | FileCheck %s
import torch
from torch import Tensor


# Python scalars are i64/f64/i1 and use kiln's ops with Python semantics
# (floor division and modulo included), not arith's C semantics.
# CHECK-LABEL: func.func @scalar_arith(%arg0: i64 {kiln.name = "a"}, %arg1: f64 {kiln.name = "b"}) -> (i64, i64, f64, f64, i64)
# CHECK: kiln.floordiv %arg0, %c{{.*}} : (i64, i64) -> i64
# CHECK: kiln.rem %arg0, %c{{.*}} : (i64, i64) -> i64
# CHECK: kiln.div %arg0, %c{{.*}} : (i64, i64) -> f64
# CHECK: kiln.add %arg0, %arg1 : (i64, f64) -> f64
# CHECK: kiln.pow %arg0, %c{{.*}} : (i64, i64) -> i64
@torch.jit.script
def scalar_arith(a: int, b: float):
    return a // 3, a % 3, a / 2, a + b, a ** 2


# Tensor-scalar arithmetic keeps the tensor's dtype; tensor-tensor
# broadcasts; unary minus and @ map to kiln.neg and kiln.matmul.
# CHECK-LABEL: func.func @tensor_arith
# CHECK: kiln.mul %arg0, %cst{{.*}} : (tensor<3x4xf32>, f64) -> tensor<3x4xf32>
# CHECK: kiln.sub %{{.*}}, %arg1 : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
# CHECK: kiln.neg %{{.*}} : tensor<3x4xf32>
# CHECK: kiln.matmul %{{.*}}, %arg2 : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
# kiln: x=f32[3,4], y=f32[4], w=f32[4,5]
@torch.jit.script
def tensor_arith(x, y, w):
    z = -(x * 0.5 - y)
    return z @ w


# Comparisons give i1 (or tensors of i1); a chain a < b < c is the `and` of
# its links; `not` is an xor with true.
# CHECK-LABEL: func.func @compare
# CHECK: %[[LT:.*]] = kiln.cmp lt, %arg0, %arg1 : (i64, i64) -> i1
# CHECK: %[[LE:.*]] = kiln.cmp le, %arg1, %arg2 : (i64, i64) -> i1
# CHECK: kiln.bitand %[[LT]], %[[LE]] : (i1, i1) -> i1
# CHECK: kiln.cmp gt, %arg3, %cst{{.*}} : (tensor<?xf32>, f64) -> tensor<?xi1>
# CHECK: arith.xori
# kiln: t=f32[N]
@torch.jit.script
def compare(a: int, b: int, c: int, t):
    return a < b <= c, t > 0.0, not (a == c)


# `and`/`or` short-circuit: the right side is evaluated inside scf.if.
# CHECK-LABEL: func.func @short_circuit
# CHECK: %[[C:.*]] = kiln.cmp gt, %arg0, %c0
# CHECK: scf.if %[[C]] -> (i1) {
# CHECK:   kiln.floordiv
# CHECK:   scf.yield
# CHECK: } else {
# CHECK:   %false = arith.constant false
# CHECK:   scf.yield %false
@torch.jit.script
def short_circuit(a: int):
    return a > 0 and 10 // a > 1


# A conditional expression is an scf.if yielding its value.
# CHECK-LABEL: func.func @if_expression
# CHECK: scf.if %{{.*}} -> (tensor<?xf32>) {
# CHECK:   kiln.relu
# CHECK: } else {
# CHECK:   kiln.neg
# kiln: x=f32[N]
@torch.jit.script
def if_expression(x, flag: bool):
    return x.relu() if flag else -x


# Unary math and reductions, through torch.X, x.X() and keyword arguments.
# CHECK-LABEL: func.func @math_and_reductions
# CHECK: kiln.exp %arg0 : tensor<?x8xf32>
# CHECK: kiln.sigmoid
# CHECK: kiln.sum %{{.*}} {dims = array<i64: 1>, keepdim = false} : tensor<?x8xf32> -> tensor<?xf32>
# CHECK: kiln.mean %{{.*}} {dims = array<i64: 0, 1>, keepdim = true} : tensor<?x8xf32> -> tensor<1x1xf32>
# CHECK: kiln.var %{{.*}} {correction = 0 : i64, dims = array<i64>, keepdim = false} : tensor<?x8xf32> -> tensor<f32>
# CHECK: = kiln.max_dim %{{.*}} {dim = 1 : i64, keepdim = false} : tensor<?x8xf32> -> (tensor<?xf32>, tensor<?xi64>)
# kiln: x=f32[B,8]
@torch.jit.script
def math_and_reductions(x):
    e = torch.sigmoid(x.exp())
    s = e.sum(dim=1)
    m = torch.mean(e, (0, -1), keepdim=True)
    v = e.var(unbiased=False)
    values, indices = e.max(1)
    return s, m, v, values, indices


# Shape queries fold to constants for static dims and become kiln.dim for
# dynamic ones; x.shape is a tuple of them.
# CHECK-LABEL: func.func @shape_queries
# CHECK: %[[D0:.*]] = kiln.dim %arg0, 0 : tensor<?x8xf32>
# CHECK: %c8_i64 = arith.constant 8 : i64
# CHECK: kiln.mul %[[D0]], %c8_i64
# kiln: x=f32[B,8]
@torch.jit.script
def shape_queries(x):
    b, n = x.shape
    return b * n, x.size(1), x.dim(), len(x)


# Reshapes: view with -1 infers a static size where it can; flatten,
# unsqueeze, transpose, permute and .T. flatten is the prelude's reshape
# to static sizes.
# CHECK-LABEL: func.func @reshapes
# CHECK: kiln.reshape %arg0[%{{.*}}, %{{.*}}] : tensor<2x3x4xf32> -> tensor<6x4xf32>
# CHECK: call @prelude_flatten(%arg0, %{{.*}}, %{{.*}}) : (tensor<2x3x4xf32>, i64, i64) -> tensor<2x12xf32>
# CHECK: kiln.unsqueeze %arg0 {dim = 3 : i64} : tensor<2x3x4xf32> -> tensor<2x3x4x1xf32>
# CHECK: kiln.transpose %arg0 {dim0 = 0 : i64, dim1 = 2 : i64} : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
# CHECK: kiln.permute %arg0 {dims = array<i64: 1, 2, 0>} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
# CHECK-LABEL: func.func private @prelude_flatten
# CHECK: %[[TWO:.*]] = arith.constant 2 : i64
# CHECK: %[[TWELVE:.*]] = arith.constant 12 : i64
# CHECK: kiln.reshape %arg0[%[[TWO]], %[[TWELVE]]] : tensor<2x3x4xf32> -> tensor<2x12xf32>
# kiln: x=f32[2,3,4]
@torch.jit.script
def reshapes(x):
    return x.view(-1, 4), torch.flatten(x, 1), x.unsqueeze(-1), x.transpose(0, 2), x.permute(1, 2, 0)


# Creation ops take sizes as varargs or a tuple; dtype= picks the element
# type; casts are the prelude's kiln.cast; scalars become 0-d tensors with from_scalar.
# CHECK-LABEL: func.func @creation
# CHECK: kiln.full %cst{{.*}}, [%arg0, %c3_i64] : f64 -> tensor<?x3xf32>
# CHECK: kiln.full %cst{{.*}}, [%c2_i64] : f64 -> tensor<2xi64>
# CHECK: kiln.full %cst{{.*}}, [%c2_i64{{.*}}, %c2_i64{{.*}}] : f64 -> tensor<2x2xf32>
# CHECK: kiln.randn [%arg0] : tensor<?xf32>
# CHECK: call @prelude_to_float(%{{.*}}) : (tensor<2xi64>) -> tensor<2xf32>
# CHECK: kiln.from_scalar %{{.*}} : f64 -> tensor<f32>
# CHECK-LABEL: func.func private @prelude_to_float
# CHECK: kiln.cast %{{.*}} : tensor<2xi64> to tensor<2xf32>
@torch.jit.script
def creation(n: int):
    a = torch.zeros(n, 3)
    b = torch.ones((2,), dtype=torch.int64)
    c = torch.full((2, 2), 7.0)
    d = torch.randn(n)
    return a, b.float(), c, d, torch.tensor(1.5)


# print keeps Python's formatting: arguments joined by spaces, literal text
# inline and braces escaped.
# CHECK-LABEL: func.func @printing
# CHECK: kiln.print "value {{[{][{]}}x{{[}][}]}}: {} and {}"(%arg0, %arg1 : tensor<?xf32>, i64)
# kiln: x=f32[N]
@torch.jit.script
def printing(x, i: int):
    print("value {x}:", x, "and", i)
    return x


# float(), int() and bool() convert scalars; on a one-element tensor they
# read its value with kiln.item.
# CHECK-LABEL: func.func @conversions
# CHECK: kiln.cast %arg0 : i64 to f64
# CHECK: kiln.item %{{.*}} : tensor<f32> -> i64
# kiln: x=f32[N]
@torch.jit.script
def conversions(i: int, x):
    return float(i), int(x.sum()), min(i, 3), max(1.0, 2.5)
