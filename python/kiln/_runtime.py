"""kiln.load: run a .kiln archive from Python through the C++ runtime.

This is ctypes over the runtime's C API (runtime/include/kiln/kiln.h), not
a compiled binding module: nothing to build or install, no tie to one
Python ABI, and the C API is already the stable, versioned ABI that C
programs use. Inputs are read in place (a contiguous CPU tensor or array is
never copied); each result is copied once out of the runtime's memory into
a torch tensor that owns it.
"""
import ctypes
import ctypes.util
import os
import threading

import numpy as np
import torch

from ._compiler import kiln_binary

# The functions used here exist from this version on; the API only ever
# gains functions (kiln.h, "Versions"), so a newer library serves too.
_C_API_VERSION = 4

# kiln/abi.h's kiln_dtype, in its order.
_DTYPES = [("f32", torch.float32, np.float32),
           ("f64", torch.float64, np.float64),
           ("f16", torch.float16, np.float16),
           ("bf16", torch.bfloat16, None),  # numpy has no bfloat16
           ("i32", torch.int32, np.int32),
           ("i64", torch.int64, np.int64),
           ("bool", torch.bool, np.bool_)]
_TORCH_TO_KILN = {t: i for i, (_, t, _) in enumerate(_DTYPES)}
_NUMPY_TO_KILN = {np.dtype(n): i for i, (_, _, n) in enumerate(_DTYPES)
                  if n is not None}


class RunError(RuntimeError):
    """A run or load that kiln refused or that failed. The message is the
    runtime's own (with the script's file, line and caret for an error
    raised by compiled code), or says which input is wrong and why; `code`
    is the C API's status name ("KILN_STATUS_INVALID_ARGUMENT", ...)."""

    __module__ = "kiln"  # tracebacks say kiln.RunError, as users spell it

    def __init__(self, message, code="KILN_STATUS_INVALID_ARGUMENT"):
        super().__init__(message)
        self.code = code


_P = ctypes.c_void_p
_SIGNATURES = {
    "kiln_c_api_version": (ctypes.c_int, []),
    "kiln_status_get_code": (ctypes.c_int, [_P]),
    "kiln_status_message": (ctypes.c_char_p, [_P]),
    "kiln_status_free": (None, [_P]),
    "kiln_status_code_name": (ctypes.c_char_p, [ctypes.c_int]),
    "kiln_tensor_wrap": (_P, [ctypes.c_int, ctypes.POINTER(ctypes.c_int64),
                              ctypes.c_size_t, _P, ctypes.c_size_t,
                              ctypes.POINTER(_P)]),
    "kiln_tensor_free": (None, [_P]),
    "kiln_tensor_dtype": (ctypes.c_int, [_P]),
    "kiln_tensor_rank": (ctypes.c_size_t, [_P]),
    "kiln_tensor_shape": (ctypes.POINTER(ctypes.c_int64), [_P]),
    "kiln_tensor_byte_size": (ctypes.c_size_t, [_P]),
    "kiln_tensor_data": (_P, [_P]),
    "kiln_model_load": (_P, [ctypes.c_char_p, ctypes.POINTER(_P)]),
    "kiln_model_free": (None, [_P]),
    "kiln_model_entry_count": (ctypes.c_size_t, [_P]),
    "kiln_model_entry": (_P, [_P, ctypes.c_size_t]),
    "kiln_model_find_entry": (_P, [_P, ctypes.c_char_p, ctypes.POINTER(_P)]),
    "kiln_entry_name": (ctypes.c_char_p, [_P]),
    "kiln_entry_input_count": (ctypes.c_size_t, [_P]),
    "kiln_entry_output_count": (ctypes.c_size_t, [_P]),
    "kiln_entry_input": (_P, [_P, ctypes.c_size_t]),
    "kiln_entry_output": (_P, [_P, ctypes.c_size_t]),
    "kiln_value_name": (ctypes.c_char_p, [_P]),
    "kiln_value_dtype": (ctypes.c_int, [_P]),
    "kiln_value_is_optional": (ctypes.c_int, [_P]),
    "kiln_value_default": (_P, [_P]),
    "kiln_value_str_choice_count": (ctypes.c_size_t, [_P]),
    "kiln_value_str_choice": (ctypes.c_char_p, [_P, ctypes.c_size_t]),
    "kiln_value_rank": (ctypes.c_size_t, [_P]),
    "kiln_value_dim": (ctypes.c_int64, [_P, ctypes.c_size_t]),
    "kiln_value_dim_symbol": (ctypes.c_char_p, [_P, ctypes.c_size_t]),
    "kiln_model_run": (_P, [_P, ctypes.c_char_p, ctypes.POINTER(_P),
                            ctypes.c_size_t, ctypes.POINTER(_P),
                            ctypes.c_size_t]),
}

