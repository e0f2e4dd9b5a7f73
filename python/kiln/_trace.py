"""kiln.trace: record a model with torch.jit.trace, write what it recorded
as Python source, and compile that.

torch.jit.trace keeps, for every submodule it ran, the code of each call
as TorchScript's Python subset over ATen-level calls (`.code`: torch.
_convolution(...), torch.batch_norm(...), getattr(self, "0")). kiln
compiles Python source, so this module writes one class per distinct
recorded code (instances whose code is the same share a class), builds a
live instance of those classes that holds the traced model's weights, and
hands it to kiln.compile. Control flow is what the example inputs took:
the trace froze it, as it does in PyTorch.
"""
import importlib.util
import inspect
import math
import os
import re
import sys
import tempfile

import torch

from ._compiler import compile as _compile

_HEADER = '''\
# Written by kiln.trace from torch.jit.trace of {what}: the code the trace
# recorded, with ATen's ops spelled torch.ops.aten.X.
from typing import List, Optional, Tuple

import torch
from torch import Tensor

'''
# Values the trace captured as constants: code_with_constants names them
# CONSTANTS.c0, ...
_CONSTANT = re.compile(r"\bCONSTANTS\.(c\d+)\b")
# What a generated class name may not hold.
_NOT_IDENT = re.compile(r"[^0-9A-Za-z_]")
# The code calls ATen ops as torch.X, which TorchScript's loader reads as
# aten::X; written out, they are torch.ops.aten.X, which means the same in
# eager PyTorch and in kiln (torch.linear, torch.add_ are not Python's).
_ATEN_CALL = re.compile(r"\btorch\.(?!ops\.|device\b)([A-Za-z_]\w*)\(")
# ops.prim.NumToTensor: TorchScript's loader knows `ops`; Python needs torch.
_PRIM = re.compile(r"(?<![\w.])ops\.prim\.")
# TorchScript prints the type of None as NoneType (`-> NoneType:`).
_NONE_TYPE = re.compile(r"\bNoneType\b")


def _as_python(code):
    """The trace's code as Python that eager PyTorch and kiln both read."""
    code = _ATEN_CALL.sub(r"torch.ops.aten.\1(", code)
    return _NONE_TYPE.sub("None", _PRIM.sub("torch.ops.prim.", code))


