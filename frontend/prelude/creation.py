"""kiln's prelude: tensors made from sizes (torch.zeros/ones/empty/full/
rand/randn and the Tensor.new_* methods), from a number (torch.tensor),
from a range (torch.arange), and from a list of tensors (torch.cat,
torch.stack). They make a tensor out of no tensor, so they are C++
builders (OpTableCreation.cpp), which read constant sizes as static dims.
device=, layout=, pin_memory= and requires_grad= are accepted as
PyTorch's factories take them and ignored: they change where or how eager
PyTorch keeps the result, not its values. torch.empty is zero-filled, one
of the values PyTorch may return.

See nn.py for how the prelude is written and compiled.
"""
from kiln_table import METHOD, TORCH, op


@op('zeros(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    TORCH,
    samples=[('x=f32[B,2]', 'x.size(0), 3'),
             ('x=f32[2]', '(2, 3), dtype=torch.int64'),
             ('x=f32[2]', "[0, 4], device='cpu', layout=torch.strided, pin_memory=False")],
    build='zeros')
@op('ones(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    TORCH,
    samples=[('x=f32[B,2]', '2, x.size(0)'),
             ('x=f32[2]', 'size=(4,), dtype=torch.float64'),
             ('x=f32[2]', '[3, 0], dtype=torch.bool')],
    build='ones')
@op('empty(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    TORCH,
    samples=[('x=f32[B,2]', 'x.size(0), 3'),
             ('x=f32[2]', '[2], dtype=torch.int32')],
    note='zero-filled',
    random='any',
    build='empty')
@op('full(int[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    TORCH,
    samples=[('x=f32[B,2]', '(x.size(0), 3), 2.5'),
             ('x=f32[2]', '[2, 2], 7'),
             ('x=f32[2]', '(3,), -4'),
             ('x=f32[2]', '(2, 0), 1.5, dtype=torch.float64')],
    build='full')
@op('rand(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    TORCH,
    samples=[('x=f32[B,2]', 'x.size(0), 300'),
             ('x=f32[2]', '(4, 5), dtype=torch.float64')],
    random='uniform',
    build='rand')
@op('randn(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    TORCH,
    samples=[('x=f32[B,2]', 'x.size(0), 300'),
             ('x=f32[2]', '[0, 5], dtype=torch.float64')],
    random='normal',
    build='randn')
@op('new_zeros(Tensor self, int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    METHOD,
    samples=[('x=i64[B,2]', '(x.size(0), 3)'),
             ('x=f32[2]', '[2], dtype=torch.float64')],
    build='zeros')
@op('new_ones(Tensor self, int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    METHOD,
    samples=[('x=f64[B,2]', '[3, x.size(0)]'),
             ('x=f32[2]', '(0,)')],
    build='ones')
@op('new_empty(Tensor self, int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    METHOD,
    samples=[('x=i32[B,2]', '(x.size(0), 3)')],
    note='zero-filled',
    random='any',
    build='empty')
@op('new_full(Tensor self, int[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    METHOD,
    samples=[('x=f32[B,2]', '(x.size(0), 3), 2'),
             ('x=i64[2]', '[2, 2], 7')],
    build='full')
@op('tensor(Scalar data, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor',
    TORCH,
    samples=[('x=f32[2]', '2.5'),
             ('x=f32[2]', 'x.size(0)'),
             ('x=f32[2]', 'True'),
             ('x=f32[2]', '3, dtype=torch.float64')],
    note='a number only, not a nested list',
    build='tensor')
@op('arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    TORCH,
    samples=[('x=f32[B,2]', 'x.size(0)'),
             ('x=f32[2]', '4.5'),
             ('x=f32[2]', '0')],
    build='arange')
@op('arange(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
    TORCH,
    samples=[('x=f32[B,2]', '1, x.size(0) + 4'),
             ('x=f32[2]', '-1, 2, 0.25, dtype=torch.float64'),
             ('x=f32[2]', '10, 0, -3'),
             ('x=f32[2]', 'start=2, end=7, dtype=torch.int32')],
    build='arange')
@op('cat(Tensor[] tensors, int dim=0) -> Tensor',
    TORCH,
    samples=[('x=f32[B,3], y=f32[2,3]', '[x, y]'),
             ('x=f32[2,B], y=f32[2,4]', '(x, y, x), dim=-1'),
             ('x=i64[0,3], y=i64[2,3]', '[x, y]'),
             ('x=f64[2,3]', '[x]')],
    build='cat')
@op('stack(Tensor[] tensors, int dim=0) -> Tensor',
    TORCH,
    samples=[('x=f32[B,3], y=f32[B,3]', '[x, y]'),
             ('x=f32[2,3], y=f32[2,3]', '(x, y), dim=-1'),
             ('x=i64[2,3], y=i64[2,3]', '[x, y, x], 1'),
             ('x=f64[0]', '[x]')],
    build='stack')
def _creation_rows():
    pass
