import torch
from torch import Tensor


# kiln: x=f32[K,K], t=f32[K,K]
@torch.jit.script
def foo(x: Tensor, t: Tensor) -> Tensor:
    y = x.mm(x)
    print(y)
    return y + t


# kiln: x=f32[N,4,4], w=f32[4,4]
@torch.jit.script
def bar(x: Tensor, w: Tensor) -> Tensor:
    y = w
    for i in range(x.size(0)):
        y = foo(x[i], y)
    return y


if __name__ == "__main__":
    torch.manual_seed(0)
    print(bar(0.5 * torch.randn(3, 4, 4), torch.randn(4, 4)))
