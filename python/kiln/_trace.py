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
import os
import re
import sys
import tempfile

import torch

from ._compiler import compile as _compile

_HEADER = '''\
# Written by kiln.trace from torch.jit.trace of {what}.
# Each class holds the code the trace recorded for one or more submodules.
from typing import List, Optional, Tuple

import torch
from torch import Tensor

'''
# Tensors the trace captured as constants: code_with_constants names them
# CONSTANTS.c0, ...; they become buffers of the module that reads them.
_CONSTANT = re.compile(r"\bCONSTANTS\.(c\d+)\b")
_IDENT = re.compile(r"[^0-9A-Za-z_]")
# The code calls ATen ops as torch.X, which TorchScript's loader reads as
# aten::X; written out, they are torch.ops.aten.X, which means the same in
# eager PyTorch and in kiln (torch.linear, torch.add_ are not Python's).
_ATEN_CALL = re.compile(r"\btorch\.(?!ops\.|device\b)([A-Za-z_]\w*)\(")


_PRIM = re.compile(r"(?<![\w.])ops\.prim\.")


def _aten(code):
    return _PRIM.sub("torch.ops.prim.",
                     _ATEN_CALL.sub(r"torch.ops.aten.\1(", code))


def _methods(traced):
    """[(name, code)] of a traced module's methods, forward first, with
    the tensors the code captured ({name: tensor})."""
    if not traced._c._method_names():  # a container forward never called
        return [], {}
    code, constants = traced.code_with_constants
    captured = {}
    for match in set(_CONSTANT.findall(code)):
        captured["_kiln_" + match] = getattr(constants, match)
    out = []
    for name in traced._c._method_names():
        text = traced._c._get_method(name).code
        out.append((name, _aten(_CONSTANT.sub(r"self._kiln_\1", text))))
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
        self.sources = []
        self.plan = []      # (traced submodule, class name, captured)

    def visit(self, traced):
        methods, captured = _methods(traced)
        key = tuple(code for _, code in methods)
        name = self.by_code.get(key)
        if name is None:
            base = _IDENT.sub("_", traced.original_name) or "Module"
            name, n = base, 1
            while name in self.names:
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


def _write_function(traced, path):
    code, constants = traced.code_with_constants
    if _CONSTANT.search(code):
        raise NotImplementedError(
            "kiln.trace of a function that captured tensors (%s): trace a "
            "module holding them as buffers instead"
            % ", ".join(sorted(set(_CONSTANT.findall(code)))))
    with open(path, "w") as f:
        f.write(_HEADER.format(what=traced.name) + _aten(code))
    return traced.name


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
    with torch.no_grad():
        traced = torch.jit.trace(obj, tuple(example_inputs))
    with tempfile.TemporaryDirectory(prefix="kiln-trace-") as work:
        path = os.path.abspath(source or os.path.join(work, "traced.py"))
        if isinstance(traced, torch.jit.ScriptFunction):
            name = _write_function(traced, path)
            fn = getattr(_load_module(path), name)
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
