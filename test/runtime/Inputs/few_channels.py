import torch
import torch.nn.functional as F
from torch import Tensor


# Two convolutions the kernel library runs (codegen keeps a stride's for
# oneDNN): 6 output channels from one input channel at stride 2, then 16
# from those 6.
# kiln: x=f32[B,1,32,32], w1=f32[6,1,3,3], w2=f32[16,6,3,3]
@torch.jit.script
def layers(x: Tensor, w1: Tensor, w2: Tensor):
    return F.conv2d(F.conv2d(x, w1, stride=2), w2)
