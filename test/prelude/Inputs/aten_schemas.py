#!/usr/bin/python3
"""Every torch.ops.aten.N that kiln answers through its op table binds
ATen's positional arguments as ATen does, or is refused.

kiln.trace writes torch.jit.trace's calls as torch.ops.aten.N(...): ATen's
positional parameters in order (trailing defaults left out), keyword-only
ones by name, dtypes as ints. kiln answers with the rows spelled torch.N,
else the method Tensor.N (in-place for N_; the first argument is self),
else F.N (LowerTensorMethods.cpp, callAten): a row whose parameters differ
from ATen's would compute something else without a word. So for each such
N, each non-out ATen overload must agree with some overload of kiln's row
(every ATen positional parameter i is kiln's parameter i: positional, same
type family, not another ATen parameter's name, same default), or kiln
must refuse it: compiling it with ATen-style arguments exits 1 with an
error. Names with no agreeing overload are listed in KNOWN_REFUSED.

Usage: aten_schemas.py KILN; prints `ok N` per agreeing name, MISMATCH
and FAILED lines, and `all ok: K names` when nothing failed.
"""
import ast
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

import torch

# Names none of whose ATen overloads agrees with kiln's row; kiln refuses
# the ATen call (the script checks this for every overload) instead of
# miscompiling it.
KNOWN_REFUSED = {
    # ATen's losses take `int reduction` (1 = mean) positionally; kiln's
    # rows have a keyword-only `str reduction`: too many positional
    # arguments. (With reduction left at its default they bind as ATen's.)
    "binary_cross_entropy", "kl_div", "l1_loss", "mse_loss", "nll_loss",
    "smooth_l1_loss",
    # ATen's elu has scale and input_scale after alpha; F.elu does not.
    "elu",
    # ATen's norms end with cudnn_enabled, which F.X does not take.
    # instance_norm also orders weight, bias before running_mean/var.
    "group_norm", "instance_norm", "layer_norm",
    # ATen's to() ends with memory_format, and takes dtypes as ints.
    "to",
}

# ATen overloads that agree with none of kiln's but that kiln binds with
# ATen's meaning, and why.
SAME_MEANING = {
    # kiln's torch.split takes one int as the size of each piece.
    "split.Tensor",
}

# ATen type -> family; kiln's binder converts within a family.
FAMILIES = [
    (r"Tensor\??", "tensor"),
    (r"(int|float|bool|Scalar|SymInt)\??", "number"),
    (r"(int|SymInt)\[\d*\]\??", "int list"),
    (r"str\??", "str"),
    (r"ScalarType\??", "dtype"),
    (r"Tensor\??\[\]", "tensor list"),
    (r"Device\??", "device"),
    (r"Layout\??", "layout"),
]
# An ATen-style argument for a parameter of an ATen type, as the trace
# writes it (dtypes are ints); None for the types kiln has no family for.
LITERALS = {"tensor": "x", "number": "1", "int list": "[1]", "str": '"a"',
            "dtype": "6", "tensor list": "[x, x]",
            "device": 'torch.device("cpu")', "float": "1.5",
            "bool": "False", "str[1]": '["a"]', "str[]": '["a"]'}


def family(t):
    for pattern, name in FAMILIES:
        if re.fullmatch(pattern, t):
            return name
    return t


# (a), (a!), (b|a), (a -> *): ATen's alias annotations.
_ALIAS = re.compile(r"\([a-z]+(\|[a-z]+)*!?( -> \*)?\)")


def parse(text):
    """[(type, name, positional, default or None)] of a schema's
    parameters."""
    inner = _ALIAS.sub("", text).split("(", 1)[1].rsplit(") -> ", 1)[0]
    params, positional = [], True
    for arg in re.split(r",\s*(?![^\[]*\])", inner) if inner else []:
        if arg == "*":
            positional = False
            continue
        decl, eq, default = ("... ..." if arg == "..." else arg).partition("=")
        t, name = decl.strip().rsplit(" ", 1)
        params.append((t, name, positional, default if eq else None))
    return params


def value(default):
    """A default's value: [] and None both mean "not given"."""
    try:
        v = ast.literal_eval(default)
    except (ValueError, SyntaxError):
        return default
    return None if v == [] else v


