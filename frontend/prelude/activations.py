"""kiln's prelude: the elementwise activations, composed from other torch
ops so that fusion sees through them. PyTorch computes them on floats only,
so their rows are FLOAT_ONLY: an int input is an error, not a cast.

See nn.py for how the prelude is written and compiled.
"""
import torch
import torch.nn.functional as F
from torch import Tensor

from kiln_table import (ACTIVATION, FLOAT_ONLY, FUNCTIONAL, TENSOR_OP, TORCH, op,
                        unary)


@op('relu6(Tensor self) -> Tensor',
    ACTIVATION,
    samples=unary(-8, 8),
    flags=FLOAT_ONLY)
def relu6(input: Tensor) -> Tensor:
    return torch.clamp(input, 0.0, 6.0)


@op('hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor',
    ACTIVATION,
    samples=[('x=f32[B,5]', '', -3, 3),
             ('x=f64[4]', '-0.5, max_val=2.0', -3, 3)],
    flags=FLOAT_ONLY)
def hardtanh(input: Tensor, min_val: float = -1.0,
             max_val: float = 1.0) -> Tensor:
    # min(max(x, lo), hi), which is hi where lo > hi, as PyTorch computes.
    return torch.clamp(input, min_val, max_val)


@op('hardsigmoid(Tensor self) -> Tensor',
    ACTIVATION,
    samples=unary(-5, 5),
    flags=FLOAT_ONLY)
def hardsigmoid(input: Tensor) -> Tensor:
    return torch.clamp(input + 3.0, 0.0, 6.0) / 6.0


@op('hardswish(Tensor self) -> Tensor',
    ACTIVATION,
    samples=unary(-5, 5),
    flags=FLOAT_ONLY)
def hardswish(input: Tensor) -> Tensor:
    return input * torch.clamp(input + 3.0, 0.0, 6.0) / 6.0


@op('silu(Tensor self) -> Tensor',
    ACTIVATION,
    samples=unary(-6, 6),
    flags=FLOAT_ONLY)
def silu(input: Tensor) -> Tensor:
    return input * torch.sigmoid(input)


@op('mish(Tensor self) -> Tensor',
    ACTIVATION,
    samples=unary(-6, 6),
    flags=FLOAT_ONLY)
def mish(input: Tensor) -> Tensor:
    return input * torch.tanh(F.softplus(input))


@op('softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,5]', '', -30, 30),
             ('x=f64[4]', 'beta=2.0, threshold=5', -6, 6),
             'x=f32[0]'],
    flags=FLOAT_ONLY)
def softplus(input: Tensor, beta: float = 1.0,
             threshold: float = 20.0) -> Tensor:
    # Linear above the threshold, where log1p(exp(x)) == x in floats and
    # exp would overflow.
    scaled = input * beta
    return torch.where(scaled > threshold, input,
                       torch.log1p(torch.exp(scaled)) / beta)


@op('elu(Tensor self, Scalar alpha=1) -> Tensor',
    ACTIVATION,
    samples=[('x=f32[B,5]', '', -4, 4),
             ('x=f64[4]', 'alpha=0.5', -4, 4)],
    flags=FLOAT_ONLY)
def elu(input: Tensor, alpha: float = 1.0) -> Tensor:
    return torch.where(input > 0.0, input, torch.expm1(input) * alpha)


@op('selu(Tensor self) -> Tensor',
    TORCH | ACTIVATION,
    samples=unary(-4, 4),
    flags=FLOAT_ONLY)
def selu(input: Tensor) -> Tensor:
    # The constants of Klambauer et al., as PyTorch spells them.
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    return torch.where(input > 0.0, input,
                       torch.expm1(input) * alpha) * scale


@op('celu(Tensor self, Scalar alpha=1) -> Tensor',
    TORCH | ACTIVATION,
    samples=[('x=f32[B,5]', '', -4, 4),
             ('x=f64[4]', 'alpha=2.0', -4, 4)],
    flags=FLOAT_ONLY)
def celu(input: Tensor, alpha: float = 1.0) -> Tensor:
    return torch.where(input > 0.0, input,
                       torch.expm1(input / alpha) * alpha)


@op('leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor',
    ACTIVATION,
    samples=['x=f32[B,5]',
             ('x=f64[4]', '0.2')],
    flags=FLOAT_ONLY)
def leaky_relu(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return torch.where(input > 0.0, input, input * negative_slope)


@op('logsigmoid(Tensor self) -> Tensor',
    FUNCTIONAL,
    samples=unary(-30, 30),
    flags=FLOAT_ONLY)
def logsigmoid(input: Tensor) -> Tensor:
    # min(x, 0) - log1p(exp(-|x|)), which neither overflows nor cancels.
    return (torch.clamp_max(input, 0.0)
            - torch.log1p(torch.exp(-torch.abs(input))))


@op("gelu(Tensor self, *, str approximate='none') -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,5]', '', -4, 4),
             ('x=f64[4]', "approximate='tanh'", -4, 4),
             'x=f32[0]'],
    flags=FLOAT_ONLY)
def gelu(input: Tensor, approximate: str = 'none') -> Tensor:
    if approximate == 'none':
        # 0.5 * x * (1 + erf(x / sqrt(2)))
        inner = torch.erf(input * 0.7071067811865476)
    elif approximate == 'tanh':
        # 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
        cube = input * input * input
        inner = torch.tanh((input + cube * 0.044715) * 0.7978845608028654)
    else:
        raise ValueError("approximate must be 'none' or 'tanh', got '"
                         + approximate + "'")
    return input * 0.5 * (inner + 1.0)


# clamp(min, max) is min(max(x, min), max), which gives max where min > max,
# as PyTorch documents; each bound is a tensor or a number.
@op('clamp(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor',
    TENSOR_OP, build='clamp', aliases=['clip'],
    samples=[('x=f32[B,5]', '-0.5, 0.5'), ('x=i64[4]', 'max=2'),
             ('x=f32[3,4], lo=f32[4]', 'lo')])
@op('clamp_min(Tensor self, Tensor min) -> Tensor', TENSOR_OP, build='clamp',
    samples=[('x=f32[B,5]', '0.25')])
@op('clamp_max(Tensor self, Tensor max) -> Tensor', TENSOR_OP, build='clamp',
    samples=[('x=f32[B,5]', '0.25')])
def _clamp_rows():
    pass