_lib = None
_lib_lock = threading.Lock()


def _candidates():
    path = os.environ.get("KILN_RUNTIME_LIB")
    if path:
        return [path]
    found = []
    try:
        # build/bin/kiln -> build/lib, and <prefix>/bin -> <prefix>/lib.
        bin_dir = os.path.dirname(os.path.abspath(kiln_binary()))
        built = os.path.join(bin_dir, "..", "lib", "libkiln_runtime.so")
        if os.path.exists(built):
            found.append(os.path.normpath(built))
    except FileNotFoundError:
        pass
    return found or [ctypes.util.find_library("kiln_runtime")]


def runtime_library():
    """The loaded libkiln_runtime (ctypes.CDLL): $KILN_RUNTIME_LIB, else
    lib/libkiln_runtime.so next to the compiler's bin/ (kiln_binary()),
    else the system's. Raises RunError for a C API older than this
    package needs."""
    global _lib
    with _lib_lock:
        if _lib is None:
            _lib = _open_library(_candidates()[0])
        return _lib


def _open_library(path):
    if path is None:
        raise FileNotFoundError(
            "cannot find libkiln_runtime.so in the lib/ beside the kiln "
            "compiler's bin/ or on the system: set KILN_RUNTIME_LIB to it")
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise FileNotFoundError("cannot load the kiln runtime: %s (set "
                                "KILN_RUNTIME_LIB to libkiln_runtime.so)"
                                % e) from None
    if not hasattr(lib, "kiln_c_api_version"):
        raise RunError("%s is not the kiln runtime: it has no "
                       "kiln_c_api_version" % path, "KILN_STATUS_UNSUPPORTED")
    lib.kiln_c_api_version.restype = ctypes.c_int
    version = lib.kiln_c_api_version()
    if version < _C_API_VERSION:
        raise RunError(
            "%s implements kiln C API version %d, but this kiln package "
            "needs version %d or newer: use the runtime built with this "
            "package's compiler, or set KILN_RUNTIME_LIB"
            % (path, version, _C_API_VERSION), "KILN_STATUS_UNSUPPORTED")
    for name, (restype, argtypes) in _SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib


def _check(lib, status):
    """Raises the RunError of a non-NULL kiln_status*, freeing it."""
    if not status:
        return
    try:
        message = lib.kiln_status_message(status).decode("utf-8", "replace")
        code = lib.kiln_status_code_name(lib.kiln_status_get_code(status))
    finally:
        lib.kiln_status_free(status)
    raise RunError(message, code.decode())


def _text(raw):
    return raw.decode("utf-8") if raw is not None else None


