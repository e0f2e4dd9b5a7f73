# --emit=ast prints the syntax tree with line:col of every node; top-level
# code outside functions is not part of it.
# RUN: kiln compile %s --emit=ast | FileCheck %s --match-full-lines
import torch

# CHECK: Import @4:1 torch
# CHECK-NEXT: FunctionDef f @[[@LINE+2]]:1 [decorators: torch.jit.script]
# CHECK-NEXT:   Param n @[[@LINE+2]]:7 : int
@torch.jit.script
def f(n: int):
    return -2 ** n + (n if n > 0 else 1)
# CHECK-NEXT:   Return @[[@LINE-1]]:5
# Unary minus binds looser than **: -(2 ** n).
# CHECK-NEXT:     BinOp + @{{.*}}
# CHECK-NEXT:       UnaryOp - @{{.*}}
# CHECK-NEXT:         BinOp ** @{{.*}}
# CHECK:       IfExp @{{.*}}
# CHECK-NOT: train
for epoch in range(3):
    train = 1


# raise, with a message and with a cause; a bare raise.
# CHECK:      FunctionDef raises @[[@LINE+1]]:1
def raises(n: int):
    raise ValueError("no") from None
# CHECK:        Raise @[[@LINE-1]]:5
# CHECK-NEXT:     Call @[[@LINE-2]]:11
# CHECK:          None @[[@LINE-3]]:33
    raise
# CHECK-NEXT:   Raise @[[@LINE-1]]:5
