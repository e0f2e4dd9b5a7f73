"""Derives FastErf.cpp's factored erf from kiln's fit, and checks the file.

The fit (iteratively reweighted least squares for relative error against
mpmath's erf on [-4, 4]) is erf(x) ~= x * P(x^2) / Q(x^2), P of degree 6 and
Q of degree 4, below. FastErf.cpp evaluates P and Q as a scale times monic
quadratics z^2 + a z + b, one per conjugate pair of roots (all the roots are
complex). This script prints those factors, as computed from P's and Q's
roots, and checks FastErf.cpp's own: their products must give back P and Q
(over Q's leading coefficient) to 1e-12. With them it checks what GELU's
lone clamp relies on: at t = +-4 sqrt 2 in f32, t * r(t) is within
[0.5, 0.5 + 2^-24], so that the CDF 0.5 + t * r rounds to exactly 1 and
0.5 - t * r is at most 0. That check emulates FastErf.cpp's f32 evaluation
op for op in exact arithmetic.

Usage: erf_factors.py FASTERF_CPP   (test/codegen/erf-factors.test runs it)
"""
from fractions import Fraction
import re
import sys

import numpy as np

P = [1.1283791152787488, 0.20004290921695986, 0.05057500277114855,
     0.0036998131235796714, 0.00014126456403996436, -1.9421838025161786e-06,
     1.9671925449715744e-08]
Q = [1.0, 0.5106152096293716, 0.11503433214457513, 0.014354012690336728,
     0.000953915593731056]
SQRT_HALF = 0.7071067811865476  # FastErf.cpp's kSqrtHalf


def quadratics(coefficients):
    """(a, b) of z^2 + a z + b for each conjugate pair of roots."""
    roots = np.roots(coefficients[::-1])
    assert all(r.imag != 0 for r in roots), "P or Q has a real root"
    return [(-2 * r.real, abs(r) ** 2) for r in roots if r.imag > 0]


def f32(q):
    """The Fraction q rounded to the nearest f32 (normal range), ties to
    even."""
    if q == 0:
        return Fraction(0)
    sign, q = (-1 if q < 0 else 1), abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    ulp = Fraction(2) ** (e - 23)
    n, rest = divmod(q / ulp, 1)
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2):
        n += 1
    return sign * n * ulp


def constant(x):
    return f32(Fraction(x))


def product(z, factors, c2, scale):
    """FastErf.cpp's quadraticProduct in f32."""
    result = None
    for a, b in factors:
        a, b = a / c2, b / (c2 * c2)
        if scale == 1.0:
            linear = f32(z + constant(a))
        else:
            linear = f32(z * constant(scale) + constant(scale * a))
        value = f32(linear * z + constant(scale * b))
        result = value if result is None else f32(result * value)
        scale = 1.0
    return result


def ratio(t, c, k, numerator, denominator, scale):
    """FastErf.cpp's erfRatio in f32."""
    c2 = c * c
    z = f32(t * t)
    return f32(product(z, numerator, c2, k * c * scale * c2 * c2)
               / product(z, denominator, c2, 1.0))


def source_factors(source):
    """FastErf.cpp's kScale, kNumerator and kDenominator."""
    number = r"(-?[0-9.]+(?:e[-+]?[0-9]+)?)"
    scale = float(re.search(r"kScale = " + number, source).group(1))
    def table(name):
        body = re.search(name + r"\[\] = \{(.*?)\};", source, re.S).group(1)
        return [(float(a), float(b)) for a, b in
                re.findall(r"\{" + number + r",\s*" + number + r"\}", body)]
    return scale, table("kNumerator"), table("kDenominator")


def expand(factors, scale):
    """The coefficients, lowest first, of scale times the quadratics."""
    result = np.array([scale])
    for a, b in factors:
        result = np.convolve(result, [b, a, 1.0])
    return result


def main():
    print("from the roots: kScale = %r" % (P[-1] / Q[-1]))
    for name, poly in (("kNumerator", P), ("kDenominator", Q)):
        print("from the roots: %s = %s" % (name, ", ".join(
            "{%r, %r}" % q for q in quadratics(poly))))
    scale, numerator, denominator = source_factors(open(sys.argv[1]).read())
    assert len(numerator) == 3 and len(denominator) == 2
    # Both sides are divided by Q's leading coefficient.
    for got, want in ((expand(numerator, scale), np.array(P) / Q[-1]),
                      (expand(denominator, 1.0), np.array(Q) / Q[-1])):
        error = np.max(np.abs(got - want) / np.abs(want))
        assert error < 1e-12, error
    print("FastErf.cpp's factors give P and Q back")
    bound = Fraction(float(np.float32(4 / SQRT_HALF)))
    half = bound * ratio(bound, SQRT_HALF, 0.5, numerator, denominator, scale)
    excess = (half - Fraction(1, 2)) * 2 ** 24
    assert 0 <= excess <= 1, float(excess)
    print("GELU at t = %r: t * r(t) = 0.5 + %.3f * 2^-24"
          % (float(bound), float(excess)))


main()