class _Value:
    """One input or output of an entry point, read from the C API."""

    def __init__(self, lib, handle):
        self.name = _text(lib.kiln_value_name(handle))
        self.dtype = lib.kiln_value_dtype(handle)
        self.optional = bool(lib.kiln_value_is_optional(handle))
        self.choices = [_text(lib.kiln_value_str_choice(handle, i)) for i in
                        range(lib.kiln_value_str_choice_count(handle))]
        self.dims = []
        for i in range(lib.kiln_value_rank(handle)):
            size = lib.kiln_value_dim(handle, i)
            self.dims.append(size if size >= 0 else
                             _text(lib.kiln_value_dim_symbol(handle, i)))
        self.default = self._read_default(lib.kiln_value_default(handle))

    def _read_default(self, ptr):
        if not ptr:
            return None
        if self.dtype == 5:  # i64
            value = ctypes.c_int64.from_address(ptr).value
            return self.choices[value] if self.choices else value
        if self.dtype == 1:  # f64
            return ctypes.c_double.from_address(ptr).value
        return bool(ctypes.c_uint8.from_address(ptr).value)

    @property
    def spec(self):
        """How kiln's --arg spells it: f32[N,4], i64, str:relu|gelu."""
        if self.choices:
            return "str:" + "|".join(self.choices)
        dtype = _DTYPES[self.dtype][0]
        if not self.dims:
            return dtype
        return "%s[%s]" % (dtype, ",".join(str(d) for d in self.dims))

    def describe(self):
        text = "%s: %s" % (self.name, self.spec)
        if self.optional:
            text = "%s: Optional[%s]" % (self.name, self.spec)
        if self.default is not None:
            return "%s = %r" % (text, self.default)
        return text + (" = None" if self.optional else "")

    def wants(self):
        """What the input takes, for messages."""
        if self.choices:
            return "a str, one of %s" % ", ".join(map(repr, self.choices))
        if not self.dims:
            return {"bool": "a bool", "i32": "an int (i32)",
                    "i64": "an int (i64)"}.get(
                        _DTYPES[self.dtype][0],
                        "a float (%s)" % _DTYPES[self.dtype][0])
        return "a %s tensor" % self.spec


def _param_name(value_name):
    """`xs` for `xs.1`, an element of a List or Tuple parameter."""
    return value_name.split(".", 1)[0]


def _flatten(value):
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _flatten(item)]
    return [value]


class _Signature:
    """An entry point's inputs and outputs, read once from the C API."""

    def __init__(self, lib, handle):
        self.name = _text(lib.kiln_entry_name(handle))
        self.inputs = [_Value(lib, lib.kiln_entry_input(handle, i))
                       for i in range(lib.kiln_entry_input_count(handle))]
        self.outputs = [_Value(lib, lib.kiln_entry_output(handle, i))
                        for i in range(lib.kiln_entry_output_count(handle))]
        # Python parameters, in order, each with the indices of its values
        # (one, or one per element of a List or Tuple parameter).
        self.params = {}
        for index, value in enumerate(self.inputs):
            self.params.setdefault(_param_name(value.name), []).append(index)


