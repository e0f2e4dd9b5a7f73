"""kiln's prelude: Python's math module on scalars (math.sqrt(x) where x is
a Python float). The functions that are one kiln op name it; the others
are Python arithmetic on floats here, or, where they need torch.where
(log1p, expm1), torch.X's row on a 0-d float64 tensor. The constants
(math.pi, math.inf, ...) are mathConstant() in OpTable.cpp.

The functions are named math_X: unary.py's X is torch.X's row.
"""
import math
from typing import Optional

import torch

from kiln_table import FLOAT_MATH, MATH, op


@op('sqrt(float x) -> float',
    MATH,
    kiln='kiln.sqrt',
    samples=[('x=f64[]', '', 0, 9)],
    flags=FLOAT_MATH)
@op('exp(float x) -> float',
    MATH,
    kiln='kiln.exp',
    samples=[('x=f64[]', '', -4, 4)],
    flags=FLOAT_MATH)
@op('log(float x) -> float',
    MATH,
    kiln='kiln.log',
    samples=[('x=f64[]', '', 0.1, 9)],
    flags=FLOAT_MATH)
@op('sin(float x) -> float',
    MATH,
    kiln='kiln.sin',
    samples=[('x=f64[]', '', -3, 3)],
    flags=FLOAT_MATH)
@op('cos(float x) -> float',
    MATH,
    kiln='kiln.cos',
    samples=[('x=f64[]', '', -3, 3)],
    flags=FLOAT_MATH)
@op('tanh(float x) -> float',
    MATH,
    kiln='kiln.tanh',
    samples=[('x=f64[]', '', -3, 3)],
    flags=FLOAT_MATH)
@op('erf(float x) -> float',
    MATH,
    kiln='kiln.erf',
    samples=[('x=f64[]', '', -3, 3)],
    flags=FLOAT_MATH)
@op('fabs(float x) -> float',
    MATH,
    kiln='kiln.abs',
    samples=[('x=f64[]', '', -3, 3)],
    flags=FLOAT_MATH)
def _kiln_op_rows():
    pass


# math.log(x) is the row above; a second argument binds this one.
@op('log(float x, Scalar? base=None) -> float',
    MATH,
    samples=[('x=f64[]', '2', 0.1, 9),
             ('x=f64[]', '10.0', 0.1, 9)])
def math_log(x: float, base: Optional[float] = None) -> float:
    if base is None:
        return math.log(x)
    return math.log(x) / math.log(float(base))


@op('log10(float x) -> float',
    MATH,
    samples=[('x=f64[]', '', 0.1, 9)])
def math_log10(x: float) -> float:
    return math.log(x) * 0.4342944819032518  # 1 / ln 10, as torch.log10


@op('log1p(float x) -> float',
    MATH,
    samples=[('x=f64[]', '', -1e-06, 1e-06),
             ('x=f64[]', '', -0.5, 5)])
def math_log1p(x: float) -> float:
    return torch.log1p(torch.tensor(float(x), dtype=torch.float64)).item()


@op('expm1(float x) -> float',
    MATH,
    samples=[('x=f64[]', '', -1e-06, 1e-06),
             ('x=f64[]', '', -5, 5)])
def math_expm1(x: float) -> float:
    return torch.expm1(torch.tensor(float(x), dtype=torch.float64)).item()


@op('tan(float x) -> float',
    MATH,
    samples=['x=f64[]'])
def math_tan(x: float) -> float:
    return math.sin(x) / math.cos(x)


@op('erfc(float x) -> float',
    MATH,
    samples=[('x=f64[]', '', -3, 3)])
def math_erfc(x: float) -> float:
    return 1.0 - math.erf(x)


# x // 1.0 is floor(x) exactly, as a float; int() of it is exact too.
@op('floor(float x) -> int',
    MATH,
    samples=[('x=f64[]', '', -3, 3)])
def math_floor(x: float) -> int:
    return int(float(x) // 1.0)


@op('ceil(float x) -> int',
    MATH,
    samples=[('x=f64[]', '', -3, 3)])
def math_ceil(x: float) -> int:
    return -int(-float(x) // 1.0)


@op('pow(float x, float y) -> float',
    MATH,
    samples=[('x=f64[]', '1.5', 0, 3),
             ('x=f64[]', '2', -3, 3)])
def math_pow(x: float, y: float) -> float:
    return float(x) ** float(y)


@op('isnan(float x) -> bool',
    MATH,
    samples=['x=f64[]'])
def math_isnan(x: float) -> bool:
    return float(x) != float(x)


@op('isinf(float x) -> bool',
    MATH,
    samples=['x=f64[]'])
def math_isinf(x: float) -> bool:
    return math.fabs(float(x)) == math.inf


@op('isfinite(float x) -> bool',
    MATH,
    samples=['x=f64[]'])
def math_isfinite(x: float) -> bool:
    return math.fabs(float(x)) < math.inf
