#!/usr/bin/python3
"""Builds the starting corpus of each fuzz target from the tree's own inputs.

usage: collect_seeds.py OUT_DIR [--kiln KILN]

Writes OUT_DIR/parser (every .py under examples/ and test/), OUT_DIR/npy
(numpy.save of each dtype kiln reads, C and Fortran order, both endians,
format versions 1.0 to 3.0), OUT_DIR/safetensors (files matching the names
FuzzSafetensors.cpp expects, and near misses), and OUT_DIR/archive (.kiln
archives compiled from small examples with KILN; skipped without --kiln).
The seeds are generated rather than checked in: archives hold machine code
and change with the compiler, and the rest is cheap to remake.
"""
import argparse
import io
import json
import os
import shutil
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parser_seeds(out):
    n = 0
    for top in ("examples", "test"):
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            for name in sorted(names):
                if name.endswith(".py") and "__pycache__" not in dirpath:
                    n += 1
                    shutil.copy(os.path.join(dirpath, name),
                                os.path.join(out, "%03d-%s" % (n, name)))
    return n


def npy_seeds(out):
    import numpy as np
    n = 0
    arrays = {
        "f32": np.arange(6, dtype=np.float32).reshape(2, 3),
        "f64": np.linspace(-1, 1, 5),
        "f16": np.array([1.5, -2, 65504], dtype=np.float16),
        "i32": np.array([[1, -2], [3, 4]], dtype=np.int32),
        "i64": np.array([7], dtype=np.int64),
        "bool": np.array([True, False, True]),
        "scalar": np.array(3.25, dtype=np.float32),
        "empty": np.zeros((0, 4), dtype=np.float32),
    }
    for name, a in arrays.items():
        for order in ("C", "F"):
            for endian in ("<", ">"):
                b = np.asarray(a, order=order)
                if b.dtype.itemsize > 1:
                    b = b.astype(b.dtype.newbyteorder(endian))
                for version in ((1, 0), (2, 0), (3, 0)):
                    buf = io.BytesIO()
                    np.lib.format.write_array(buf, b, version=version)
                    n += 1
                    with open(os.path.join(out, "%s-%s%s-v%d.npy" % (
                            name, order, "le" if endian == "<" else "be",
                            version[0])), "wb") as f:
                        f.write(buf.getvalue())
    return n


def safetensors_file(tensors, metadata=None):
    """tensors: name -> (dtype, shape, bytes); the real format, by hand."""
    header, data = {}, b""
    for name, (dtype, shape, raw) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    if metadata is not None:
        header["__metadata__"] = metadata
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + data


def safetensors_seeds(out):
    full = {
        "fc.weight": ("F32", [2, 3], struct.pack("<6f", *range(6))),
        "fc.bias": ("F32", [2], struct.pack("<2f", 0.5, -0.5)),
        "half": ("F16", [4], struct.pack("<4H", 0x3c00, 0x4000, 0xbc00, 0)),
        "flags": ("BOOL", [3], bytes([1, 0, 1])),
        "steps": ("I64", [], struct.pack("<q", 42)),
    }
    files = {
        "full": safetensors_file(full, {"format": "pt"}),
        "missing": safetensors_file({k: full[k] for k in ("fc.weight",)}),
        "extra": safetensors_file(dict(full, extra=("I32", [1], b"\0" * 4))),
        "wrong-shape": safetensors_file(
            dict(full, **{"fc.bias": ("F32", [1, 2], full["fc.bias"][2])})),
        "bf16": safetensors_file(
            dict(full, half=("BF16", [4], full["half"][2]))),
        "empty": safetensors_file({}),
    }
    for name, data in files.items():
        with open(os.path.join(out, name + ".safetensors"), "wb") as f:
            f.write(data)
    return len(files)


def archive_seeds(out, kiln):
    sources = [
        ("myfun", os.path.join(ROOT, "examples/seed/myfun.py"), []),
        # Two code objects, for the choice between them.
        ("levels", os.path.join(ROOT, "examples/seed/myfun.py"),
         ["--target-cpu=x86-64,x86-64-v3"]),
        # An nn.Module archive, for the weights table and its checks.
        ("mlp", os.path.join(ROOT, "examples/models/mlp.py"),
         ["--entry", "MLP", "--random-weights=1"]),
    ]
    for extra in ("foo.py", "static_calls.py", "func.py"):
        for dirpath, _, names in os.walk(os.path.join(ROOT, "test/e2e")):
            if extra in names:
                sources.append((extra[:-3], os.path.join(dirpath, extra), []))
    n = 0
    for name, path, args in sources:
        target = os.path.join(out, name + ".kiln")
        r = subprocess.run([kiln, "compile", path, "-O0", "-o", target] + args,
                           capture_output=True, text=True)
        if r.returncode == 0:
            n += 1
        else:
            print("collect_seeds: skipped %s: %s" % (path, r.stderr.strip()),
                  file=sys.stderr)
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--kiln", help="the kiln compiler, for archive seeds")
    a = ap.parse_args()
    makers = {"parser": parser_seeds, "npy": npy_seeds,
              "safetensors": safetensors_seeds}
    for target, make in makers.items():
        d = os.path.join(a.out, target)
        os.makedirs(d, exist_ok=True)
        print("collect_seeds: %s: %d seeds" % (target, make(d)))
    if a.kiln:
        d = os.path.join(a.out, "archive")
        os.makedirs(d, exist_ok=True)
        print("collect_seeds: archive: %d seeds" % archive_seeds(d, a.kiln))


if __name__ == "__main__":
    main()
