#!/usr/bin/python3
"""Proves that every example script is real PyTorch.

Usage: run_eager.py DIR

For each DIR/*.py (sorted) this script
  * imports the file normally, so every `@torch.jit.script` function is a
    real torch.jit.ScriptFunction (TorchScript compiled it);
  * executes the same source a second time with `torch.jit.script` replaced
    by the identity, which gives the plain eager Python functions;
  * reads each entry point's `# kiln: name=f32[N,4], ...` spec comment (the
    comment lines directly above the decorator, or above `def forward` of an
    nn.Module subclass), builds seeded inputs from it with two different
    assignments of the symbolic dims, and runs eager and TorchScript on them;
  * checks that the outputs agree (torch.allclose, rtol=1e-5, atol=1e-6) and
    that eager outputs are finite, and prints one line per entry point:
        NAME: eager ok, script ok, max diff D
    (modules also print the output shape of the first run), then a summary
    line `all ok: K entry points in F files`.

Prints made by the example code itself (eager `print` and TorchScript's
`print`, which writes through C++ stdout) are sent to stderr, so stdout holds
only the report. Exits with status 1 if anything failed.
"""
import ast
import contextlib
import ctypes
import importlib.util
import os
import re
import sys

import torch
import torch.nn as nn

RTOL = 1e-5
ATOL = 1e-6

DTYPES = {
    "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
    "f64": torch.float64, "i32": torch.int32, "i64": torch.int64,
    "bool": torch.bool,
}

# Two assignments of symbolic dims, so dynamic sizes are exercised twice.
# Unknown names get DEFAULT_DIM[k].  T=12 makes rnn's `t % 10 == 0` branch
# fire twice.
DIM_SETS = [
    {"B": 2, "N": 3, "M": 5, "D": 4, "K": 4, "T": 12, "I": 3, "H": 4, "O": 5},
    {"B": 3, "N": 5, "M": 2, "D": 7, "K": 3, "T": 4, "I": 5, "H": 6, "O": 2},
]
DEFAULT_DIM = [3, 5]

# Per-entry-point value range for float inputs (default: uniform in [-1, 1)).
# func squares ten times (x ** 1024), so it wants values near 1.
VALUE_RANGE = {"func": (0.99, 1.002)}

_libc = ctypes.CDLL(None)


@contextlib.contextmanager
def stdout_to_stderr():
    """Redirect Python and C-level stdout (TorchScript print) to stderr."""
    sys.stdout.flush()
    _libc.fflush(None)
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        _libc.fflush(None)
        os.dup2(saved, 1)
        os.close(saved)


SPEC_ARG = re.compile(r"\s*([A-Za-z_]\w*)\s*=\s*([A-Za-z0-9]+)\[([^\]]*)\]\s*$")


def parse_spec_text(text):
    """'x=f32[N,4], w=f32[4]' -> {'x': ('f32', ['N', 4]), 'w': ...}."""
    spec = {}
    # Split on commas outside brackets.
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    for part in parts:
        m = SPEC_ARG.match(part)
        if not m:
            raise ValueError("bad kiln spec entry %r" % part.strip())
        name, dtype, dims = m.groups()
        if dtype not in DTYPES:
            raise ValueError("unknown dtype %r in kiln spec" % dtype)
        dims = [d.strip() for d in dims.split(",") if d.strip()]
        dims = [int(d) if d.isdigit() else d for d in dims]
        spec[name] = (dtype, dims)
    return spec


def spec_above(lines, first_line):
    """Collects `# kiln:` comment lines directly above 1-based first_line."""
    texts = []
    i = first_line - 2
    while i >= 0 and lines[i].strip().startswith("# kiln:"):
        texts.insert(0, lines[i].strip()[len("# kiln:"):])
        i -= 1
    if not texts:
        return None
    spec = {}
    for t in texts:
        spec.update(parse_spec_text(t))
    return spec


def is_script_decorator(node):
    # @torch.jit.script
    return (isinstance(node, ast.Attribute) and node.attr == "script"
            and isinstance(node.value, ast.Attribute) and node.value.attr == "jit")


def spec_or_error(lines, first_line):
    try:
        return spec_above(lines, first_line)
    except ValueError as exc:
        return exc


def find_entry_points(source):
    """Returns [(kind, name, spec, funcdef)] for script functions and modules.

    spec is None when there is no spec comment, or a ValueError when it is
    malformed."""
    tree = ast.parse(source)
    lines = source.splitlines()
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any(
                is_script_decorator(d) for d in node.decorator_list):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            found.append(("function", node.name, spec_or_error(lines, first), node))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "forward":
                    first = min([item.lineno] + [d.lineno for d in item.decorator_list])
                    found.append(("module", node.name, spec_or_error(lines, first), item))
    return found


def make_inputs(name, funcdef, spec, dims, seed):
    gen = torch.Generator().manual_seed(seed)
    lo, hi = VALUE_RANGE.get(name, (-1.0, 1.0))
    args = []
    params = [a for a in funcdef.args.args if a.arg != "self"]
    for i, a in enumerate(params):
        ann = ast.unparse(a.annotation) if a.annotation is not None else None
        if spec is not None and a.arg in spec:
            dtype, shape = spec[a.arg]
            sizes = []
            for d in shape:
                if isinstance(d, int):
                    sizes.append(d)
                else:
                    sizes.append(dims.get(d, DEFAULT_DIM[seed % 2]))
            td = DTYPES[dtype]
            if td.is_floating_point:
                t = torch.rand(sizes, generator=gen) * (hi - lo) + lo
                args.append(t.to(td))
            elif td == torch.bool:
                args.append(torch.randint(0, 2, sizes, generator=gen).bool())
            else:
                args.append(torch.randint(0, 5, sizes, generator=gen).to(td))
        elif ann == "int":
            args.append(3)
        elif ann == "float":
            args.append(0.5)
        elif ann == "bool":
            args.append(True)
        else:
            raise ValueError("argument %r of %s has no kiln spec" % (a.arg, name))
    return args


