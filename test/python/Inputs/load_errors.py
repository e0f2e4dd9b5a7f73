#!/usr/bin/python3
"""What kiln.load refuses, and how (test/python/load-errors.test).

Usage: load_errors.py BIN_DIR WORK_DIR

Compiles load_functions.py, then makes one bad call or load per line and
prints `LABEL: EXCEPTION [CODE]: MESSAGE`.
"""
import os
import subprocess
import sys
import weakref

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))


class FakeCuda(torch.Tensor):
    """A CPU tensor that says it is on a GPU: the refusal of a CUDA tensor,
    tested on machines without one."""

    @property
    def device(self):
        return torch.device("cuda:0")


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    os.environ["KILN_BIN"] = os.path.join(bin_dir, "kiln")
    import kiln
    path = os.path.join(work, "functions.kiln")
    subprocess.run([os.environ["KILN_BIN"], "compile",
                    os.path.join(HERE, "load_functions.py"), "-o", path],
                   check=True)
    not_archive = os.path.join(work, "not-an-archive.kiln")
    with open(not_archive, "w") as f:
        f.write("def f(x): return x\n")
    m = kiln.load(path)
    x, y = torch.randn(3, 4), torch.randn(3, 4)
    cases = [
        ("f64 tensor", lambda: m.blend(x.double(), y)),
        ("f16 array", lambda: m.blend(x, y.numpy().astype(np.float16))),
        ("u8 array", lambda: m.blend(x, np.zeros((3, 4), np.uint8))),
        ("wrong rank", lambda: m.blend(x[0], y)),
        ("dim symbols", lambda: m.blend(x, torch.randn(4, 4))),
        ("missing input", lambda: m.blend(x)),
        ("unknown keyword", lambda: m.blend(x, y, scale=2.0)),
        ("twice", lambda: m.blend(x, y, x=x)),
        ("too many", lambda: m.blend(x, y, x)),
        ("None for required", lambda: m.blend(x, None)),
        ("cuda tensor", lambda: m.blend(x.as_subclass(FakeCuda), y)),
        ("float for int", lambda: m.shift(torch.arange(3), 2.5)),
        ("bool for int", lambda: m.shift(torch.arange(3), True)),
        ("list for tensor", lambda: m.blend([1.0, 2.0], y)),
        ("unknown str", lambda: m.activation(x, "swish")),
        ("index for str", lambda: m.activation(x, 1)),
        ("short list", lambda: m.concat([torch.randn(3, 3)])),
        ("raised by code", lambda: m.pick(torch.randn(3), 5)),
        ("unknown entry", lambda: m.run("predict", x)),
        ("unknown attribute", lambda: m.predict),
        ("not an archive", lambda: kiln.load(not_archive)),
        ("missing file", lambda: kiln.load(os.path.join(work, "no.kiln"))),
    ]
    for label, bad in cases:
        try:
            bad()
            print("%s: no error" % label)
        except Exception as e:  # noqa: BLE001 (the test prints any)
            code = " [%s]" % e.code if hasattr(e, "code") else ""
            print("%s: %s%s: %s" % (label, type(e).__name__, code, e))
    m.close()
    try:
        m.blend(x, y)
    except kiln.RunError as e:
        print("closed: %s" % e)
    # An entry keeps its model open; the model is freed with its last
    # reference, not at a later garbage collection.
    blend = kiln.load(path).blend
    print("entry alone: %s" % list(blend(x, y).shape))
    ref = weakref.ref(blend._model)
    del blend
    print("freed at once: %s" % (ref() is None))
    check_libraries(work, path)
    return 0


def check_libraries(work, archive):
    """A runtime library too old for the package, and one that is none,
    each in a process of its own (the package loads the library once)."""
    old = os.path.join(work, "libold.so")
    source = os.path.join(work, "old.c")
    with open(source, "w") as f:
        f.write("int kiln_c_api_version(void) { return 3; }\n")
    subprocess.run(["cc", "-shared", "-fPIC", source, "-o", old], check=True)
    for label, lib in (("old runtime", old),
                       ("missing runtime", os.path.join(work, "none.so"))):
        env = dict(os.environ, KILN_RUNTIME_LIB=lib)
        proc = subprocess.run(
            [sys.executable, "-c", "import kiln, sys; kiln.load(sys.argv[1])",
             archive], env=env, capture_output=True, text=True)
        print("%s: %s" % (label, proc.stderr.strip().splitlines()[-1]))


if __name__ == "__main__":
    sys.exit(main())
