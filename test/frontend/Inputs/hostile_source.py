#!/usr/bin/python3
"""Writes a hostile but valid Python file for kiln's limit tests.

Usage: hostile_source.py KIND N OUT

KIND is one of:
  helpers  a chain of N helpers, each calling the next, under one script
  lines    one script function of N statements `x = x + 1.0`
  loops    N nested `for i in range(2)` loops around `x = x + 1.0`
  rank     a script function whose argument has rank N
"""
import sys


def helpers(n):
    out = ["import torch", ""]
    for i in range(n - 1):
        out += [f"def h{i}(x: torch.Tensor) -> torch.Tensor:",
                f"    return h{i + 1}(x) + 1.0", ""]
    out += [f"def h{n - 1}(x: torch.Tensor) -> torch.Tensor:",
            "    return x", "",
            "# kiln: x=f32[N]", "@torch.jit.script",
            "def f(x: torch.Tensor) -> torch.Tensor:",
            "    return h0(x)", ""]
    return out


def lines(n):
    out = ["import torch", "", "# kiln: x=f32[N]", "@torch.jit.script",
           "def f(x: torch.Tensor) -> torch.Tensor:"]
    out += ["    x = x + 1.0"] * n
    return out + ["    return x", ""]


def loops(n):
    out = ["import torch", "", "# kiln: x=f32[N]", "@torch.jit.script",
           "def f(x: torch.Tensor) -> torch.Tensor:"]
    for depth in range(n):
        out.append("    " * (depth + 1) + f"for i{depth} in range(2):")
    out.append("    " * (n + 1) + "x = x + 1.0")
    return out + ["    return x", ""]


def rank(n):
    dims = ",".join(["1"] * n)
    return ["import torch", "", f"# kiln: x=f32[{dims}]", "@torch.jit.script",
            "def f(x: torch.Tensor) -> torch.Tensor:", "    return x + 1.0", ""]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(out, "w") as f:
        f.write("\n".join(globals()[kind](n)))


if __name__ == "__main__":
    main()