def _constant_text(name, value, captured):
    """How the code spells a constant of the trace: a captured tensor is a
    buffer of the module reading it, a number is itself."""
    if isinstance(value, torch.Tensor):
        captured["_kiln_" + name] = value
        return "self._kiln_" + name
    if isinstance(value, int):  # bool too
        return repr(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "float('%r')" % value
    raise NotImplementedError(
        "kiln.trace: the trace captured a constant of type %s"
        % type(value).__name__)


def _methods(traced):
    """[(name, code)] of a traced module's methods, forward first, with
    the tensors the code captured ({buffer name: tensor})."""
    if not traced._c._method_names():  # a container forward never called
        return [], {}
    _, constants = traced.code_with_constants
    captured = {}
    text = {name: _constant_text(name, value, captured)
            for name, value in constants.const_mapping.items()}
    out = []
    for name in traced._c._method_names():
        code = traced._c._get_method(name).code
        code = _CONSTANT.sub(lambda m: text[m.group(1)], code)
        out.append((name, _as_python(code)))
    out.sort(key=lambda m: m[0] != "forward")
    return out, captured


def _class_source(name, methods):
    lines = ["class %s(torch.nn.Module):" % name]
    if not methods:
        lines.append("    pass")
    for _, code in methods:
        lines += ["    " + line if line else "" for line in
                  code.rstrip("\n").split("\n")]
        lines.append("")
    return "\n".join(lines) + "\n"


class _Writer:
    """The classes of a traced module tree, one per distinct code."""

    def __init__(self):
        self.by_code = {}   # tuple of method codes -> class name
        self.names = set()
        # The names _HEADER imports, which a class must not shadow.
        self.taken = {"torch", "Tensor", "List", "Optional", "Tuple"}
        self.sources = []
        self.plan = []      # (traced submodule, class name, captured)

    def visit(self, traced):
        methods, captured = _methods(traced)
        key = tuple(code for _, code in methods)
        name = self.by_code.get(key)
        if name is None:
            base = _NOT_IDENT.sub("_", traced.original_name) or "Module"
            name, n = base, 1
            while name in self.names or name in self.taken:
                n += 1
                name = "%s_%d" % (base, n)
            self.names.add(name)
            self.by_code[key] = name
            self.sources.append(_class_source(name, methods))
        self.plan.append((traced, name, captured))
        for child in traced.children():
            self.visit(child)


def _load_module(path):
    name = "_kiln_traced_%d" % abs(hash(path))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # inspect.getsourcefile looks here
    spec.loader.exec_module(module)
    return module


class _Builder:
    """Live instances of the written classes, holding the traced model's
    tensors; a tensor shared by two modules (tied weights) stays shared."""

    def __init__(self, classes):
        self.classes = classes
        self.made = {}
        self.tensors = {}

    def _same(self, tensor, parameter):
        key = (tensor.data_ptr(), tuple(tensor.shape), tuple(tensor.stride()),
               tensor.dtype)
        if key not in self.tensors:
            self.tensors[key] = (torch.nn.Parameter(tensor.detach(), False)
                                 if parameter else tensor.detach())
        return self.tensors[key]

    def build(self, traced, names):
        if id(traced) in self.made:
            return self.made[id(traced)]
        cls = self.classes[names[id(traced)][0]]
        module = cls.__new__(cls)
        torch.nn.Module.__init__(module)
        module.training = traced.training
        self.made[id(traced)] = module
        for name, p in traced.named_parameters(recurse=False):
            module.register_parameter(name, self._same(p, True))
        for name, b in traced.named_buffers(recurse=False):
            module.register_buffer(name, self._same(b, False))
        for name, c in names[id(traced)][1].items():
            module.register_buffer(name, c.detach())
        for name, child in traced.named_children():
            module.add_module(name, self.build(child, names))
        return module


def _trace_function(fn, example_inputs):
    """The trace of a plain function, recorded as the forward of a module
    that calls it: a module's trace keeps the constants it captured
    (code_with_constants), a function's does not. Its parameters keep the
    function's names."""
    params = ", ".join(inspect.signature(fn).parameters)
    scope = {"torch": torch, "fn": fn}
    exec("class Function(torch.nn.Module):\n"
         "    def forward(self, %s):\n"
         "        return fn(%s)\n" % (params, params), scope)
    return torch.jit.trace(scope["Function"](), example_inputs)


def _write_function(fn, traced, path):
    """Writes the traced forward as the top-level function fn.__name__."""
    methods, captured = _methods(traced)
    if captured:
        raise NotImplementedError(
            "kiln.trace of a function that captured tensors (%s): trace a "
            "module holding them as buffers instead" % ", ".join(captured))
    code = re.sub(r"^def forward\(self,?\s*", "def %s(" % fn.__name__,
                  methods[0][1])
    with open(path, "w") as f:
        f.write(_HEADER.format(what=fn.__qualname__) + code)


def trace(obj, example_inputs, output="m.kiln", dynamic=None, opt=2,
          source=None):
    """Compiles what torch.jit.trace(obj, example_inputs) records: `obj`
    is an nn.Module instance or a function. `example_inputs` (a tensor or
    tuple) fixes the shapes, except the dims `dynamic` names
    ({"x": {0: "B"}}). The trace freezes control flow and every Python
    number the model computes from the example; see docs/from-pytorch.md.
    `source` keeps the written Python there (else it is temporary).
    Raises kiln.CompileError with the compiler's diagnostic, which points
    into that source; returns `output`."""
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    module = isinstance(obj, torch.nn.Module)
    if not module and not inspect.isfunction(obj):
        raise TypeError("kiln.trace takes an nn.Module instance or a plain "
                        "function, not %r" % (obj,))
    with torch.no_grad():
        traced = (torch.jit.trace(obj, tuple(example_inputs)) if module
                  else _trace_function(obj, tuple(example_inputs)))
    with tempfile.TemporaryDirectory(prefix="kiln-trace-") as work:
        path = os.path.abspath(source or os.path.join(work, "traced.py"))
        if not module:
            _write_function(obj, traced, path)
            fn = getattr(_load_module(path), obj.__name__)
            return _compile(fn, example_inputs=example_inputs,
                            dynamic=dynamic, output=output, opt=opt)
        writer = _Writer()
        writer.visit(traced)
        with open(path, "w") as f:
            f.write(_HEADER.format(what=type(obj).__qualname__))
            f.write("\n\n".join(writer.sources))
        loaded = _load_module(path)
        classes = {n: getattr(loaded, n) for n in writer.names}
        names = {id(t): (n, c) for t, n, c in writer.plan}
        model = _Builder(classes).build(traced, names)
        return _compile(model, example_inputs=example_inputs,
                        dynamic=dynamic, output=output, opt=opt)
