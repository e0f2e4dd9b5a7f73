# The forwards of torch.nn modules (frontend/prelude/modules.py) lower to
# one function per module, named after its state_dict() prefix: a
# two-input module (CosineSimilarity) takes both tensors; PReLU reshapes its
# per-channel weight to broadcast on dim 1; InstanceNorm2d normalizes with
# the input's statistics (use_input_stats is the constant true) unless it
# tracks running statistics, which it then reads as weights.
#
# RUN: kiln compile %s --entry Net --emit=ir | FileCheck %s
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.prelu = nn.PReLU(4)
        self.inorm = nn.InstanceNorm2d(4)
        self.inorm_stats = nn.InstanceNorm2d(4, track_running_stats=True)
        self.cos = nn.CosineSimilarity(dim=1)
        self.flat = nn.Flatten()

    # CHECK-LABEL: func.func @forward(
    # CHECK:      %[[P:.*]] = call @prelu.forward(%arg0)
    # CHECK-NEXT: %[[N:.*]] = call @inorm.forward(%[[P]])
    # CHECK-NEXT: %[[S:.*]] = call @inorm_stats.forward(%[[N]])
    # CHECK-NEXT: %[[C:.*]] = call @cos.forward(%arg0, %[[S]]) : (tensor<?x4x5x6xf32>, tensor<?x4x5x6xf32>) -> tensor<?x5x6xf32>
    # CHECK-NEXT: call @flat.forward(%[[C]]) : (tensor<?x5x6xf32>) -> tensor<?x30xf32>
    #
    # CHECK-LABEL: func.func private @prelu.forward(
    # CHECK:       %[[W:.*]] = kiln.param "prelu.weight" : tensor<4xf32>
    # CHECK:       %[[R:.*]] = kiln.reshape %[[W]]{{.*}} : tensor<4xf32> -> tensor<4x1x1xf32>
    # CHECK:       kiln.mul %[[R]], %arg0
    # CHECK:       kiln.where
    #
    # CHECK-LABEL: func.func private @prelude__instance_norm(
    # CHECK:       %true = arith.constant true
    # CHECK:       call @prelude_instance_norm(%arg0, %true,
    #
    # CHECK-LABEL: func.func private @inorm_stats.forward(
    # CHECK:       %[[M:.*]] = kiln.param "inorm_stats.running_mean" : tensor<4xf32>
    # CHECK:       %[[V:.*]] = kiln.param "inorm_stats.running_var" : tensor<4xf32>
    # CHECK:       call @prelude__instance_norm_1(%arg0, %{{.*}}, %[[M]], %[[V]],
    # CHECK-LABEL: func.func private @prelude__instance_norm_1(
    # CHECK:       %false = arith.constant false
    # CHECK:       call @prelude_instance_norm_1(%arg0, %arg2, %arg3, %false,
    # kiln: x=f32[B,4,5,6]
    def forward(self, x):
        y = self.inorm_stats(self.inorm(self.prelu(x)))
        return self.flat(self.cos(x, y))
