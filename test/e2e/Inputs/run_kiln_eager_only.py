#!/usr/bin/python3
"""run_kiln.py for files that TorchScript refuses but kiln compiles.

Usage: run_kiln_eager_only.py BIN_DIR FILE.py [ENTRY ...]

Where TorchScript refuses something Python code commonly writes and kiln
supports it ahead of time (a comprehension with several `for` clauses,
which torch.jit.script refuses with "Only a single generator is currently
supported"), the file cannot be imported with @torch.jit.script applied.
This runs run_kiln.py's differential test unchanged, against the eager
functions only: the file is executed once with torch.jit.script replaced
by the identity, as run_eager.load_both does for its eager namespace.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
import run_eager  # noqa: E402
import run_kiln  # noqa: E402

import torch  # noqa: E402


def load_eager_only(path):
    with open(path) as f:
        source = f.read()
    eager_ns = {"__name__": "kiln_example_eager", "__file__": path}
    real_script = torch.jit.script
    torch.jit.script = lambda obj, *a, **k: obj
    try:
        exec(compile(source, path, "exec"), eager_ns)
    finally:
        torch.jit.script = real_script
    return None, eager_ns, source


if __name__ == "__main__":
    run_eager.load_both = load_eager_only
    sys.exit(run_kiln.main())
