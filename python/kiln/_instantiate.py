"""Builds an instance of a class from a source file and describes it.

`kiln compile FILE --entry Class` runs this script with Debian's python3,
with the folder that holds the kiln package on PYTHONPATH:

    python3 .../kiln/_instantiate.py FILE CLASS OUTDIR [--init-arg K=V ...]
        [--seed N] [--no-weights] [--memory-bytes N]

It is a script rather than `-m kiln._instantiate` because the package
imports torch, and a python3 without torch must get kiln's one-line error,
not a traceback.

It runs FILE as a module (TorchScript's decorators made the identity, so
that nothing is scripted: kiln compiles the methods from source), builds
CLASS(**init_args) after torch.manual_seed(N), puts it in eval mode, and
writes OUTDIR/module.json and OUTDIR/weights.safetensors with
kiln.describe. A failure the user can fix is written to OUTDIR/error.json
(the message and the traceback's frames, so that kiln can point at the
line in FILE) with exit status 3; any other exit status is kiln's fault.
"""
import argparse
import ast
import importlib.util
import inspect
import json
import os
import resource
import sys
import traceback

ERROR_FILE = "error.json"
USER_ERROR = 3


class UserError(Exception):
    """A failure with a message of our own, and where to point instead of
    a traceback."""

    def __init__(self, message, frames=()):
        super().__init__(message)
        self.frames = list(frames)


def _class_frame(cls):
    """The frame that points at `class NAME` in its file."""
    try:
        lines, first = inspect.getsourcelines(cls)
        path = os.path.abspath(inspect.getsourcefile(cls))
    except (OSError, TypeError):
        return []
    for offset, text in enumerate(lines):
        col = text.find("class " + cls.__name__)
        if col >= 0:
            col += len("class ") + 1
            return [{"file": path, "line": first + offset, "col": col,
                     "end_line": first + offset,
                     "end_col": col + len(cls.__name__), "function": ""}]
    return []


def _frames(tb):
    return [{"file": os.path.abspath(f.filename), "line": f.lineno,
             "col": (f.colno or 0) + 1, "end_line": f.end_lineno or f.lineno,
             "end_col": (f.end_colno or 0) + 1, "function": f.name}
            for f in traceback.extract_tb(tb)]


def _fail(outdir, message, frames=()):
    with open(os.path.join(outdir, ERROR_FILE), "w") as f:
        json.dump({"message": message, "frames": list(frames)}, f)
    sys.exit(USER_ERROR)


def _init_args(items, namespace):
    """`K=V` pairs: V is a Python literal, or else an expression over the
    file's globals (`norm_layer=nn.BatchNorm2d`)."""
    out = {}
    for item in items:
        key, eq, text = item.partition("=")
        if not eq or not key.isidentifier():
            raise UserError("--init-arg %r: expected NAME=VALUE" % item)
        try:
            out[key] = ast.literal_eval(text)
            continue
        except (ValueError, SyntaxError):
            pass
        try:
            out[key] = eval(compile(text, "--init-arg " + key, "eval"),
                            namespace)
        except Exception as e:
            raise UserError("--init-arg %s=%s: %s: %s"
                            % (key, text, type(e).__name__, e))
    return out


class _NoScripting:
    """TorchScript's decorators as the identity while the file runs: kiln
    compiles forward from source, and scripting could refuse what kiln
    accepts."""

    def __enter__(self):
        import torch
        jit = torch.jit
        self.saved = (jit.script, jit.script_method, jit.ScriptModule)
        jit.script = lambda obj, *a, **k: obj
        jit.script_method = lambda fn: fn
        jit.ScriptModule = torch.nn.Module

    def __exit__(self, *exc):
        import torch
        (torch.jit.script, torch.jit.script_method,
         torch.jit.ScriptModule) = self.saved


