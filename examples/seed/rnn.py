import torch
from torch import Tensor
from typing import List, Tuple


# kiln: x=f32[T,B,I], h=f32[B,H], W_h=f32[I,H], U_h=f32[H,H], W_y=f32[H,O], b_h=f32[H], b_y=f32[O]
@torch.jit.script
def rnn(x: Tensor, h: Tensor, W_h: Tensor, U_h: Tensor, W_y: Tensor,
        b_h: Tensor, b_y: Tensor) -> Tuple[Tensor, Tensor]:
    y: List[Tensor] = []
    for t in range(x.size(0)):
        h = torch.tanh(x[t] @ W_h + h @ U_h + b_h)
        y += [torch.tanh(h @ W_y + b_y)]
        if t % 10 == 0:
            print("stats: ", h.mean(), h.var())
    return torch.stack(y), h


if __name__ == "__main__":
    # Code == Model: the same file runs eagerly here and compiles with kiln.
    torch.manual_seed(0)
    T, B, I, H, O = 12, 2, 3, 4, 5
    ys, h = rnn(torch.randn(T, B, I), torch.zeros(B, H),
                torch.randn(I, H), torch.randn(H, H), torch.randn(H, O),
                torch.randn(H), torch.randn(O))
    print(ys.shape, h.shape)
