import torch
from torch import Tensor

# Advanced indexing by integer and bool tensors, as public models write it:
# - rotary embeddings pick rows by position (Hugging Face transformers,
#   models/llama/modeling_llama.py, apply_rotary_pos_emb, v4.28):
#       cos = cos[position_ids].unsqueeze(1)
# - a gather of log-probabilities by label (pytorch/examples and many
#   losses written by hand): logp[torch.arange(n), target]
# - top-k filtering of logits (transformers generation_utils.py,
#   top_k_top_p_filtering, v4.24):
#       logits[indices_to_remove] = filter_value
# - the active tokens of a token-classification loss (transformers
#   modeling_bert.py, BertForTokenClassification, v3):
#       active_loss = attention_mask.view(-1) == 1
#       active_logits = logits.view(-1, self.num_labels)[active_loss]
# Integer inputs are in [0, 5), so dims of size 5 or more index safely.


def rotate_half(x: Tensor) -> Tensor:
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


# kiln: q=f32[B,2,T,8], cos=f32[16,8], sin=f32[16,8], position_ids=i64[B,T]
@torch.jit.script
def rotary(q: Tensor, cos: Tensor, sin: Tensor, position_ids: Tensor) -> Tensor:
    cos = cos[position_ids].unsqueeze(1)
    sin = sin[position_ids].unsqueeze(1)
    return (q * cos) + (rotate_half(q) * sin)


# kiln: logits=f32[B,6], target=i64[B]
@torch.jit.script
def nll(logits: Tensor, target: Tensor) -> Tensor:
    logp = torch.log_softmax(logits, dim=-1)
    picked = logp[torch.arange(logits.size(0)), target]
    return -picked.mean()


# kiln: logits=f32[3,10]
@torch.jit.script
def top_threshold(logits: Tensor) -> Tensor:
    indices_to_remove = logits < logits.mean(dim=-1, keepdim=True)
    logits[indices_to_remove] = -10000.0
    return logits


# kiln: logits=f32[B,T,4], attention_mask=i64[B,T]
@torch.jit.script
def active_logits(logits: Tensor, attention_mask: Tensor) -> Tensor:
    active_loss = attention_mask.view(-1) == 1
    return logits.view(-1, 4)[active_loss]


# kiln: x=f32[6,5,7], i=i64[3], j=i64[2,1]
@torch.jit.script
def several(x: Tensor, i: Tensor, j: Tensor) -> Tensor:
    a = x[i, :, j]          # not adjacent: the index dims go first
    b = x[:, i, j]          # adjacent: they stay in place
    c = x[i - 3, 1, j]      # negative indices wrap; the int selects first
    d = x[:, :, i]          # the last dim (TorchScript refuses x[..., i])
    return a.sum() + b.sum() * 2.0 + c.sum() * 3.0 + d.sum(-1).mean()


# kiln: x=f32[6,5], idx=i64[4], v=f32[4]
@torch.jit.script
def stores(x: Tensor, idx: Tensor, v: Tensor) -> Tensor:
    y = x.clone()
    y[idx] = 0.5                 # rows, a number
    z = x.clone()
    z[:, idx - 5] = v            # columns, negative, a tensor per column
    w = x.clone()
    w[x > 0.5] = x[x > 0.5] * 2  # a mask store of as many values
    return torch.cat([y, z, w], 0)


# kiln: x=f32[3,B,5], m=bool[B]
@torch.jit.script
def masks(x: Tensor, m: Tensor) -> Tensor:
    y = x.clone()
    y[:, m] = torch.ones(5)
    return y + x[0, ..., 1:][m].sum()


# A mask store of as many values as the mask selects, when it selects
# none; integer stores and reads with run-time sizes and negative indices.
# kiln: x=f32[4,5]
@torch.jit.script
def none_selected(x: Tensor) -> Tensor:
    w = x.clone()
    w[x > 100.0] = x[x > 100.0] * 2
    return w


# kiln: x=f32[B,5], idx=i64[K]
@torch.jit.script
def dynamic_sizes(x: Tensor, idx: Tensor) -> Tensor:
    y = x.clone()
    i = idx % x.size(0)
    y[i] = x[i - x.size(0)] + 1.0
    return y[y > 0.5]
