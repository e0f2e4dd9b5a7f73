#!/usr/bin/python3
"""Differential test of an nn.Module: kiln with trained weights against eager.

Usage: run_model.py BIN_DIR FILE.py CLASS [--rtol R] [--atol A]
                    [--init-arg NAME=VALUE ...]

As a user would, this script
  * builds CLASS(**init args) in eager PyTorch after torch.manual_seed(0)
    (a VALUE is a literal or an expression over FILE's names, as for
    `kiln compile --init-arg`), gives its
    floating buffers (BatchNorm running statistics) seeded non-trivial
    values, and puts it in eval mode;
  * writes its state_dict() to safetensors with safetensors.torch.save_file;
  * compiles FILE with `kiln compile FILE --entry CLASS --weights W -O<n>`
    into ONE archive per opt level (-O0 and -O2);
  * for every entry method (forward, and @torch.jit.export or
    @torch.jit.script_method methods) that has a `# kiln:` spec, and for
    each of the two dim assignments in run_eager.DIM_SETS (two batch sizes),
    runs the eager method and `kiln run ARCHIVE --entry METHOD` on the same
    seeded inputs, and compares outputs (same dtype and shape, values within
    RTOL/ATOL) and printed lines.

A torch.jit.ScriptModule is run eagerly as the nn.Module it would be
without scripting, so its print()s are Python's and can be compared.

It prints one line per method, opt level and dim set, then `all ok: N runs`;
anything else is a failure and the exit status is 1.
"""
import argparse
import ast
import os
import subprocess
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_eager  # noqa: E402  (specs, dim sets, seeded inputs)
import run_kiln  # noqa: E402  (kiln run, output and print comparison)
import save_state_dict  # noqa: E402

# oneDNN and PyTorch sum GEMM and convolution products in different orders,
# and kiln's tanh/exp/erf are polynomial approximations.
RTOL = 1e-4
ATOL = 1e-5


def load_eager(path):
    return run_eager.exec_eager(path, "kiln_model_eager")


def entry_methods(source, cls, path):
    """[(method name, spec, FunctionDef)] of the methods kiln compiles."""
    tree = ast.parse(source)
    lines = source.splitlines()
    for node in tree.body:
        if not (isinstance(node, ast.ClassDef) and node.name == cls):
            continue
        found = []
        for item in node.body:
            if not isinstance(item, ast.FunctionDef):
                continue
            decorators = [ast.unparse(d) for d in item.decorator_list]
            if item.name == "forward" or any(
                    d.endswith("jit.export") or d.endswith("jit.script_method")
                    for d in decorators):
                first = min([item.lineno] + [d.lineno for d in item.decorator_list])
                found.append((item.name, run_eager.spec_above(lines, first), item))
        return found
    raise ValueError("no class %s in %s" % (cls, path))


def init_kwargs(namespace, items):
    out = {}
    for item in items:
        key, _, text = item.partition("=")
        try:
            out[key] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            out[key] = eval(text, namespace)
    return out


def build_model(namespace, cls, kwargs):
    torch.manual_seed(0)
    model = namespace[cls](**kwargs)
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for name, buf in model.named_buffers():
            if not buf.is_floating_point():
                continue
            if name.endswith("running_var"):
                buf.copy_(torch.rand(buf.shape, generator=gen) + 0.5)
            elif name.endswith("running_mean"):
                buf.copy_(torch.randn(buf.shape, generator=gen) * 0.1)
    return model.eval()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir")
    parser.add_argument("path")
    parser.add_argument("cls")
    parser.add_argument("--rtol", type=float, default=RTOL)
    parser.add_argument("--atol", type=float, default=ATOL)
    parser.add_argument("--init-arg", action="append", default=[])
    parser.add_argument("--compile-arg", action="append", default=[],
                        help="one more flag for every kiln compile")
    args = parser.parse_args()
    run_kiln.RTOL, run_kiln.ATOL = args.rtol, args.atol
    save_state_dict.add_python_deps()

    namespace, source = load_eager(args.path)
    methods = entry_methods(source, args.cls, args.path)
    model = build_model(namespace, args.cls,
                        init_kwargs(namespace, args.init_arg))
    ok, runs = True, 0
    with tempfile.TemporaryDirectory(prefix="kiln-model-") as work:
        weights = os.path.join(work, "weights.safetensors")
        save_state_dict.save(model, weights)
        for opt in run_kiln.OPT_LEVELS:
            archive = os.path.join(work, "O%d.kiln" % opt)
            proc = subprocess.run(
                [os.path.join(args.bin_dir, "kiln"), "compile", args.path,
                 "--entry", args.cls, "--weights", weights, "-O%d" % opt,
                 "-o", archive]
                + ["--init-arg=" + a for a in args.init_arg]
                + args.compile_arg,
                capture_output=True, text=True)
            if proc.returncode != 0:
                print("-O%d: error: kiln compile failed: %s" % (opt, proc.stderr.strip()))
                ok = False
                continue
            for name, spec, funcdef in methods:
                params = [a.arg for a in funcdef.args.args if a.arg != "self"]
                for k, dims in enumerate(run_eager.DIM_SETS):
                    runs += 1
                    label = "%s.%s -O%d dims#%d" % (args.cls, name, opt, k)
                    ok &= run_kiln.check_run(
                        label,
                        lambda: run_eager.make_inputs(name, funcdef, spec, dims, k),
                        getattr(model, name), args.bin_dir, archive, name,
                        params, work)
    print("%s: %d runs" % ("all ok" if ok else "FAILED", runs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
