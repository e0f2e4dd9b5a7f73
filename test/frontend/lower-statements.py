# Golden IR for the simple statements: assert, pass, docstrings, annotated,
# chained and augmented assignment, and break in nested loops.
# RUN: kiln compile %s --emit=ir | FileCheck %s
# RUN: kiln compile %s --emit=ir | kiln-opt | kiln-opt | FileCheck %s
import torch


# assert becomes kiln.assert with the error's whole text, "AssertionError"
# and the message when there is one;
# a docstring and pass produce nothing.
# CHECK-LABEL: func.func @asserts
# CHECK: %[[C:.*]] = kiln.cmp gt, %arg0, %c0_i64
# CHECK-NEXT: kiln.assert %[[C]], "AssertionError: n must be positive"
# CHECK: kiln.assert %{{.*}}, "AssertionError"
# CHECK-NEXT: return
@torch.jit.script
def asserts(n: int):
    """Checks its argument."""
    assert n > 0, "n must be positive"
    assert n != 3
    pass
    return n


# Chained assignment binds every target; an annotated assignment is an
# assignment; `x[i] += v` reads, adds and writes back.
# CHECK-LABEL: func.func @assignments
# CHECK: %[[C:.*]] = kiln.add %arg1, %arg1 : (i64, i64) -> i64
# CHECK: %[[S:.*]] = kiln.select %arg0[%c0_i64] {dim = 0 : i64} : tensor<?xf32> -> tensor<f32>
# CHECK: %[[A:.*]] = kiln.add %[[S]], %cst : (tensor<f32>, f64) -> tensor<f32>
# CHECK: kiln.select_scatter %arg0[%c0_i64{{.*}}] = %[[A]] {dim = 0 : i64}
# CHECK: kiln.mul %[[C]], %[[C]]
# kiln: x=f32[N]
@torch.jit.script
def assignments(x, n: int):
    a = b = n
    c: int = a + b
    x[0] += 1.0
    c *= c
    return x, c


# A break leaves only its own loop: the inner loop becomes scf.while with a
# flag, the outer loop stays an scf.for.
# CHECK-LABEL: func.func @nested_break
# CHECK: scf.for
# CHECK:   scf.while
# CHECK:     scf.condition
# CHECK:   } do {
# CHECK:   scf.yield
@torch.jit.script
def nested_break(n: int):
    count = 0
    for i in range(n):
        j = 0
        while True:
            if j >= i:
                break
            j += 1
            count += 1
    return count
