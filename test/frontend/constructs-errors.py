# Errors of the constructs of issue 14: raise, isinstance,
# @torch.jit.unused/ignore, and the tensors a compile-time __init__
# computes. Each case is compiled alone with --entry.
#
# RUN: not kiln compile %s --entry call_unused 2>&1 | FileCheck %s --check-prefix=UNUSED
# UNUSED: constructs-errors.py:[[@LINE+38]]:12: error: 'unused_helper' is decorated @torch.jit.unused, so it is not compiled, and kiln has no Python to run it at run time
# UNUSED: constructs-errors.py:[[@LINE+30]]:2: note: decorated here
# RUN: not kiln compile %s --entry bare_raise 2>&1 | FileCheck %s --check-prefix=BARE
# BARE: error: a bare 'raise' re-raises the exception being handled, and kiln has no try/except; raise an exception
# RUN: not kiln compile %s --entry tensor_message 2>&1 | FileCheck %s --check-prefix=MSG
# MSG: error: the message of a raised exception must be a string known at compile time, not a Tensor[f32, ?]
# RUN: not kiln compile %s --entry two_messages 2>&1 | FileCheck %s --check-prefix=TWO
# TWO: error: an exception raised in compiled code takes one message argument at most
# RUN: not kiln compile %s --entry instance_of_dict 2>&1 | FileCheck %s --check-prefix=ISINST
# ISINST: error: isinstance() with 'dict' is not supported; kiln decides Tensor, int, float, bool, list, tuple, str, nn.Module and type(None) at compile time
# RUN: not kiln compile %s --entry InitRaises 2>&1 | FileCheck %s --check-prefix=INITRAISE
# INITRAISE: error: __init__ raised ValueError: width must be positive
# INITRAISE-NEXT: raise ValueError("width must be positive")
# RUN: not kiln compile %s --entry SliceMismatch 2>&1 | FileCheck %s --check-prefix=SLICE
# SLICE: error: a tensor of shape [4] cannot be assigned to a region of shape [6, 3]
# RUN: not kiln compile %s --entry BadArange 2>&1 | FileCheck %s --check-prefix=ARANGE
# ARANGE: error: torch.arange(): the step must be non-zero and point from start to end
# RUN: not kiln compile %s --entry MathDomain 2>&1 | FileCheck %s --check-prefix=DOMAIN
# DOMAIN: error: math domain error in math.log()
# RUN: not kiln compile %s --entry PlainComputed 2>&1 | FileCheck %s --check-prefix=PLAIN
# PLAIN: error: a tensor attribute needs a value at run time; wrap it in nn.Parameter(...) or use self.register_buffer('freq', ...) so that it comes from the weights
# RUN: not kiln compile %s --entry BroadcastInit 2>&1 | FileCheck %s --check-prefix=BCAST
# BCAST: error: the size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1
# RUN: not kiln compile %s --entry NoBaseMethod 2>&1 | FileCheck %s --check-prefix=SUPER
# SUPER: error: the base class of 'NoBaseMethod' has no method 'forward' that kiln compiles; its base is nn.Module
import math

import torch
import torch.nn as nn


@torch.jit.unused
def unused_helper(x):
    return x


# kiln: x=f32[N]
def call_unused(x):
    return unused_helper(x)


# kiln: x=f32[N]
def bare_raise(x):
    if x.size(0) == 0:
        raise
    return x


# kiln: x=f32[N]
def tensor_message(x):
    raise ValueError(x)


# kiln: x=f32[N]
def two_messages(x):
    raise ValueError("a", "b")


# kiln: x=f32[N]
def instance_of_dict(x):
    return isinstance(x, dict)


class InitRaises(nn.Module):
    def __init__(self, width: int = 0):
        super().__init__()
        if width <= 0:
            raise ValueError("width must be positive")


class SliceMismatch(nn.Module):
    def __init__(self):
        super().__init__()
        table = torch.zeros(6, 6)
        table[:, 0::2] = torch.ones(4)
        self.register_buffer("table", table)


class BadArange(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("steps", torch.arange(0, 10, -1))


class MathDomain(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = math.log(0.0)


class PlainComputed(nn.Module):
    def __init__(self):
        super().__init__()
        self.freq = torch.exp(torch.arange(4).float())


class BroadcastInit(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2, 3) * torch.ones(2, 4))


class NoBaseMethod(nn.Module):
    # kiln: x=f32[2]
    def forward(self, x):
        return super().forward(x)
