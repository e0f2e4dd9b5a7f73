import torch


# kiln: x=f64[3]
@torch.jit.script
def f(x):
    return torch.cat((torch.arange(3) * 0, torch.arange(4)))
