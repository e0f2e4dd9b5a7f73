"""kiln's prelude: torch.einsum. The equation is parsed while compiling
and lowered to ops kiln already has (OpTableLinalg.cpp says how), which
takes a C++ builder.

See nn.py for how the prelude is written and compiled.
"""
from kiln_table import TORCH, op


@op('einsum(str equation, Tensor[] tensors) -> Tensor',
    TORCH,
    samples=[('q=f32[B,2,3,4], k=f32[B,2,5,4]', "'bhid,bhjd->bhij', q, k"),
             ('q=f32[B,2,3,4], k=f32[B,2,5,4]', "'bhqd,bhkd->bhqk', [q, k]"),
             ('p=f32[B,2,3,5], v=f32[B,2,5,4]', "'bhij,bhjd->bhid', p, v"),
             ('x=f32[B,3,4], y=f32[B,4,5]', "'bij,bjk->bik', x, y"),
             ('x=f64[3,4], y=f64[4,B]', "'ij,jk->ik', x, y"),
             ('x=f32[B,3], y=f32[B,4]', "'bi,bj->bij', x, y"),
             ('x=f32[3,B]', "'ij->ji', x"),
             ('x=f32[3,B]', "'ij->', x"),
             ('x=f32[3,4]', "'ij', x"),
             ('x=f32[4], y=f32[4]', "'i,i', x, y"),
             ('x=f32[2,3,4], y=f32[4,5]', "'...ij,jk->...ik', x, y"),
             ('x=f32[2,B,4], y=f32[B,4]', "'...i,...i->...', x, y"),
             ('x=f32[3,4], y=f32[4,5], z=f32[5,2]', "'ij,jk,kl->il', x, y, z"),
             ('x=f32[3,4], y=f32[3,4]', "'ij,ij->ij', x, y"),
             ('x=f32[0,4], y=f32[4,5]', "'ij,jk->ik', x, y"),
             ('x=i64[3,4], y=i64[4,B]', "'ij,jk->ik', x, y"),
             ('x=i32[3,B]', "'ij->j', x"),
             ('x=f32[2,3,4], y=f32[2,4]', "'bij,bj->i', x, y")],
    note="'...' broadcasts; a repeated letter in one operand (a diagonal) is refused",
    build='einsum')
def _einsum_rows():
    pass
