"""kiln from Python: compile a live nn.Module ahead of time.

    import kiln
    model = MyNet(norm_layer=nn.BatchNorm2d).eval()
    kiln.compile(model, args={"x": "f32[B,3,32,32]"}, output="m.kiln")

Python runs the model's __init__, so anything it does is fine; kiln
records the instance (kiln.describe: its module tree, constant attributes
and weights; docs/module-description.md) and compiles the forward (and
@torch.jit.export methods) of its class from source with those values.
Use it with Debian's python3 by putting this folder on the path:
PYTHONPATH=<kiln checkout>/python. It needs torch and numpy only.
"""
from ._describe import DescribeError, describe  # noqa: F401
from ._compiler import CompileError, compile, kiln_binary  # noqa: F401

__all__ = ["compile", "describe", "kiln_binary", "CompileError",
           "DescribeError"]