def _load(path):
    name = os.path.splitext(os.path.basename(path))[0]
    if not name.isidentifier() or name in sys.modules:
        name = "_kiln_user_" + str(abs(hash(path)))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    # Registered before it runs, as an import would: dataclasses and
    # inspect.getsourcefile look classes up through sys.modules.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class _RecordSources:
    """Where each module is created in FILE, so that kiln's errors about a
    weight point at the line that made it (`self.fc = nn.Linear(...)`):
    the innermost frame in FILE that is not the module's own __init__."""

    def __init__(self, path):
        self.path = path
        self.sources = {}  # id(module) -> {"file", "line", "col", "end_col"}

    def __enter__(self):
        import torch
        self.original = original = torch.nn.Module.__init__
        record = self.record

        def init(module, *args, **kwargs):
            original(module, *args, **kwargs)
            record(module, sys._getframe(1))

        torch.nn.Module.__init__ = init

    def __exit__(self, *exc):
        import torch
        torch.nn.Module.__init__ = self.original

    def record(self, module, frame):
        while frame is not None and (
                frame.f_locals.get("self") is module
                or os.path.abspath(frame.f_code.co_filename) != self.path):
            frame = frame.f_back
        if frame is None:
            return
        where = getattr(inspect.getframeinfo(frame, 0), "positions", None)
        if where and where.lineno and where.col_offset is not None:
            end = where.end_col_offset
            if where.end_lineno != where.lineno or end is None:
                end = where.col_offset + 1
            self.sources[id(module)] = {
                "file": self.path, "line": where.lineno,
                "col": where.col_offset + 1, "end_col": end + 1}


def _build(args, sources):
    import torch
    torch.manual_seed(args.seed)
    # Only while the classes are made: a ScriptModule subclass then derives
    # from nn.Module, and __init__ later runs against the real torch.jit.
    with _NoScripting():
        module = _load(args.file)
    cls = getattr(module, args.cls, None)
    if cls is None:
        raise UserError("%s defines no '%s'" % (args.file, args.cls))
    if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module)):
        raise UserError("'%s' is not an nn.Module class" % args.cls,
                        _class_frame(cls) if isinstance(cls, type) else [])
    kwargs = _init_args(args.init_arg, vars(module))
    try:
        signature = inspect.signature(cls)
        signature.bind(**kwargs)
    except TypeError as e:
        raise UserError("%s(): %s; give constructor arguments with "
                        "--init-arg NAME=VALUE" % (args.cls, e),
                        _class_frame(cls))
    except ValueError:  # no signature to check: let the call say
        pass
    with sources:
        instance = cls(**kwargs)
    return instance.eval()


def _out_of_memory(e):
    # torch's allocator raises RuntimeError, Python's MemoryError.
    return isinstance(e, MemoryError) or (
        isinstance(e, RuntimeError) and "can't allocate memory" in str(e))


def main():
    parser = argparse.ArgumentParser(prog="_instantiate.py")
    parser.add_argument("file")
    parser.add_argument("cls")
    parser.add_argument("outdir")
    parser.add_argument("--init-arg", action="append", default=[])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-weights", action="store_true")
    parser.add_argument("--memory-bytes", type=int, default=0)
    args = parser.parse_args()
    args.file = os.path.abspath(args.file)
    # The user's folders are left as they were: no __pycache__ in them.
    sys.dont_write_bytecode = True
    # FILE's folder, as `python3 FILE` would have, instead of this one's.
    sys.path[0] = os.path.dirname(args.file)
    if args.memory_bytes:
        # A 40 GB nn.Linear must fail here, not take the machine down.
        resource.setrlimit(resource.RLIMIT_DATA,
                           (args.memory_bytes, args.memory_bytes))
    try:
        import torch  # noqa: F401
    except ImportError as e:
        _fail(args.outdir, "this python3 cannot import torch (%s)" % e)
    try:
        sources = _RecordSources(args.file)
        instance = _build(args, sources)
        from kiln._describe import describe
        describe(instance, os.path.join(args.outdir, "module.json"),
                 weights=None if args.no_weights else "weights.safetensors",
                 sources=sources.sources)
    except UserError as e:
        _fail(args.outdir, str(e), e.frames)
    except Exception as e:
        if _out_of_memory(e):
            message = ("building the instance needed more than the %d GiB "
                       "of memory kiln lets __init__ use"
                       % (args.memory_bytes >> 30))
        else:
            message = "".join(
                traceback.format_exception_only(type(e), e)).strip()
        # The innermost frames say where; a RecursionError has a thousand.
        _fail(args.outdir, message, _frames(e.__traceback__)[-16:])


if __name__ == "__main__":
    main()
