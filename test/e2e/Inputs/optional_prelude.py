"""Entry points that pass an Optional[Tensor] input straight to a torch op
whose decomposition is in kiln's prelude (frontend/prelude/nn.py): the
prelude's `if weight is not None:` becomes a run-time branch. Run by
test/e2e/optional_prelude.test with each optional input a tensor and None."""
from typing import Optional

import torch
import torch.nn.functional as F
from torch import Tensor


# Both of group_norm's affine parameters, each present or not.
# kiln: x=f32[N,4,M], w=f32[4]?, b=f32[4]?
@torch.jit.script
def group_norm(x: Tensor, w: Optional[Tensor] = None,
               b: Optional[Tensor] = None) -> Tensor:
    return F.group_norm(x, 2, w, b)


# By keyword, next to a constant option.
# kiln: x=f32[N,3,M], w=f32[3]?
@torch.jit.script
def instance_norm(x: Tensor, w: Optional[Tensor] = None) -> Tensor:
    return F.instance_norm(x, weight=w, eps=1e-3)


# A loss whose class weights change the mean's denominator.
# kiln: x=f32[N,5], t=i64[N], w=f32[5]?
@torch.jit.script
def cross_entropy(x: Tensor, t: Tensor, w: Optional[Tensor] = None) -> Tensor:
    return F.cross_entropy(x, t, w)
