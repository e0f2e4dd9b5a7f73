# Golden IR for torch.einsum: the equation is parsed at compile time and
# lowered to ops kiln already has. Two operands with a contracted letter are
# one kiln.matmul of [batch, M, K] x [batch, K, N], with a permute only where
# an operand's letters are out of that order; with nothing contracted they
# are a broadcast multiply; one operand is a sum and a permute; three or
# more contract left to right.
# RUN: kiln compile %s --emit=ir | FileCheck %s
# RUN: kiln compile %s --emit=ir | kiln-opt | kiln-opt | FileCheck %s
import torch


# Attention: q @ k^T needs k's last two dims swapped; p @ v is a plain
# batched matmul; no reshape, since every group is one letter.
# CHECK-LABEL: func.func @attention
# CHECK-NEXT: %[[KT:.*]] = kiln.permute %arg1 {dims = array<i64: 0, 1, 3, 2>} : tensor<?x2x5x4xf32> -> tensor<?x2x4x5xf32>
# CHECK-NEXT: %[[S:.*]] = kiln.matmul %arg0, %[[KT]] : (tensor<?x2x3x4xf32>, tensor<?x2x4x5xf32>) -> tensor<?x2x3x5xf32>
# CHECK-NEXT: %[[O:.*]] = kiln.matmul %[[S]], %arg2 : (tensor<?x2x3x5xf32>, tensor<?x2x5x4xf32>) -> tensor<?x2x3x4xf32>
# CHECK-NEXT: return %[[O]]
# kiln: q=f32[B,2,3,4], k=f32[B,2,5,4], v=f32[B,2,5,4]
@torch.jit.script
def attention(q, k, v):
    s = torch.einsum('bhqd,bhkd->bhqk', q, k)
    return torch.einsum('bhij,bhjd->bhid', s, v)


# An outer product per batch row: unsqueeze both and multiply.
# CHECK-LABEL: func.func @outer
# CHECK-NEXT: %[[X:.*]] = kiln.unsqueeze %arg0 {dim = 2 : i64} : tensor<?x3xf32> -> tensor<?x3x1xf32>
# CHECK-NEXT: %[[Y:.*]] = kiln.unsqueeze %arg1 {dim = 1 : i64} : tensor<?x4xf32> -> tensor<?x1x4xf32>
# CHECK-NEXT: %[[P:.*]] = kiln.mul %[[X]], %[[Y]] : (tensor<?x3x1xf32>, tensor<?x1x4xf32>) -> tensor<?x3x4xf32>
# CHECK-NEXT: return %[[P]]
# kiln: x=f32[B,3], y=f32[B,4]
@torch.jit.script
def outer(x, y):
    return torch.einsum('bi,bj->bij', x, y)


# One operand: a transpose is a permute, a full sum is kiln.sum.
# CHECK-LABEL: func.func @one_operand
# CHECK-NEXT: %[[T:.*]] = kiln.permute %arg0 {dims = array<i64: 1, 0>} : tensor<3x4xf32> -> tensor<4x3xf32>
# CHECK-NEXT: %[[S:.*]] = kiln.sum %arg0 {dims = array<i64: 0, 1>, keepdim = false} : tensor<3x4xf32> -> tensor<f32>
# CHECK-NEXT: return %[[T]], %[[S]]
# kiln: m=f32[3,4]
@torch.jit.script
def one_operand(m):
    return torch.einsum('ij->ji', m), torch.einsum('ij->', m)


# '...' covers the leading dims: they are merged into M for the matmul and
# split back after it.
# CHECK-LABEL: func.func @ellipsis
# CHECK:      %[[A:.*]] = kiln.reshape %arg0[%{{.*}}, %{{.*}}] : tensor<2x?x3xf32> -> tensor<?x3xf32>
# CHECK-NEXT: %[[M:.*]] = kiln.matmul %[[A]], %arg1 : (tensor<?x3xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
# CHECK:      %[[R:.*]] = kiln.reshape %[[M]][%{{.*}}, %{{.*}}, %{{.*}}] : tensor<?x4xf32> -> tensor<2x?x4xf32>
# CHECK-NEXT: return %[[R]]
# kiln: x=f32[2,B,3], m=f32[3,4]
@torch.jit.script
def ellipsis(x, m):
    return torch.einsum('...ij,jk->...ik', x, m)


# Three operands contract left to right, each a matmul.
# CHECK-LABEL: func.func @chain
# CHECK-NEXT: %[[XY:.*]] = kiln.matmul %arg0, %arg1 : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
# CHECK-NEXT: %[[XYZ:.*]] = kiln.matmul %[[XY]], %arg2 : (tensor<3x5xf32>, tensor<5x2xf32>) -> tensor<3x2xf32>
# CHECK-NEXT: return %[[XYZ]]
# kiln: x=f32[3,4], y=f32[4,5], z=f32[5,2]
@torch.jit.script
def chain(x, y, z):
    return torch.einsum('ij,jk,kl->il', [x, y, z])
