import torch
from torch import Tensor


# kiln: x=f32[N]
@torch.jit.script
def func(x: Tensor) -> Tensor:
    for i in range(10):
        x = x * x
    return x


if __name__ == "__main__":
    # Values near 1 so that x ** 1024 stays finite.
    print(func(torch.linspace(0.99, 1.001, 5)))