def disagreement(kiln, aten):
    """Why kiln's parameters do not bind ATen's positional ones, or None."""
    k, a = parse(kiln), [p for p in parse(aten) if p[2]]
    names = [p[1] for p in a]
    for i, (t, name, _, default) in enumerate(a):
        if i >= len(k) or not k[i][2]:
            return "ATen's %s (#%d) is not positional in kiln" % (name, i)
        kt, kname, _, kdefault = k[i]
        # kiln's Tensor parameters after the first take Python numbers,
        # as ATen's Scalar overloads (add.Scalar) do.
        scalar_as_tensor = i > 0 and t.rstrip("?") == "Scalar" and \
            family(kt) == "tensor"
        if family(t) != family(kt) and not scalar_as_tensor:
            return "ATen's %s %s (#%d) is kiln's %s %s" % (
                t, name, i, kt, kname)
        if kname != name and kname in names:
            return "kiln's #%d is ATen's %s (#%d)" % (
                i, kname, names.index(kname))
        if None not in (default, kdefault) and value(default) != \
                value(kdefault):
            return "%s defaults to %s in ATen, %s in kiln" % (
                name, default, kdefault)
    for t, name, positional, default in k[len(a):]:
        if positional and default is None:
            return "kiln's %s has no default and ATen does not give it" % name
    return None


def picked(rows, name):
    """The schemas of the rows torch.ops.aten.<name> resolves to, or []; F.X
    also takes `inplace` where PyTorch's does (f_inplace_arg)."""
    for prefix in ("torch.", "Tensor.", "F."):
        found = [r["schema"].replace(") -> ", ", bool inplace=False) -> ", 1)
                 if prefix == "F." and r["f_inplace_arg"] else r["schema"]
                 for r in rows if prefix + name in r["spellings"]]
        if found:
            return found
    return []


def probe(kiln, tmp, n, name, aten):
    """Compiles torch.ops.aten.<name> with ATen-style arguments for the
    overload `aten`: (refused, the call, kiln's first error line)."""
    args = ", ".join(LITERALS.get(t.rstrip("?"), LITERALS.get(family(t)))
                     or "None" for t, _, pos, _ in parse(aten) if pos)
    call = "torch.ops.aten.%s(%s)" % (name, args)
    src = os.path.join(tmp, "p%d.py" % n)
    with open(src, "w") as f:
        f.write("import torch\nfrom torch import Tensor\n\n\n# kiln: "
                "x=f32[B,3]\ndef fn(x: Tensor):\n    return %s\n" % call)
    run = subprocess.run([kiln, "compile", src, "--entry", "fn", "-o",
                          os.path.join(tmp, "p%d.kiln" % n)],
                         capture_output=True, text=True)
    error = run.stderr.strip().split("\n")[0]
    # Refused: exit 1 (not a signal) with an error.
    return (run.returncode == 1 and "error:" in error, call,
            error or "exit %d" % run.returncode)


def main():
    kiln = sys.argv[1]
    rows = json.loads(subprocess.run([kiln, "ops", "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    names = sorted({s.split(".", 1)[1] for r in rows for s in r["spellings"]
                    if s.split(".", 1)[0] in ("torch", "Tensor", "F")})
    failed, checked, agreed, jobs = [], 0, 0, []
    pool = concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 4)
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            aten = [(s.overload_name, str(s)) for s in
                    torch._C._jit_get_schemas_for_operator("aten::" + name)
                    if not s.overload_name.endswith("out")]
            if not aten:
                continue
            checked += 1
            kiln_rows = picked(rows, name)
            others = [(o, a) for o, a in aten
                      if all(disagreement(k, a) for k in kiln_rows)]
            agreed += len(aten) - len(others)
            if len(others) < len(aten):
                print("ok", name)
                if name in KNOWN_REFUSED:
                    failed.append(name + " agrees: drop it from KNOWN_REFUSED")
            else:
                k = kiln_rows[0]  # vs the ATen overload of closest arity
                o, a = min(aten, key=lambda oa: abs(
                    len(parse(oa[1])) - len(parse(k))))
                print("MISMATCH %s: kiln %s vs aten %s (%s)"
                      % (name, k, a, disagreement(k, a)))
                if name not in KNOWN_REFUSED:
                    failed.append(name + ": no ATen overload agrees, and "
                                  "it is not in KNOWN_REFUSED")
            for o, a in others:
                jobs.append((name, o, a, kiln_rows, pool.submit(
                    probe, kiln, tmp, len(jobs), name, a)))
        refused = 0
        for name, o, a, kiln_rows, job in jobs:
            ok, call, error = job.result()
            full = name + ("." + o if o else "")
            if ok:
                refused += 1
                if name in KNOWN_REFUSED:
                    print("refused %s: %s" % (call, error.split(": ", 1)[1]))
            elif full not in SAME_MEANING:
                print("MISMATCH %s: kiln %s vs aten %s (%s); kiln compiles "
                      "%s: %s" % (full, " | ".join(kiln_rows), a,
                                  disagreement(kiln_rows[0], a), call, error))
                failed.append(full + " binds ATen's arguments otherwise")
    for name in sorted(KNOWN_REFUSED - set(names)):
        failed.append(name + " in KNOWN_REFUSED is no kiln spelling")
    for f in failed:
        print("FAILED:", f)
    if failed:
        sys.exit(1)
    print("all ok: %d names (%d ATen overloads agree, %d refused)"
          % (checked, agreed, refused))


if __name__ == "__main__":
    main()
