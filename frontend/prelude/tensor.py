"""kiln's op table: masked_fill, triu/tril, split/chunk/unbind,
matmul/mm/bmm and the creation ops that copy another tensor's shape,
lowered by the builders of frontend/OpTableTensor.cpp. Dims are
compile-time ints (the result type depends on them), sizes may be
run-time ints.
"""
from kiln_table import METHOD, TENSOR_OP, TORCH, op


# Masks and pieces.
@op('masked_fill(Tensor self, Tensor mask, Tensor value) -> Tensor',
    TENSOR_OP,
    build='masked_fill',
    samples=[('x=f32[B,4], m=bool[B,4]', 'm, -1.5'),
             ('x=i64[3,4], m=bool[4]', 'm, 7'),
             ('x=f32[3], m=bool[3]', "m, float('-inf')")])
@op('triu(Tensor self, int diagonal=0) -> Tensor',
    TORCH | METHOD,
    build='triu',
    samples=['x=f32[B,4,5]',
             ('x=i64[4,4]', '1'),
             ('x=f32[3,4]', '-1')])
@op('tril(Tensor self, int diagonal=0) -> Tensor',
    TORCH | METHOD,
    build='tril',
    samples=['x=f32[B,4,5]',
             ('x=i64[4,4]', '1'),
             ('x=f32[3,4]', '-1')])
@op('split(Tensor self, int[] split_size, int dim=0) -> Tensor[]',
    METHOD,
    build='split',
    samples=[('x=f32[5,B]', '2'),
             ('x=f32[B,6]', '(1, 5), dim=1')])
@op('split(Tensor self, int[] split_size_or_sections, int dim=0) -> Tensor[]',
    TORCH,
    build='split',
    samples=[('x=f32[5,B]', '2'),
             ('x=f32[B,6]', '[1, 5], dim=1')])
@op('chunk(Tensor self, int chunks, int dim=0) -> Tensor[]',
    TORCH | METHOD,
    build='chunk',
    samples=[('x=f32[7,B]', '3'),
             ('x=f32[B,8]', '4, dim=1'),
             ('x=f32[B,6]', '2'),
             ('x=f32[N,4]', '2')])
@op('unbind(Tensor self, int dim=0) -> Tensor[]',
    TORCH | METHOD,
    build='unbind',
    samples=['x=f32[3,B]',
             ('x=f32[B,2]', '1')])
def _masks_and_pieces_rows():
    pass



# Matrix products.
@op('matmul(Tensor self, Tensor other) -> Tensor',
    TORCH | METHOD,
    build='matmul',
    samples=[('x=f32[B,4], y=f32[4,3]', 'y'),
             ('x=f32[2,B,4], y=f32[4]', 'y'),
             ('x=f64[3], y=f64[3]', 'y')])
@op('mm(Tensor self, Tensor mat2) -> Tensor',
    TORCH | METHOD,
    build='mm',
    samples=[('x=f32[B,4], y=f32[4,3]', 'y')])
@op('bmm(Tensor self, Tensor mat2) -> Tensor',
    TORCH | METHOD,
    build='bmm',
    samples=[('x=f32[2,B,4], y=f32[2,4,3]', 'y')])
def _matrix_products_rows():
    pass



# Creation from another tensor's shape.
@op('zeros_like(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    build='zeros_like',
    samples=['x=f32[B,4]',
             ('x=f32[3]', 'dtype=torch.int64')])
@op('ones_like(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    build='ones_like',
    samples=['x=f32[B,4]',
             ('x=i64[3]', 'dtype=torch.float64')])
@op('full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    build='full_like',
    samples=[('x=f32[B,4]', '2.5'),
             ('x=i64[3]', '7')])
@op('rand_like(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    build='rand_like',
    samples=['x=f32[B,300]',
             ('x=f32[3,4]', 'dtype=torch.float64'),
             'x=f32[0,3]'],
    random='uniform')
@op('randn_like(Tensor self, *, ScalarType? dtype=None) -> Tensor',
    TORCH,
    build='randn_like',
    samples=['x=f32[B,300]',
             ('x=f64[3,4]', 'dtype=torch.float32'),
             'x=f32[0,3]'],
    random='normal')
def _like_rows():
    pass
