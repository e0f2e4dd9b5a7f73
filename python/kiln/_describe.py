"""Recording a live nn.Module as a kiln module description.

See docs/module-description.md for the format. Python has already run the
model's __init__, so whatever it did (layer factories, functools.partial,
dataclass configs, helpers that build layers) is done: this module only
records the result, the tree that forward() will read through `self`.
"""
import inspect
import json
import math
import os

import torch

from . import _safetensors

FORMAT = "kiln-module-description"
VERSION = 1
WEIGHTS_FILE = "weights.safetensors"

_INT64 = (-(1 << 63), (1 << 63) - 1)
# Attributes every nn.Module has (training, _parameters, hooks, ...): the
# module's machinery, not its constants.
_MODULE_INTERNALS = frozenset(vars(torch.nn.Module()))
_MAX_DEPTH = 32


class DescribeError(ValueError):
    """The module cannot be described (its class has no source file)."""


class _Opaque(Exception):
    pass


def _dtype_name(dtype):
    return str(dtype).replace("torch.", "")


def _const(value, depth=0):
    """A constant attribute as JSON, or _Opaque for anything else."""
    if depth > _MAX_DEPTH:
        raise _Opaque()
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        if not _INT64[0] <= value <= _INT64[1]:
            raise _Opaque()
        return int(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return float(value)
        return {"float": "nan" if math.isnan(value)
                else "inf" if value > 0 else "-inf"}
    if isinstance(value, torch.dtype):
        return {"dtype": _dtype_name(value)}
    if isinstance(value, tuple):  # also torch.Size and namedtuples
        return {"tuple": [_const(v, depth + 1) for v in value]}
    if isinstance(value, list):
        return [_const(v, depth + 1) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"dict": [[k, _const(v, depth + 1)] for k, v in value.items()]}
    raise _Opaque()


def _what(value):
    """How an attribute that is not a constant reads in an error message,
    with the fix where there is a usual one."""
    if inspect.isclass(value):
        return "the class %s.%s" % (value.__module__, value.__qualname__)
    if isinstance(value, torch.Tensor):
        return ("a plain tensor, which is not a weight; make it one with "
                "nn.Parameter(...) or self.register_buffer(...)")
    if isinstance(value, (list, tuple)) and any(
            isinstance(v, torch.nn.Module) for v in value):
        return ("a plain %s of modules, which nn.Module does not register; "
                "use nn.ModuleList" % type(value).__name__)
    if isinstance(value, dict) and any(
            isinstance(v, torch.nn.Module) for v in value.values()):
        return ("a plain dict of modules, which nn.Module does not register; "
                "use nn.ModuleDict")
    if isinstance(value, int) and not isinstance(value, bool):
        return "an int that does not fit in 64 bits, as TorchScript's int must"
    if inspect.isfunction(value) or inspect.ismethod(value):
        return "the function %s" % value.__qualname__
    kind = type(value)
    return "a %s.%s" % (kind.__module__, kind.__qualname__)


def _is_torch_class(cls):
    return cls.__module__.startswith("torch.nn.modules.")


def _class_of(module):
    cls = type(module)
    if _is_torch_class(cls):
        return {"torch": cls.__name__}
    try:
        path = inspect.getsourcefile(cls)
    except TypeError:
        path = None
    if not path:  # a module loaded without sys.modules: ask its methods
        for value in vars(cls).values():
            code = getattr(value, "__code__", None)
            if code is not None and os.path.isfile(code.co_filename):
                path = code.co_filename
                break
    if not path:
        raise DescribeError(
            "class %s has no source file (it was defined interactively?); "
            "kiln compiles forward from source, so define it in a .py file"
            % cls.__qualname__)
    out = {"file": os.path.abspath(path), "qualname": cls.__qualname__}
    base = next((k for k in cls.__mro__[1:] if _is_torch_class(k)), None)
    if base is not None:  # class Stage(nn.Sequential): Sequential's forward
        out["torch_base"] = base.__name__
    return out


def _class_constants(cls):
    """Constants set in a user class body (torchvision's `expansion = 4`),
    nearest class first, as Python looks them up."""
    out = {}
    for klass in cls.__mro__:
        if klass is torch.nn.Module or _is_torch_class(klass):
            break
        for name, value in vars(klass).items():
            if name.startswith("__") or name in out:
                continue
            try:
                out[name] = _const(value)
            except _Opaque:
                pass
    return out


def _join(prefix, name):
    return prefix + "." + name if prefix else name


class _Recorder:
    def __init__(self, sources):
        self.sources = sources
        self.modules = []
        self.paths = {}    # id(module) -> path
        self.tensors = {}  # id(tensor) -> its state_dict() name
        self.weights = {}  # name -> tensor, for the safetensors file

    def tensor(self, name, full, tensor, extra=None):
        first = self.tensors.get(id(tensor))
        if first is not None:
            return {"name": name, "same_as": first}
        self.tensors[id(tensor)] = full
        self.weights[full] = tensor
        out = {"name": name, "dtype": _dtype_name(tensor.dtype),
               "shape": list(tensor.shape)}
        out.update(extra or {})
        return out

    def visit(self, module, path):
        self.paths[id(module)] = path
        entry = {"path": path, "class": _class_of(module),
                 "training": module.training}
        if id(module) in self.sources:
            entry["source"] = self.sources[id(module)]
        self.modules.append(entry)  # before its children: pre-order
        attrs, opaque = {}, {}
        if "file" in entry["class"]:
            attrs.update(_class_constants(type(module)))
        for name, value in vars(module).items():
            if name in _MODULE_INTERNALS:
                continue
            try:
                attrs[name] = _const(value)
            except _Opaque:
                attrs.pop(name, None)
                opaque[name] = _what(value)
        params = []
        for name, p in module._parameters.items():
            if p is None:
                attrs[name] = None
            else:
                params.append(self.tensor(name, _join(path, name), p))
        buffers = []
        for name, b in module._buffers.items():
            if b is None:
                attrs[name] = None
                continue
            persistent = name not in module._non_persistent_buffers_set
            buffers.append(self.tensor(name, _join(path, name), b,
                                       {"persistent": persistent}))
        entry.update(attributes=attrs, parameters=params, buffers=buffers,
                     children=[], opaque=opaque)
        for name, child in module._modules.items():
            if child is None:
                attrs[name] = None
                continue
            if id(child) in self.paths:  # shared: the first path names it
                entry["children"].append(
                    {"name": name, "module": self.paths[id(child)]})
                continue
            child_path = _join(path, name)
            entry["children"].append({"name": name, "module": child_path})
            self.visit(child, child_path)


def describe(module, path, weights=WEIGHTS_FILE, sources=None):
    """Writes the description of `module` to `path` (JSON) and its weights
    to `weights` (safetensors; relative to the description's folder; None
    writes none). `sources` maps id(submodule) to where the source created
    it ({"file", "line", "col", "end_col"}). Returns the description as a
    dict."""
    if not isinstance(module, torch.nn.Module):
        raise TypeError("kiln.describe takes an nn.Module instance, not %s"
                        % type(module).__name__)
    recorder = _Recorder(sources or {})
    recorder.visit(module, "")
    description = {"format": FORMAT, "version": VERSION,
                   "modules": recorder.modules}
    if weights is not None:
        description["weights"] = weights
    folder = os.path.dirname(os.path.abspath(path))
    with open(path, "w") as f:
        json.dump(description, f, indent=1, allow_nan=False)
    if weights is not None:
        _safetensors.save(recorder.weights, os.path.join(folder, weights))
    return description
