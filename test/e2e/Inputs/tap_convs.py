import torch
import torch.nn.functional as F
from torch import Tensor

# Convolutions that kiln generates rather than hands to oneDNN
# (codegen/lowering/ConvolutionOps.cpp, isTapConvolution: f32, fewer than
# 16 output channels, stride 1, at most 27 taps), beside their neighbours
# on the library's side of each bound.


# LeNet's first layer with its bias, relu and pool, at batch B.
# kiln: x=f32[B,1,32,32], w=f32[6,1,3,3], b=f32[6]
@torch.jit.script
def first_layer(x: Tensor, w: Tensor, b: Tensor):
    return F.max_pool2d(F.relu(F.conv2d(x, w, b)), 2)


# Padding, 'same' padding, dilation, a non-square kernel and one output
# channel; output rows of 30, 15, 9 and 5 (the last shorter than a vector
# chunk's minimum, so scalar).
# kiln: x=f32[3,2,17,30], w=f32[5,2,3,3], w1=f32[1,2,1,5], wd=f32[4,2,2,3]
@torch.jit.script
def windows(x: Tensor, w: Tensor, w1: Tensor, wd: Tensor):
    return (F.conv2d(x, w, padding=1), F.conv2d(x, w, padding='same'),
            F.conv2d(x, w1), F.conv2d(x, wd, padding=(1, 0), dilation=(2, 3)),
            F.conv2d(x[:, :, :, :15], w), F.conv2d(x[:, :, :, :7], w))


# The bounds: 27 taps and 15 output channels (generated) against 16
# output channels, 28 taps, a stride and groups (the library); a 1x1
# convolution over 20 channels (20 taps, generated).
# kiln: x=f32[2,3,12,20], w27=f32[15,3,3,3], w16=f32[16,3,3,3]
# kiln: y=f32[2,4,12,20], w28=f32[6,4,7,1], g=f32[6,2,3,3]
# kiln: z=f32[2,20,9,18], p=f32[4,20,1,1]
@torch.jit.script
def bounds(x: Tensor, w27: Tensor, w16: Tensor, y: Tensor, w28: Tensor,
           g: Tensor, z: Tensor, p: Tensor):
    return (F.conv2d(x, w27), F.conv2d(x, w16), F.conv2d(y, w28),
            F.conv2d(x, w27[:6], stride=(1, 2)), F.conv2d(y, g, groups=2),
            F.conv2d(z, p))


# Non-finite inputs: NaN and infinities reach the windows that hold them.
# kiln: x=f32[2,1,10,40], w=f32[3,1,3,3]
@torch.jit.script
def non_finite(x: Tensor, w: Tensor):
    x = torch.where(x > 0.9, x * float('inf'), x)
    x = torch.where(x < -0.9, x * float('nan'), x)
    return F.conv2d(x, w)


# A dynamic height: the output's rows are known only at run time.
# kiln: x=f32[2,1,H,33], w=f32[6,1,3,3]
@torch.jit.script
def dynamic_height(x: Tensor, w: Tensor):
    return F.conv2d(x, w, padding=1)