def flatten(out):
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res.extend(flatten(o))
        return res
    return [out]


def compare(eager_out, script_out):
    """Returns (eager_finite, max_diff, close)."""
    e, s = flatten(eager_out), flatten(script_out)
    if len(e) != len(s):
        return True, float("inf"), False
    finite, max_diff, close = True, 0.0, True
    for a, b in zip(e, s):
        if isinstance(a, torch.Tensor):
            if not isinstance(b, torch.Tensor) or a.shape != b.shape or a.dtype != b.dtype:
                return finite, float("inf"), False
            a, b = a.detach(), b.detach()
            if a.is_floating_point():
                finite = finite and bool(torch.isfinite(a).all())
                if a.numel():
                    max_diff = max(max_diff, (a.double() - b.double()).abs().max().item())
                close = close and torch.allclose(a, b, rtol=RTOL, atol=ATOL)
            else:
                close = close and torch.equal(a, b)
        else:
            close = close and a == b
            if isinstance(a, float):
                max_diff = max(max_diff, abs(a - b))
    return finite, max_diff, close


def exec_eager(path, name):
    """Runs the script as plain Python with TorchScript's decorators as the
    identity, so that its functions and modules run eagerly. Returns (its
    namespace, its source)."""
    with open(path) as f:
        source = f.read()
    saved = (torch.jit.script, torch.jit.script_method, torch.jit.ScriptModule)
    torch.jit.script = lambda obj, *a, **k: obj
    torch.jit.script_method = lambda fn: fn
    torch.jit.ScriptModule = nn.Module
    namespace = {"__name__": name, "__file__": path}
    # Its imports of sibling files (`from layers import Block`) resolve as
    # they would for `python3 FILE`.
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        exec(compile(source, path, "exec"), namespace)
    finally:
        torch.jit.script, torch.jit.script_method, torch.jit.ScriptModule = saved
    return namespace, source


def load_both(path):
    """Returns (scripted module namespace, eager namespace)."""
    modname = "kiln_example_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    spec.loader.exec_module(mod)

    eager_ns, source = exec_eager(path, modname + "_eager")
    return mod, eager_ns, source


def run_file(path):
    """Returns (all ok, number of entry points checked)."""
    ok, count = True, 0
    mod, eager_ns, source = load_both(path)
    for kind, name, spec, funcdef in find_entry_points(source):
        count += 1
        if spec is None:
            print("%s: error: missing '# kiln:' spec comment" % name)
            ok = False
            continue
        if isinstance(spec, ValueError):
            print("%s: error: %s" % (name, spec))
            ok = False
            continue
        try:
            eager_ok, script_ok, max_diff, shape = True, True, 0.0, None
            for k, dims in enumerate(DIM_SETS):
                args = make_inputs(name, funcdef, spec, dims, k)
                if kind == "function":
                    scripted = getattr(mod, name)
                    if not isinstance(scripted, torch.jit.ScriptFunction):
                        raise TypeError("%s is not a torch.jit.ScriptFunction" % name)
                    eager_fn = eager_ns[name]
                    if isinstance(eager_fn, torch.jit.ScriptFunction):
                        raise TypeError("eager %s is scripted" % name)
                else:
                    cls = getattr(mod, name)
                    if not issubclass(cls, nn.Module):
                        raise TypeError("%s is not an nn.Module subclass" % name)
                    torch.manual_seed(0)
                    eager_fn = cls().eval()
                    scripted = torch.jit.script(eager_fn)
                with stdout_to_stderr(), torch.no_grad():
                    e_out = eager_fn(*[a.clone() if isinstance(a, torch.Tensor) else a
                                       for a in args])
                    s_out = scripted(*[a.clone() if isinstance(a, torch.Tensor) else a
                                       for a in args])
                finite, diff, close = compare(e_out, s_out)
                eager_ok = eager_ok and finite
                script_ok = script_ok and close
                max_diff = max(max_diff, diff)
                if shape is None and isinstance(e_out, torch.Tensor):
                    shape = tuple(e_out.shape)
            line = "%s: eager %s, script %s, max diff %g" % (
                name, "ok" if eager_ok else "FAILED (non-finite output)",
                "ok" if script_ok else "FAILED (mismatch)", max_diff)
            if kind == "module":
                line += ", output shape %s" % (shape,)
            print(line)
            ok = ok and eager_ok and script_ok
        except Exception as exc:  # report and keep going
            print("%s: error: %s: %s" % (name, type(exc).__name__, exc))
            ok = False
    return ok, count


def main():
    if len(sys.argv) != 2:
        print("usage: run_eager.py DIR", file=sys.stderr)
        return 2
    d = sys.argv[1]
    files = sorted(f for f in os.listdir(d) if f.endswith(".py"))
    ok, total = True, 0
    for f in files:
        print("== %s" % f)
        sys.stdout.flush()
        file_ok, count = run_file(os.path.join(d, f))
        ok, total = ok and file_ok, total + count
        sys.stdout.flush()
    print("%s: %d entry points in %d files" % ("all ok" if ok else "FAILED", total, len(files)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
