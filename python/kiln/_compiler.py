"""kiln.compile: run the kiln compiler on a live module (described first)
or on a top-level function (from its source file)."""
import builtins
import inspect
import os
import shutil
import subprocess
import sys
import tempfile

import torch

from ._describe import describe


class CompileError(RuntimeError):
    """kiln compile failed; the message is the compiler's full diagnostic
    (file, line, caret), as it printed it."""


def kiln_binary():
    """The kiln compiler: $KILN_BIN, else the kiln this package was installed
    or built with (<prefix>/bin/kiln for <prefix>/share/kiln/python/kiln),
    else the kiln of the build tree of the checkout it sits in
    (<checkout>/build/bin/kiln), else `kiln` on PATH."""
    path = os.environ.get("KILN_BIN")
    if path:
        return path
    here = os.path.dirname(os.path.abspath(__file__))
    for built in (os.path.join(here, "..", "..", "..", "..", "bin", "kiln"),
                  os.path.join(here, "..", "..", "build", "bin", "kiln")):
        if os.path.isfile(built) and os.access(built, os.X_OK):
            return os.path.normpath(built)
    found = shutil.which("kiln")
    if not found:
        raise FileNotFoundError(
            "cannot find the kiln compiler: set KILN_BIN to its path or put "
            "it on PATH")
    return found


def _spec(tensor, dims):
    """`f32[B,3,32,32]` for an example tensor; `dims` maps a dim's index to
    the name of a size that varies."""
    sizes = [str(dims.get(i, s)) for i, s in enumerate(tensor.shape)]
    return "%s[%s]" % (str(tensor.dtype).replace("torch.", ""),
                       ",".join(sizes))


def _params(obj):
    """The names of the inputs: forward's for a module, the function's own
    otherwise."""
    if isinstance(obj, torch.jit.ScriptFunction):
        return [a.name for a in obj.schema.arguments]
    fn = obj.forward if isinstance(obj, torch.nn.Module) else obj
    return list(inspect.signature(fn).parameters)


def _function_source(fn):
    """(source file, name) of a top-level function, plain or scripted:
    kiln compiles it from its file, as `kiln compile FILE --entry NAME`."""
    if isinstance(fn, torch.jit.ScriptFunction):
        # A ScriptFunction keeps no source file: find the module holding it
        # (its qualified_name misses a script's __main__).
        name = fn.name
        module = next((m for m in list(sys.modules.values())
                       if getattr(m, name, None) is fn), None)
        path = getattr(module, "__file__", None)
    elif inspect.isfunction(fn) and "." not in fn.__qualname__:
        path, name = inspect.getsourcefile(fn), fn.__name__
    else:
        raise TypeError(
            "kiln.compile takes an nn.Module instance or a top-level "
            "function (plain or @torch.jit.script), not %r" % (fn,))
    if not path:
        raise TypeError("%s has no source file to compile it from" % name)
    return os.path.abspath(path), name


def _args_from_examples(obj, example_inputs, dynamic):
    params = _params(obj)
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    if len(example_inputs) > len(params):
        raise ValueError("%d example inputs for forward(%s)"
                         % (len(example_inputs), ", ".join(params)))
    args = {}
    for name, value in zip(params, example_inputs):
        if not isinstance(value, torch.Tensor):
            raise TypeError("example input %r is not a tensor" % name)
        args[name] = _spec(value, (dynamic or {}).get(name, {}))
    return args


def compile(obj, args=None, example_inputs=None, dynamic=None,
            output="m.kiln", opt=2, target="cpu", entries=None):
    """Compiles `obj` into the archive `output`: a live nn.Module (its
    forward and @torch.jit.export methods, with the instance's attributes
    and weights), or a top-level function, plain or @torch.jit.script,
    compiled from its source file with the helpers it calls.

    Shapes come from `args` ({"x": "f32[B,3,224,224]"}) or from
    `example_inputs` (a tensor or tuple, in forward's order), where
    `dynamic` ({"x": {0: "B"}}) names the dims that vary. The module is
    compiled in eval mode. Raises CompileError with the compiler's
    diagnostic on failure; returns `output`.
    """
    if target != "cpu":
        raise ValueError("kiln compiles for target='cpu' only")
    if entries is not None:
        raise NotImplementedError(
            "entries: kiln compiles forward and the @torch.jit.export "
            "methods of the module")
    if args is None and example_inputs is not None:
        args = _args_from_examples(obj, example_inputs, dynamic)
    with tempfile.TemporaryDirectory(prefix="kiln-describe-") as work:
        if isinstance(obj, torch.nn.Module):
            desc_path = os.path.join(work, "module.json")
            description = describe(obj, desc_path)
            source = description["modules"][0]["class"]["file"]
            what = ["--module-description", desc_path]
        else:
            source, name = _function_source(obj)
            what = ["--entry", name]
        cmd = [kiln_binary(), "compile", source] + what + [
            "-O%d" % builtins.int(opt), "-o", output]
        for name, spec in (args or {}).items():
            cmd += ["--arg", "%s=%s" % (name, spec)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CompileError(proc.stderr.rstrip("\n"))
    return output