class Entry:
    """An entry point of a loaded archive; call it like the function:
    positional or keyword inputs by their Python names. It keeps its
    Model open as long as it lives."""

    def __init__(self, model, signature):
        self._model = model
        self.name = signature.name
        self._inputs = signature.inputs
        self._outputs = signature.outputs
        self._params = signature.params

    @property
    def inputs(self):
        """The Python parameter names, in order."""
        return list(self._params)

    @property
    def outputs(self):
        """The result names: result0, result1, ..., or a dict's keys."""
        return [v.name for v in self._outputs]

    def __repr__(self):
        return "%s(%s) -> (%s)" % (
            self.name, ", ".join(v.describe() for v in self._inputs),
            ", ".join("%s: %s" % (v.name, v.spec) for v in self._outputs))

    def __call__(self, *args, **kwargs):
        given = self._bind(args, kwargs)
        keep = []  # what the wrapped inputs point into, alive until the run
        lib = self._model._lib
        handles = (_P * max(len(self._inputs), 1))()
        try:
            for param, indices in self._params.items():
                if param not in given:
                    continue
                leaves = self._leaves(param, indices, given[param])
                for index, leaf in zip(indices, leaves):
                    handles[index] = self._wrap(self._inputs[index], leaf,
                                                keep)
            return self._run(handles)
        finally:
            for handle in handles:
                lib.kiln_tensor_free(handle)

    def _bind(self, args, kwargs):
        params = list(self._params)
        if len(args) > len(params):
            raise TypeError("%s() takes %d inputs (%s), but %d were given"
                            % (self.name, len(params), ", ".join(params),
                               len(args)))
        given = dict(zip(params, args))
        for key, value in kwargs.items():
            if key not in self._params:
                raise TypeError("%s() got an unknown input %r; its inputs "
                                "are %s" % (self.name, key, ", ".join(params)))
            if key in given:
                raise TypeError("%s() got multiple values for input %r"
                                % (self.name, key))
            given[key] = value
        for param, indices in self._params.items():
            omittable = all(self._inputs[i].optional or
                            self._inputs[i].default is not None
                            for i in indices)
            if param not in given and not omittable:
                raise TypeError("%s() is missing input %r" % (self.name, param))
        return given

    def _leaves(self, param, indices, value):
        names = [self._inputs[i].name for i in indices]
        if names == [param]:
            return [value]
        leaves = _flatten(value)
        if len(leaves) != len(indices):
            raise RunError("input %r of %r is a list or tuple of %d elements "
                           "(%s), but got %s of %d" % (
                               param, self.name, len(indices),
                               ", ".join(names), type(value).__name__,
                               len(leaves)))
        return leaves

    def _wrap(self, value, leaf, keep):
        """A kiln_tensor over `leaf`'s memory, or NULL for None."""
        if leaf is None:
            return None  # None, or the default: the runtime decides
        data = _as_tensor(value, leaf, self.name)
        keep.append(data)
        if isinstance(data, np.ndarray):
            dtype, ptr = _NUMPY_TO_KILN[data.dtype], data.ctypes.data
            size = data.nbytes
        else:
            dtype, ptr = _TORCH_TO_KILN[data.dtype], data.data_ptr()
            size = data.numel() * data.element_size()
        lib = self._model._lib
        shape = (ctypes.c_int64 * max(data.ndim, 1))(*data.shape)
        out = _P()
        _check(lib, lib.kiln_tensor_wrap(dtype, shape, data.ndim, ptr or None,
                                         size, ctypes.byref(out)))
        return out.value

    def _run(self, handles):
        lib = self._model._lib
        count = len(self._outputs)
        outputs = (_P * max(count, 1))()
        _check(lib, lib.kiln_model_run(
            self._model._live_handle(), self.name.encode(), handles,
            len(self._inputs), outputs, count))
        try:
            results = [_to_torch(lib, outputs[i]) for i in range(count)]
        finally:
            for i in range(count):
                lib.kiln_tensor_free(outputs[i])
        names = self.outputs
        if names == ["result%d" % i for i in range(count)]:
            if count == 0:
                return None
            return results[0] if count == 1 else tuple(results)
        return dict(zip(names, results))


def _to_torch(lib, handle):
    """A torch tensor that owns a copy of the runtime tensor `handle`."""
    rank = lib.kiln_tensor_rank(handle)
    shape = lib.kiln_tensor_shape(handle)
    dims = [shape[i] for i in range(rank)]
    result = torch.empty(dims, dtype=_DTYPES[lib.kiln_tensor_dtype(handle)][1])
    size = lib.kiln_tensor_byte_size(handle)
    if size:
        ctypes.memmove(result.data_ptr(), lib.kiln_tensor_data(handle), size)
    return result


def _as_tensor(value, leaf, entry):
    """`leaf` as a contiguous CPU torch tensor or numpy array of `value`'s
    dtype; refuses what does not fit, naming the input, and never casts a
    tensor or array."""
    where = "input %r of %r" % (value.name, entry)
    kiln_dtype = _DTYPES[value.dtype][0]
    if value.choices:
        if not isinstance(leaf, str):
            raise RunError("%s takes %s, but got %s"
                           % (where, value.wants(), type(leaf).__name__))
        if leaf not in value.choices:
            raise RunError("%s is one of %s, but got %r (the archive was "
                           "compiled for those values only)"
                           % (where, ", ".join(map(repr, value.choices)), leaf))
        return torch.tensor(value.choices.index(leaf), dtype=torch.int64)
    if isinstance(leaf, (bool, int, float)):
        return _scalar(value, leaf, where)
    if isinstance(leaf, (np.ndarray, np.generic)):
        array = np.asarray(leaf)
        if array.dtype not in _NUMPY_TO_KILN:
            raise RunError("%s is %s, but got a numpy array of %s, which "
                           "kiln has no dtype for" % (where, kiln_dtype,
                                                      array.dtype))
        if _NUMPY_TO_KILN[array.dtype] != value.dtype:
            raise RunError("%s is %s, but got a numpy array of %s (kiln "
                           "does not cast: convert it with .astype)"
                           % (where, kiln_dtype,
                              _DTYPES[_NUMPY_TO_KILN[array.dtype]][0]))
        return np.array(array, order="C", copy=False)
    if not isinstance(leaf, torch.Tensor):
        raise RunError("%s takes %s (a torch tensor or numpy array), but got "
                       "%s" % (where, value.wants(), type(leaf).__name__))
    if leaf.device.type != "cpu":
        raise RunError("%s is on %s; kiln runs on the CPU: pass it with "
                       ".cpu()" % (where, leaf.device))
    if _TORCH_TO_KILN.get(leaf.dtype) != value.dtype:
        raise RunError("%s is %s, but got a tensor of %s (kiln does not "
                       "cast: convert it with .to(torch.%s))"
                       % (where, kiln_dtype, leaf.dtype,
                          str(_DTYPES[value.dtype][1]).split(".")[1]))
    return leaf.detach().contiguous()


