#!/usr/bin/python3
"""Writes a .npy file for `kiln run --input NAME=FILE.npy`.

Usage: npy.py OUT DTYPE SHAPE [VALUE]

DTYPE is a numpy dtype name (float32, int64, ...). SHAPE is comma-separated
sizes ("2,3"), or "scalar" for a rank-0 array, which is how a Python int,
float or bool argument is passed. The values are 0, 1, 2, ... in C order,
or all VALUE when it is given.
"""
import sys

import numpy as np


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    out, dtype, shape = sys.argv[1:4]
    dims = () if shape == "scalar" else tuple(int(d) for d in shape.split(","))
    count = int(np.prod(dims))
    if len(sys.argv) == 5:
        values = np.full(count, float(sys.argv[4]))
    else:
        values = np.arange(count)
    np.save(out, values.astype(dtype).reshape(dims))


if __name__ == "__main__":
    main()
