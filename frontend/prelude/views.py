"""kiln's op table: shape queries (size, dim, numel, item), identities
(contiguous, clone, detach), casts (float, long, to, type_as) and views
and reshapes (view, reshape, expand, flatten, unsqueeze, squeeze,
transpose, permute), lowered by the builders of frontend/OpTableViews.cpp
(expand_as is a decomposition here). Dims are compile-time ints, sizes may be run-time ints.
"""
from torch import Tensor

from kiln_table import METHOD, TORCH, op


# Shape queries and identities.
@op('size(Tensor self) -> int[]',
    METHOD,
    build='size_all')
@op('size(Tensor self, int dim) -> int',
    METHOD,
    build='size_dim',
    samples=[('x=f32[B,4]', '0'),
             ('x=f32[B,4]', '-1')])
@op('dim(Tensor self) -> int',
    METHOD,
    build='dim',
    samples=['x=f32[B,4]'])
@op('numel(Tensor self) -> int',
    TORCH | METHOD,
    build='numel',
    samples=['x=f32[B,4]'])
@op('item(Tensor self) -> Scalar',
    METHOD,
    build='item',
    samples=['x=f32[1]',
             'x=i64[]'])
@op('contiguous(Tensor self) -> Tensor',
    METHOD,
    build='identity',
    samples=['x=f32[B,4]'])
@op('clone(Tensor self) -> Tensor',
    TORCH | METHOD,
    build='identity',
    samples=['x=f32[B,4]'])
@op('detach(Tensor self) -> Tensor',
    TORCH | METHOD,
    build='identity',
    samples=['x=f32[B,4]'])
def _shape_queries_and_identities_rows():
    pass



# Casts.
@op('float(Tensor self) -> Tensor',
    METHOD,
    build='float',
    samples=['x=i64[B,4]'])
@op('double(Tensor self) -> Tensor',
    METHOD,
    build='double',
    samples=['x=f32[B,4]'])
@op('half(Tensor self) -> Tensor',
    METHOD,
    build='half',
    samples=['x=f32[B,4]'])
@op('bfloat16(Tensor self) -> Tensor',
    METHOD,
    build='bfloat16',
    samples=['x=f32[B,4]'])
@op('int(Tensor self) -> Tensor',
    METHOD,
    build='int',
    samples=[('x=f32[B,4]', '', -9, 9)])
@op('long(Tensor self) -> Tensor',
    METHOD,
    build='long',
    samples=[('x=f32[B,4]', '', -9, 9)])
@op('bool(Tensor self) -> Tensor',
    METHOD,
    build='bool',
    samples=['x=i64[B,4]'])
@op('to(Tensor self, ScalarType? dtype, bool non_blocking=False, bool copy=False) -> Tensor',
    METHOD,
    build='to_dtype',
    samples=[('x=f32[B,4]', 'torch.float64'),
             ('x=f32[3]', 'dtype=torch.int64')])
@op('to(Tensor self, Tensor other, bool non_blocking=False, bool copy=False) -> Tensor',
    METHOD,
    build='to_other',
    samples=[('x=f32[B,4], y=f64[2]', 'y')])
@op('type_as(Tensor self, Tensor other) -> Tensor',
    METHOD,
    build='to_other',
    samples=[('x=i64[B,4], y=f32[2]', 'y')])
def _casts_rows():
    pass



# Views and reshapes.
@op('view(Tensor self, int[] size) -> Tensor',
    METHOD,
    build='reshape',
    samples=[('x=f32[B,6]', '-1, 3, 2'),
             ('x=f32[4,6]', '(2, 12)')])
@op('reshape(Tensor self, int[] shape) -> Tensor',
    TORCH | METHOD,
    build='reshape',
    samples=[('x=f32[B,6]', '(-1, 2, 3)'),
             ('x=i64[4,6]', '(24,)')])
@op('expand(Tensor self, int[] size, *, bool implicit=False) -> Tensor',
    METHOD,
    build='expand',
    samples=[('x=f32[B,1]', '-1, 4'),
             ('x=f32[3]', '(2, 3)')])
@op('flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor',
    TORCH | METHOD,
    build='flatten',
    samples=['x=f32[B,2,3]',
             ('x=f32[B,2,3,2]', '1, 2'),
             'x=f32[]'])
@op('unflatten(Tensor self, int dim, int[] sizes) -> Tensor',
    TORCH | METHOD,
    build='unflatten',
    samples=[('x=f32[B,6]', '1, (2, 3)'),
             ('x=f32[B,6]', '-1, (3, -1)')])
@op('unsqueeze(Tensor self, int dim) -> Tensor',
    TORCH | METHOD,
    build='unsqueeze',
    samples=[('x=f32[B,4]', '0'),
             ('x=f32[B,4]', '-1')])
@op('squeeze(Tensor self) -> Tensor',
    TORCH | METHOD,
    build='squeeze_all',
    samples=['x=f32[1,B,1,4]'])
@op('squeeze(Tensor self, int dim) -> Tensor',
    TORCH | METHOD,
    build='squeeze_one',
    samples=[('x=f32[B,1,4]', '1'),
             ('x=f32[B,4]', '-1')])
@op('transpose(Tensor self, int dim0, int dim1) -> Tensor',
    TORCH | METHOD,
    build='transpose',
    samples=[('x=f32[B,4,3]', '0, 2'),
             ('x=i64[3,5]', '-1, 0')])
@op('t(Tensor self) -> Tensor',
    TORCH | METHOD,
    build='t',
    samples=['x=f32[B,4]',
             'x=f32[3]'])
@op('permute(Tensor self, int[] dims) -> Tensor',
    TORCH | METHOD,
    build='permute',
    samples=[('x=f32[B,4,3]', '(2, 0, 1)')])
def _views_and_reshapes_rows():
    pass


@op('expand_as(Tensor self, Tensor other) -> Tensor',
    METHOD,
    samples=[('x=f32[1,4], y=f32[B,4]', 'y')])
def expand_as(input: Tensor, other: Tensor) -> Tensor:
    return input.expand(other.size())
