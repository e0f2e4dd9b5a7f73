# nn.Module classes: __init__ runs at compile time and forward reads the
# result through self. This proves, on --emit=ir:
# - every weight is declared once in the module's kiln.params dictionary
#   with its state_dict() name (ModuleList children are "layers.0", ...);
# - a weight becomes a kiln.param op where it is read, and a number
#   attribute becomes a constant (self.depth is 2, each Layer's scale is
#   its own 0.5 * (i + 1));
# - a loop over a ModuleList is unrolled, and a submodule's forward (a user
#   class's, or a torch.nn module's from prelude/modules.py) is lowered once
#   per instance, named after its state_dict() prefix;
# - nn.LayerNorm composes mean/sub/mul/rsqrt with its weight and bias;
# - @torch.jit.export methods are further entry points, sharing helpers.
#
# RUN: kiln compile %s --entry Stack --emit=ir | FileCheck %s

# CHECK: module attributes {kiln.params = {layers.0.proj.weight = tensor<4x4xf32>, layers.1.proj.weight = tensor<4x4xf32>, norm.bias = tensor<4xf32>, norm.weight = tensor<4xf32>, offset = tensor<4xf32>}
# CHECK-LABEL: func.func @forward(%arg0: tensor<?x4xf32> {kiln.dims = ["B", "4"], kiln.name = "x"}) -> tensor<?x4xf32> attributes {kiln.entry}
# CHECK-NEXT: %[[L0:.*]] = call @layers.0.forward(%arg0)
# CHECK-NEXT: %[[L1:.*]] = call @layers.1.forward(%[[L0]])
# CHECK-NEXT: %[[N:.*]] = call @norm.forward(%[[L1]])
# CHECK: %[[OFFSET:.*]] = kiln.param "offset" : tensor<4xf32>
# CHECK: %[[DEPTH:.*]] = arith.constant 2 : i64
# CHECK: kiln.mul %[[OFFSET]], %[[DEPTH]]
# CHECK-LABEL: func.func private @layers.0.forward(
# CHECK-NEXT: call @layers.0.proj.forward(%arg0)
# CHECK-NEXT: arith.constant 5.000000e-01 : f64
# CHECK-LABEL: func.func private @layers.0.proj.forward(
# CHECK: %[[W0:.*]] = kiln.param "layers.0.proj.weight" : tensor<4x4xf32>
# CHECK: call @prelude_linear(%arg0, %[[W0]])
# CHECK-LABEL: func.func private @layers.1.forward(
# CHECK-NEXT: call @layers.1.proj.forward(%arg0)
# CHECK-NEXT: arith.constant 1.000000e+00 : f64
# CHECK-LABEL: func.func private @layers.1.proj.forward(
# CHECK: kiln.param "layers.1.proj.weight"
# CHECK-LABEL: func.func private @norm.forward(
# CHECK-DAG: %[[WEIGHT:.*]] = kiln.param "norm.weight" : tensor<4xf32>
# CHECK-DAG: %[[BIAS:.*]] = kiln.param "norm.bias" : tensor<4xf32>
# CHECK: call @prelude_layer_norm(%arg0, %{{.*}}, %[[WEIGHT]], %[[BIAS]],
# CHECK-LABEL: func.func private @prelude_layer_norm(
# CHECK: kiln.mean %arg0 {dims = array<i64: 1>, keepdim = true}
# CHECK: kiln.rsqrt
# CHECK: kiln.mul %{{.*}}, %arg2
# CHECK: kiln.add %{{.*}}, %arg3
# CHECK-LABEL: func.func @first(
# CHECK-NEXT: call @layers.0.forward(%arg0)

import torch
import torch.nn as nn


class Layer(nn.Module):
    def __init__(self, width: int, scale: float):
        super().__init__()
        self.proj = nn.Linear(width, width, bias=False)
        self.scale = scale

    def forward(self, x):
        return self.proj(x) * self.scale


class Stack(nn.Module):
    def __init__(self, width: int = 4, depth: int = 2):
        super().__init__()
        self.layers = nn.ModuleList(
            [Layer(width, 0.5 * (i + 1)) for i in range(depth)])
        self.norm = nn.LayerNorm(width)
        self.register_buffer("offset", torch.zeros(width))
        self.depth = depth

    # kiln: x=f32[B,4]
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.norm(x) + self.offset * self.depth

    # kiln: x=f32[B,4]
    @torch.jit.export
    def first(self, x):
        return self.layers[0](x)
