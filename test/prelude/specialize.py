# A prelude function is specialized on its constant arguments: inside it,
# `dim` is a constant (the reductions get static dims), `if weight is
# None:` and `if reduction == 'mean':` are decided while compiling, and
# each call gets its own copy, whose ops are located at the user's call
# (so are run-time check sites; see runtime-sites.test).
#
# RUN: kiln compile %s --emit=ir --locations | FileCheck %s
import torch
import torch.nn.functional as F


# CHECK-LABEL: func.func @f
# CHECK: call @prelude_logsumexp({{.*}} loc("{{.*}}specialize.py":[[@LINE+16]]:9)
# CHECK: call @prelude_logsumexp_1({{.*}} loc("{{.*}}specialize.py":[[@LINE+16]]:9)
# CHECK: call @prelude_cross_entropy({{.*}} loc("{{.*}}specialize.py":[[@LINE+16]]:9)
# CHECK-LABEL: func.func private @prelude_logsumexp(
# CHECK: kiln.amax %arg0 {dims = array<i64: 1>, keepdim = true} {{.*}} loc("{{.*}}specialize.py":[[@LINE+12]]:9)
# CHECK-LABEL: func.func private @prelude_logsumexp_1(
# CHECK: kiln.amax %arg0 {dims = array<i64: 0>, keepdim = true} {{.*}} loc("{{.*}}specialize.py":[[@LINE+11]]:9)
# CHECK-LABEL: func.func private @prelude_cross_entropy(
# CHECK: call @prelude_nll_loss(
# The 'sum' specialization of nll_loss with no weight: no division.
# CHECK-LABEL: func.func private @prelude_nll_loss(
# CHECK-NOT: kiln.div
# CHECK: return
# kiln: x=f32[B,5], t=i64[B]
@torch.jit.script
def f(x, t):
    a = torch.logsumexp(x, 1)
    b = torch.logsumexp(x, 0)
    c = F.cross_entropy(x, t, reduction='sum')
    return a, b, c
