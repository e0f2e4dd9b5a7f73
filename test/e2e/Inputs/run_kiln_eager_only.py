#!/usr/bin/python3
"""run_kiln.py for files that TorchScript refuses but kiln compiles.

Usage: run_kiln_eager_only.py BIN_DIR FILE.py [ENTRY ...]

Where TorchScript refuses something Python code commonly writes and kiln
supports it ahead of time (a comprehension with several `for` clauses,
which torch.jit.script refuses with "Only a single generator is currently
supported"), the file cannot be imported with @torch.jit.script applied.
This runs run_kiln.py's differential test unchanged, against the eager
functions only: the file is executed once with torch.jit.script replaced
by the identity (run_eager.exec_eager).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
import run_eager  # noqa: E402
import run_kiln  # noqa: E402


def load_eager_only(path):
    eager_ns, source = run_eager.exec_eager(path, "kiln_example_eager")
    return None, eager_ns, source


if __name__ == "__main__":
    run_eager.load_both = load_eager_only
    sys.exit(run_kiln.main())
