"""kiln.compile raises CompileError carrying the compiler's diagnostic."""
import os
import sys

import torch
import torch.nn as nn

import kiln


class Broken(nn.Module):
    def __init__(self, act=nn.ReLU):
        super().__init__()
        self.act = act()

    def forward(self, x):
        return self.act(x) + self.missing


if __name__ == "__main__":
    os.environ["KILN_BIN"] = os.path.join(sys.argv[1], "kiln")
    try:
        kiln.compile(Broken().eval(), args={"x": "f32[2]"},
                     output=os.path.join(sys.argv[2], "broken.kiln"))
    except kiln.CompileError as e:
        print("CompileError:")
        print(e)
