import torch
from torch import Tensor


# kiln: x=f32[N], y=f32[N]
@torch.jit.script
def foo(x: Tensor, y: Tensor) -> Tensor:
    return 2 * x + y


if __name__ == "__main__":
    torch.manual_seed(0)
    print(foo(torch.randn(4), torch.randn(4)))
