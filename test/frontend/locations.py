# Every op carries a FileLineColLoc pointing at the Python source; the
# locations survive a print/parse round trip.
# RUN: kiln compile %s --emit=ir --locations | FileCheck %s
# RUN: kiln compile %s --emit=ir --locations | kiln-opt --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
import torch


# CHECK-LABEL: func.func @f
# CHECK: kiln.mul %arg0, %arg0 : {{.*}} loc("{{.*}}locations.py":[[@LINE+5]]:11)
# CHECK: kiln.tanh %{{.*}} loc("{{.*}}locations.py":[[@LINE+5]]:12)
# kiln: x=f32[N]
@torch.jit.script
def f(x):
    y = x * x
    return y.tanh()
