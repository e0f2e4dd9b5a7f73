"""kiln's op table: sort and topk, lowered by the builders of
frontend/OpTableIndexing.cpp: sort is kiln.sort along the last dim, and
topk the first k of a stable sort.
"""
from kiln_table import METHOD, TORCH, op


@op('sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor, Tensor)',
    TORCH | METHOD,
    build='sort',
    samples=['x=f32[B,7]',
             ('x=f64[5,B]', '0, True'),
             ('x=f32[B,3,6]', 'descending=True'),
             ('x=f32[6]', '-1'),
             'x=f32[B,0]'],
    note="stable: equal values keep their input order (PyTorch's default sort does not promise that); quadratic in the sorted size")
@op('topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor, Tensor)',
    TORCH | METHOD,
    build='topk',
    samples=[('x=f32[B,7]', '3'),
             ('x=f64[6,B]', '2, 0, False'),
             ('x=f32[B,3,6]', '1, largest=True'),
             ('x=f32[5]', '5, largest=False')],
    note="a stable sort's first k: ties in input order; k a constant")
def _order_rows():
    pass
