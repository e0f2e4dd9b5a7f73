"""kiln's prelude: Python's math module on scalars (math.sqrt(x) where x is
a Python float). The functions that are one kiln op name it; the others are
C++ builders (OpTableUnaryMath.cpp): via_tensor computes torch.X's row on a
0-d tensor, for the decompositions that need where. The constants (math.pi,
math.inf, ...) are mathConstant() in OpTable.cpp.
"""
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
@op('log(float x, Scalar? base=None) -> float',
    MATH,
    build='math_log',
    samples=[('x=f64[]', '', 0.1, 9),
             ('x=f64[]', '2', 0.1, 9)])
@op('log10(float x) -> float',
    MATH,
    build='via_tensor',
    samples=[('x=f64[]', '', 0.1, 9)])
@op('log1p(float x) -> float',
    MATH,
    build='via_tensor',
    samples=[('x=f64[]', '', -1e-06, 1e-06)])
@op('expm1(float x) -> float',
    MATH,
    build='via_tensor',
    samples=[('x=f64[]', '', -1e-06, 1e-06)])
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
@op('tan(float x) -> float',
    MATH,
    build='via_tensor',
    samples=['x=f64[]'])
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
@op('erfc(float x) -> float',
    MATH,
    build='via_tensor',
    samples=[('x=f64[]', '', -3, 3)])
@op('floor(float x) -> int',
    MATH,
    build='math_floor',
    samples=[('x=f64[]', '', -3, 3)])
@op('ceil(float x) -> int',
    MATH,
    build='math_ceil',
    samples=[('x=f64[]', '', -3, 3)])
@op('fabs(float x) -> float',
    MATH,
    kiln='kiln.abs',
    samples=[('x=f64[]', '', -3, 3)],
    flags=FLOAT_MATH)
@op('pow(float x, float y) -> float',
    MATH,
    build='math_pow',
    samples=[('x=f64[]', '1.5', 0, 3)])
@op('isnan(float x) -> bool',
    MATH,
    build='math_isnan',
    samples=['x=f64[]'])
@op('isinf(float x) -> bool',
    MATH,
    build='math_isinf',
    samples=['x=f64[]'])
@op('isfinite(float x) -> bool',
    MATH,
    build='math_isfinite',
    samples=['x=f64[]'])
def _math_rows():
    pass
