# Golden IR for structured control flow: if/elif/else, for, while, break,
# continue and early return.
# RUN: kiln compile %s --emit=ir | FileCheck %s
# The printed IR parses back and prints the same (round trip).
# RUN: kiln compile %s --emit=ir | kiln-opt | kiln-opt | FileCheck %s
import torch


# if/elif/else yields every variable a branch assigns; a shape that differs
# between branches joins to `?` through tensor.cast.
# CHECK-LABEL: func.func @if_elif_else
# CHECK: %[[R:.*]]:2 = scf.if %{{.*}} -> (i64, tensor<?xf32>) {
# CHECK:   tensor.cast %{{.*}} : tensor<3xf32> to tensor<?xf32>
# CHECK:   scf.yield %{{.*}}, %{{.*}} : i64, tensor<?xf32>
# CHECK: } else {
# CHECK:   scf.if %{{.*}} -> (i64, tensor<?xf32>) {
# CHECK:     tensor.cast %arg0 : tensor<4xf32> to tensor<?xf32>
# CHECK: return %[[R]]#1, %[[R]]#0
# kiln: x=f32[4]
@torch.jit.script
def if_elif_else(x, n: int):
    k = 0
    if n > 0:
        y = x[1:]
        k = 1
    elif n < 0:
        y = x
        k = 2
    else:
        y = x[:2]
    return y, k


# for over range becomes scf.for with the loop-carried variables as
# iter_args; the induction variable is converted to a Python int.
# CHECK-LABEL: func.func @for_range
# CHECK: %[[R:.*]]:2 = scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %c0_i64, %[[X:.*]] = %arg0) -> (i64, tensor<?xf32>) {
# CHECK:   %[[I:.*]] = arith.index_cast %[[IV]] : index to i64
# CHECK:   kiln.add %[[S]], %[[I]]
# CHECK:   scf.yield
# kiln: x=f32[N]
@torch.jit.script
def for_range(x, n: int):
    s = 0
    for i in range(2, n, 3):
        x = x * x
        s += i
    return x, s


# while becomes scf.while; the condition is evaluated in the `before`
# region on the loop-carried values.
# CHECK-LABEL: func.func @while_loop
# CHECK: scf.while (%[[A:.*]] = %arg0) : (i64) -> i64 {
# CHECK:   %[[C:.*]] = kiln.cmp gt, %[[A]], %c1_i64
# CHECK:   scf.condition(%[[C]]) %[[A]] : i64
# CHECK: } do {
# CHECK:   kiln.floordiv
@torch.jit.script
def while_loop(n: int):
    while n > 1:
        n = n // 2
    return n


# break turns a for loop into scf.while with a `$break` flag in its
# condition; the statements after the break's if are guarded by it.
# CHECK-LABEL: func.func @for_break
# CHECK: scf.while (%[[I:.*]] = %{{.*}}, %[[BRK:.*]] = %false, %[[ACC:.*]] = %c0_i64) : (i64, i1, i64) -> (i64, i1, i64) {
# CHECK:   %[[LT:.*]] = kiln.cmp lt, %[[I]], %arg0
# CHECK:   %[[NB:.*]] = arith.xori %[[BRK]], %true
# CHECK:   %[[GO:.*]] = arith.andi %[[LT]], %[[NB]]
# CHECK:   scf.condition(%[[GO]])
# CHECK: } do {
# CHECK:   scf.if
# CHECK:   kiln.add %{{.*}}, %c1_i64
@torch.jit.script
def for_break(n: int):
    acc = 0
    for i in range(n):
        if i * i > n:
            break
        acc += i
    return acc


# continue sets `$continue` and guards the rest of the body; the loop stays
# an scf.for.
# CHECK-LABEL: func.func @for_continue
# CHECK: scf.for
# CHECK:   %[[C:.*]] = scf.if %{{.*}} -> (i1) {
# CHECK:     scf.yield %true{{.*}} : i1
# CHECK:   %[[GO:.*]] = arith.xori %[[C]], %true
# CHECK:   scf.if %[[GO]] -> (i64) {
@torch.jit.script
def for_continue(n: int):
    total = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        total += i
    return total


# An early return sets `$return` and `$retval`; the rest of the function is
# guarded, and the value never read on the other path is kiln.undef.
# CHECK-LABEL: func.func @early_return
# CHECK: scf.if %{{.*}} -> (i1, tensor<?xf32>) {
# CHECK:   scf.yield %true{{.*}}, %{{.*}} : i1, tensor<?xf32>
# CHECK: } else {
# CHECK:   kiln.undef : tensor<?xf32>
# CHECK:   scf.yield %false
# CHECK: scf.if %{{.*}} -> (i1, tensor<?xf32>) {
# CHECK:   kiln.tanh
# kiln: x=f32[N]
@torch.jit.script
def early_return(x, flag: bool):
    if flag:
        return x.relu()
    return x.tanh()


# return inside a loop stops the loop through its condition.
# CHECK-LABEL: func.func @return_in_loop
# CHECK: scf.while
# CHECK: arith.xori
# CHECK: scf.condition
@torch.jit.script
def return_in_loop(n: int):
    for i in range(n):
        if i * i >= n:
            return i
    return -1


# Iterating over a tensor walks its first dimension with kiln.select; a
# list is walked with kiln.list_get; a tuple is unrolled at compile time.
# CHECK-LABEL: func.func @iterate
# CHECK: kiln.dim %arg0, 0
# CHECK: scf.for
# CHECK:   kiln.select %arg0[%{{.*}}] {dim = 0 : i64} : tensor<?x3xf32> -> tensor<3xf32>
# CHECK: kiln.list_len
# CHECK: scf.for
# CHECK:   kiln.list_get
# CHECK: kiln.mul %{{.*}}, %c2_i64
# CHECK: kiln.mul %{{.*}}, %cst
# kiln: x=f32[N,3]
@torch.jit.script
def iterate(x):
    acc = torch.zeros(3)
    for row in x:
        acc = acc + row
    rows = [acc, acc]
    for r in rows:
        acc = acc - r
    for k in (2, 0.5):
        acc = acc * k
    return acc


# `x is None` is decided at compile time: only the live branch is lowered.
# CHECK-LABEL: func.func @none_refinement
# CHECK-NOT: scf.if
# CHECK: kiln.add %arg0, %c1_i64
# CHECK: return
@torch.jit.script
def none_refinement(a: int):
    b = None
    if b is None:
        a = a + 1
    else:
        a = a + b
    return a
