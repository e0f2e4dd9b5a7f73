"""kiln from Python: compile a live nn.Module ahead of time, and run the
archive through kiln's C++ runtime to check it against the model.

    import kiln
    model = MyNet(norm_layer=nn.BatchNorm2d).eval()
    kiln.compile(model, args={"x": "f32[B,3,32,32]"}, output="m.kiln")
    with kiln.load("m.kiln") as m:
        y = m.forward(torch.randn(2, 3, 32, 32))

Python runs the model's __init__, so anything it does is fine; kiln
records the instance (kiln.describe: its module tree, constant attributes
and weights; docs/module-description.md) and compiles the forward (and
@torch.jit.export methods) of its class from source with those values.
kiln.compile(fn, args=...) compiles a top-level function, plain or
@torch.jit.script, from its source file. kiln.trace(model, example)
compiles what torch.jit.trace records, for models script refuses; control
flow is the example's (docs/from-pytorch.md).
kiln.load runs any archive's entry points on torch tensors, numpy arrays
and Python scalars through libkiln_runtime's C API (ctypes), returning
torch tensors; a refused input or a failed run raises kiln.RunError.
Use it with Debian's python3 by putting this folder on the path:
PYTHONPATH=<kiln checkout>/python, or <prefix>/share/kiln/python after
`cmake --install`. It needs torch and numpy only.
"""
from ._describe import DescribeError, describe  # noqa: F401
from ._compiler import CompileError, compile, kiln_binary  # noqa: F401
from ._runtime import Model, RunError, load  # noqa: F401
from ._trace import trace  # noqa: F401

__all__ = ["compile", "describe", "load", "trace", "kiln_binary", "CompileError",
           "DescribeError", "Model", "RunError"]
