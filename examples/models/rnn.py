import torch
import torch.nn as nn
from torch import Tensor
from typing import List, Tuple


# The seed RNN as a ScriptModule: the weights are parameters now, so they
# come from the trained state_dict instead of being passed on every call.
class RNN(torch.jit.ScriptModule):
    def __init__(self, input_size: int = 3, hidden_size: int = 4,
                 output_size: int = 5):
        super().__init__()
        self.W_h = nn.Parameter(torch.randn(input_size, hidden_size))
        self.U_h = nn.Parameter(torch.randn(hidden_size, hidden_size))
        self.W_y = nn.Parameter(torch.randn(hidden_size, output_size))
        self.b_h = nn.Parameter(torch.randn(hidden_size))
        self.b_y = nn.Parameter(torch.randn(output_size))

    # kiln: x=f32[T,B,3], h=f32[B,4]
    @torch.jit.script_method
    def forward(self, x: Tensor, h: Tensor) -> Tuple[Tensor, Tensor]:
        y: List[Tensor] = []
        for t in range(x.size(0)):
            h = torch.tanh(x[t] @ self.W_h + h @ self.U_h + self.b_h)
            y += [torch.tanh(h @ self.W_y + self.b_y)]
            if t % 10 == 0:
                print("stats: ", h.mean(), h.var())
        return torch.stack(y), h


if __name__ == "__main__":
    torch.manual_seed(0)
    rnn = RNN()
    ys, h = rnn(torch.randn(12, 2, 3), torch.zeros(2, 4))
    print(ys.shape, h.shape)
