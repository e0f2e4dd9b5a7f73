import torch
from torch import Tensor


# kiln: a=f32[N,D], b=f32[M,D]
@torch.jit.script
def pairwise_distance_loops(a: Tensor, b: Tensor) -> Tensor:
    squares = torch.zeros(a.size(0), b.size(0))
    for i in range(a.size(0)):
        for j in range(b.size(0)):
            squares[i, j] = ((a[i] - b[j]) ** 2).sum()
    return squares.sqrt()


# kiln: a=f32[N,D], b=f32[M,D]
@torch.jit.script
def pairwise_distance_batched(a: Tensor, b: Tensor) -> Tensor:
    diff = a[:, None, :] - b[None, :, :]
    return (diff ** 2).sum(dim=2).sqrt()


if __name__ == "__main__":
    torch.manual_seed(0)
    a = torch.randn(3, 4)
    b = torch.randn(5, 4)
    print(pairwise_distance_loops(a, b))
    print(pairwise_distance_batched(a, b))
