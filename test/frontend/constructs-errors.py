# Errors of the constructs of issue 14: raise, isinstance,
# @torch.jit.unused/ignore, and a raise in __init__ (which runs in Python).
# Each case is compiled alone with --entry.
#
# RUN: not kiln compile %s --entry call_unused 2>&1 | FileCheck %s --check-prefix=UNUSED
# UNUSED: constructs-errors.py:[[@LINE+27]]:12: error: 'unused_helper' is decorated @torch.jit.unused, so it is not compiled, and kiln has no Python to run it at run time
# UNUSED: constructs-errors.py:[[@LINE+19]]:2: note: decorated here
# RUN: not kiln compile %s --entry bare_raise 2>&1 | FileCheck %s --check-prefix=BARE
# BARE: error: a bare 'raise' re-raises the exception being handled, and kiln has no try/except; raise an exception
# RUN: not kiln compile %s --entry tensor_message 2>&1 | FileCheck %s --check-prefix=MSG
# MSG: error: the message of a raised exception must be a string known at compile time, not a Tensor[f32, ?]
# RUN: not kiln compile %s --entry two_messages 2>&1 | FileCheck %s --check-prefix=TWO
# TWO: error: an exception raised in compiled code takes one message argument at most
# RUN: not kiln compile %s --entry instance_of_dict 2>&1 | FileCheck %s --check-prefix=ISINST
# ISINST: error: isinstance() with 'dict' is not supported; kiln decides Tensor, int, float, bool, list, tuple, str, nn.Module and type(None) at compile time
# RUN: not kiln compile %s --entry InitRaises 2>&1 | FileCheck %s --check-prefix=INITRAISE
# INITRAISE: error: building 'InitRaises' in Python: ValueError: width must be positive
# INITRAISE-NEXT: raise ValueError("width must be positive")
# RUN: not kiln compile %s --entry NoBaseMethod 2>&1 | FileCheck %s --check-prefix=SUPER
# SUPER: error: the base class of 'NoBaseMethod' has no method 'forward' that kiln compiles; its base is nn.Module

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


class NoBaseMethod(nn.Module):
    # kiln: x=f32[2]
    def forward(self, x):
        return super().forward(x)