def _scalar(value, leaf, where):
    """A rank-0 tensor for a Python number, accepted as TorchScript does:
    an int for a float, but never a float for an int, nor a bool for a
    number."""
    kind = _DTYPES[value.dtype][0]
    fits = {"bool": isinstance(leaf, bool),
            "i32": isinstance(leaf, int) and not isinstance(leaf, bool),
            "i64": isinstance(leaf, int) and not isinstance(leaf, bool)}
    ok = fits.get(kind, not isinstance(leaf, bool))
    if value.dims or not ok:
        raise RunError("%s takes %s, but got a Python %s"
                       % (where, value.wants(), type(leaf).__name__))
    return torch.tensor(leaf, dtype=_DTYPES[value.dtype][1])


class Model:
    """A loaded .kiln archive (kiln.load). Its entry points are callable:
    `model.forward(x)`, `model["forward"](x)` or `model.run("forward", x)`.
    Frees the runtime's model on close(), at the end of a `with` block, or
    when collected."""

    def __init__(self, path):
        self._lib = runtime_library()
        self._handle = None
        self.path = os.fspath(path)
        handle = _P()
        _check(self._lib, self._lib.kiln_model_load(
            os.fsencode(self.path), ctypes.byref(handle)))
        self._handle = handle.value
        # Signatures, not Entry objects: an Entry refers to its Model, and
        # a cycle would delay freeing the model until a garbage collection.
        self._entries = {}
        for i in range(self._lib.kiln_model_entry_count(self._handle)):
            sig = _Signature(self._lib,
                             self._lib.kiln_model_entry(self._handle, i))
            self._entries[sig.name] = sig

    @property
    def entries(self):
        """The entry points' names, in the archive's order."""
        return list(self._entries)

    def _live_handle(self):
        if self._handle is None:
            raise RunError("the model %r is closed" % self.path)
        return self._handle

    def __getitem__(self, name):
        if name not in self._entries:
            found = _P()
            _check(self._lib, self._lib.kiln_model_find_entry(
                self._live_handle(), name.encode(), ctypes.byref(found)))
        return Entry(self, self._entries[name])

    def __getattr__(self, name):
        entries = self.__dict__.get("_entries", {})
        if name in entries:
            return Entry(self, entries[name])
        raise AttributeError("%r has no entry point or attribute %r"
                             % (self.__dict__.get("path", "model"), name))

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._entries))

    def run(self, name, *args, **kwargs):
        """Runs entry point `name` on the inputs, as self[name](...)."""
        return self[name](*args, **kwargs)

    def close(self):
        handle, self._handle = self._handle, None
        if handle is not None:
            self._lib.kiln_model_free(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_handle", None) is not None:
            self.close()

    def __repr__(self):
        return "<kiln.Model %r: %s>" % (
            self.path, "; ".join(repr(self[name]) for name in self._entries))


def load(path):
    """Loads the .kiln archive at `path` through kiln's C++ runtime and
    returns a Model whose entry points take torch tensors, numpy arrays
    and Python scalars and return torch tensors. Raises RunError with the
    runtime's message for a file that cannot be read or is no archive."""
    return Model(path)
