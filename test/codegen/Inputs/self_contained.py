#!/usr/bin/python3
"""Compiles many scripts and checks every code object's imports.

Usage: self_contained.py KILN ALLOWED.txt WORKDIR PATH...

Each PATH is a .py file or a directory of them. A file's
@torch.jit.script functions are compiled together, and each nn.Module or
ScriptModule class with a `# kiln:` spec in its body (one meant as an
entry point, not a block of another) on its own (--entry CLASS
--random-weights=1), for
--target-cpu=x86-64 at -O0 and -O2 and for the host at -O2. Each archive
goes through check_imports.py. Prints a line per failure and
"checked N archives, all self-contained" when none failed.
"""
import ast
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = [("x86-64", 0), ("x86-64", 2), ("host", 2)]
MODULE = re.compile(r"^class (\w+)\((?:nn\.Module|torch\.nn\.Module|"
                    r"torch\.jit\.ScriptModule)\):", re.M)


def sources(paths):
    for path in paths:
        if os.path.isdir(path):
            yield from sorted(glob.glob(os.path.join(path, "**", "*.py"),
                                        recursive=True))
        else:
            yield path


def compilations(path):
    text = open(path).read()
    if "@torch.jit.script\n" in text:
        yield []
    lines = text.splitlines()
    entries = set(MODULE.findall(text))
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef) and node.name in entries and any(
                line.strip().startswith("# kiln:")
                for line in lines[node.lineno:node.end_lineno]):
            yield ["--entry", node.name, "--random-weights=1"]


def main():
    kiln, allowed, work = sys.argv[1:4]
    checked, failed = 0, 0
    for path in sources(sys.argv[4:]):
        for extra in compilations(path):
            for target, opt in CONFIGS:
                archive = os.path.join(work, "%d.kiln" % checked)
                compile = subprocess.run(
                    [kiln, "compile", path, "-O%d" % opt,
                     "--target-cpu=" + target, "-o", archive] + extra,
                    capture_output=True, text=True)
                what = "%s %s -O%d %s" % (path, target, opt, " ".join(extra))
                checked += 1
                if compile.returncode != 0:
                    failed += 1
                    print("FAILED: cannot compile %s: %s" %
                          (what, compile.stderr.strip()[:300]))
                    continue
                check = subprocess.run(
                    [sys.executable, os.path.join(HERE, "check_imports.py"),
                     kiln, allowed, archive], capture_output=True, text=True)
                if check.returncode != 0:
                    failed += 1
                    print("FAILED: %s: %s" % (what, check.stdout.strip()))
                os.remove(archive)
    if failed == 0:
        print("checked %d archives, all self-contained" % checked)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
