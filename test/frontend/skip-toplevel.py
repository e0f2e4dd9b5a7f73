# kiln parses only imports, functions and classes at the top level. A training
# loop, an `if __name__ == "__main__":` block and any other statement are
# skipped unparsed, and a function or class that fails to parse is reported
# only when an entry point reaches it.

# The file compiles: only the script entry `scale` is lowered.
# RUN: kiln compile %s --emit=ir 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK-LABEL: func.func @scale(
# CHECK-SAME: %arg0: tensor<?x4xf32> {kiln.dims = ["B", "4"], kiln.name = "x"}) -> tensor<?x4xf32> attributes {kiln.entry}
# CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.000000e+00 : f64
# CHECK-NEXT: %[[R:.*]] = kiln.mul %arg0, %[[TWO]] : (tensor<?x4xf32>, f64) -> tensor<?x4xf32>
# CHECK-NEXT: return %[[R]] : tensor<?x4xf32>
# CHECK-NEXT: }
# CHECK-NEXT: }

# The AST shows what was skipped: the helper and the class, each with the
# first error that stopped its parse; the top-level statements leave no trace.
# RUN: kiln compile %s --emit=ast 2>&1 | FileCheck %s --check-prefix=AST
# AST: {{^}}FunctionDef scale @[[@LINE+23]]:1 [decorators: torch.jit.script]
# AST: {{^}}FunctionDef uses_train_step @[[@LINE+29]]:1
# AST: {{^}}Skipped function 'train_step' @[[@LINE+32]]:1: with is not supported (at [[@LINE+33]]:5)
# AST: {{^}}Skipped class 'Odd' @[[@LINE+40]]:1: async is not supported (at [[@LINE+46]]:5)
# AST-NOT: Skipped
# AST-NOT: For
# AST-NOT: If

# Calling the bad helper from an entry reports the helper's own error, then
# the call that reached it.
# RUN: not kiln compile %s --emit=ir --entry uses_train_step 2>&1 | FileCheck %s --check-prefix=CALL --strict-whitespace --implicit-check-not=error:
# CALL: {{^.*}}skip-toplevel.py:[[@LINE+24]]:5: error: with is not supported{{$}}
# CALL-NEXT: {{^}}    with torch.no_grad():{{$}}
# CALL-NEXT: {{^}}    ^~~~{{$}}
# CALL-NEXT: {{^.*}}skip-toplevel.py:[[@LINE+17]]:12: error: 'train_step' could not be parsed (see the error above){{$}}
# CALL-NEXT: {{^}}    return train_step(x, x){{$}}
# CALL-NEXT: {{^}}           ^~~~~~~~~~{{$}}

import torch
import torch.nn as nn


# kiln: x=f32[B,4]
@torch.jit.script
def scale(x):
    return x * 2.0


# Not a script function: compiled only when named with --entry.
# kiln: x=f32[B,4]
def uses_train_step(x):
    return train_step(x, x)


def train_step(model, batch):
    with torch.no_grad():
        try:
            out = model(batch)
        except RuntimeError:
            out = None
    return out


class Odd:
    evens = [i for i in range(10) if i % 2 == 0]

    def method(self, *args, **kwargs):
        yield from args

    async def later(self):
        await self.method()


model = nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    with torch.enable_grad():
        loss = model(torch.randn(8, 4)).sum()
    try:
        loss.backward()
    except Exception as e:
        print(f"step {epoch} failed: {e}")
    opt.step()
squares = {k: k * k for k in range(3)}
double = lambda a: a * 2
del squares

if __name__ == "__main__":
    print(scale(torch.ones(2, 4)))
