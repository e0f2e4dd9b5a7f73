# torch.nn module options that kiln's prelude forwards cannot honour are
# refused when the module description is read (kUnsupported in
# frontend/ModuleDescription.cpp), naming the module and the option; inputs
# that torch.nn's own forward rejects are errors at the call, with torch's
# message. Each case builds Refused(kind) in Python (--init-arg).
#
# RUN: not kiln compile %s --entry Refused --init-arg kind="'up_size'" --emit=ir 2>&1 | FileCheck %s --check-prefix=SIZE
# SIZE: nn-modules-refused.py: error: module description: module 'm' (torch.nn.Upsample): a size per spatial dim is not supported; kiln's F.interpolate takes one size for every spatial dim
# RUN: not kiln compile %s --entry Refused --init-arg kind="'up_scale'" --emit=ir 2>&1 | FileCheck %s --check-prefix=SCALE
# SCALE: error: module description: module 'm' (torch.nn.UpsamplingBilinear2d): a scale_factor per spatial dim is not supported; kiln's F.interpolate takes one scale for every spatial dim
# RUN: not kiln compile %s --entry Refused --init-arg kind="'softmax'" --emit=ir 2>&1 | FileCheck %s --check-prefix=SOFTMAX
# SOFTMAX: error: module description: module 'm' (torch.nn.Softmax): dim=None leaves the dim to PyTorch's deprecated implicit choice, which kiln does not make; pass dim
# RUN: not kiln compile %s --entry Refused --init-arg kind="'softmin'" --emit=ir 2>&1 | FileCheck %s --check-prefix=SOFTMIN
# SOFTMIN: error: module description: module 'm' (torch.nn.Softmin): dim=None
# RUN: not kiln compile %s --entry Refused --init-arg kind="'bn1d'" --emit=ir 2>&1 | FileCheck %s --check-prefix=BN1D
# BN1D: error: module description: module 'm' (torch.nn.BatchNorm1d): track_running_stats=False normalizes with batch statistics even in eval mode, which is not supported
# RUN: not kiln compile %s --entry Refused --init-arg kind="'bn3d'" --emit=ir 2>&1 | FileCheck %s --check-prefix=BN3D
# BN3D: error: module description: module 'm' (torch.nn.BatchNorm3d): track_running_stats=False
# RUN: not kiln compile %s --entry Refused --init-arg kind="'conv1d'" --emit=ir 2>&1 | FileCheck %s --check-prefix=CONV1D
# CONV1D: error: module description: module 'm' is a torch.nn.Conv1d, which kiln does not compile yet
#
# Errors at the call: the module's forward rejects the input.
# RUN: not kiln compile %s --entry Refused --init-arg kind="'dropout1d'" --emit=ir 2>&1 | FileCheck %s --check-prefix=DROP1D
# DROP1D: nn-modules-refused.py:58:16: error: dropout1d: Expected 2D or 3D input, but received a 4D input
# DROP1D: note: in 'Dropout1d.forward', kiln's prelude decomposition of this call
# RUN: not kiln compile %s --entry Refused --init-arg kind="'inorm'" --emit=ir 2>&1 | FileCheck %s --check-prefix=INORM
# INORM: nn-modules-refused.py:58:16: error: expected 2D or 3D input (got 4D input)
# RUN: not kiln compile %s --entry Refused --init-arg kind="'bicubic'" --emit=ir 2>&1 | FileCheck %s --check-prefix=BICUBIC
# BICUBIC: error: F.interpolate() supports mode 'nearest' and 'bilinear', got 'bicubic'
# RUN: not kiln compile %s --entry Refused --init-arg kind="'seq_pair'" --emit=ir 2>&1 | FileCheck %s --check-prefix=SEQPAIR
# SEQPAIR: error: nn.Sequential calls nn.CosineSimilarity with one input, and its forward takes 2
# RUN: not kiln compile %s --entry Refused --init-arg kind="'one_of_two'" --emit=ir 2>&1 | FileCheck %s --check-prefix=ONEOFTWO
# ONEOFTWO: nn-modules-refused.py:58:16: error: nn.CosineSimilarity.forward() is missing the argument 'x2'
import torch
import torch.nn as nn


class Refused(nn.Module):
    def __init__(self, kind):
        super().__init__()
        self.m = {
            "up_size": lambda: nn.Upsample(size=(4, 6)),
            "up_scale": lambda: nn.UpsamplingBilinear2d(scale_factor=(2, 3)),
            "softmax": lambda: nn.Softmax(),
            "softmin": lambda: nn.Softmin(),
            "bn1d": lambda: nn.BatchNorm1d(3, track_running_stats=False),
            "bn3d": lambda: nn.BatchNorm3d(3, track_running_stats=False),
            "conv1d": lambda: nn.Conv1d(3, 3, 1),
            "dropout1d": lambda: nn.Dropout1d(),
            "inorm": lambda: nn.InstanceNorm1d(3),
            "bicubic": lambda: nn.Upsample(scale_factor=2.0, mode="bicubic"),
            "seq_pair": lambda: nn.Sequential(nn.CosineSimilarity()),
            "one_of_two": lambda: nn.CosineSimilarity(),
        }[kind]()

    # kiln: x=f32[B,3,5,6]
    def forward(self, x):
        return self.m(x)
