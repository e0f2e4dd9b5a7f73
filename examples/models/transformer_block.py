import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


# A transformer encoder block in the style of minGPT's Block: multi-head
# causal self-attention and a GELU MLP, each behind a layer norm and a
# residual connection.
class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd: int = 32, n_head: int = 4, block_size: int = 16):
        super().__init__()
        assert n_embd % n_head == 0
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.attn_dropout = nn.Dropout(0.1)
        self.resid_dropout = nn.Dropout(0.1)
        # The causal mask, a buffer as in minGPT.
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size))
                             .view(1, 1, block_size, block_size))
        self.n_head = n_head
        self.n_embd = n_embd
        self.scale = (n_embd // n_head) ** -0.5

    # kiln: x=f32[B,T,32]
    def forward(self, x: Tensor) -> Tensor:
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * self.scale
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        att = self.attn_dropout(att)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class Block(nn.Module):
    def __init__(self, n_embd: int = 32, n_head: int = 4, block_size: int = 16):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head, block_size)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(
            nn.Linear(n_embd, 4 * n_embd),
            nn.GELU(),
            nn.Linear(4 * n_embd, n_embd),
            nn.Dropout(0.1),
        )

    # kiln: x=f32[B,T,32]
    def forward(self, x: Tensor) -> Tensor:
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


if __name__ == "__main__":
    torch.manual_seed(0)
    block = Block().eval()
    x = torch.randn(2, 12, 32)
    scripted = torch.jit.script(block)
    print("scripted matches eager:", torch.allclose(scripted(x), block(x), atol=1e-6))
