# __init__ runs at compile time over a subset of Python; everything outside
# it is an error at its source location, and so is a module kiln cannot
# give weights to. Each class is one case, compiled alone with --entry.
#
# RUN: not kiln compile %s --entry PlainTensor 2>&1 | FileCheck %s --check-prefix=PLAIN
# PLAIN: nn-module-errors.py:[[@LINE+41]]:9: error: a tensor attribute needs a value at run time; wrap it in nn.Parameter(...) or use self.register_buffer('w', ...) so that it comes from the weights
# RUN: not kiln compile %s --entry WhileLoop 2>&1 | FileCheck %s --check-prefix=WHILE
# WHILE: error: this statement is not supported in __init__, which kiln runs at compile time; use assignments, calls, if, for, assert and raise
# WHILE-NEXT: while n < 3:
# RUN: not kiln compile %s --entry UnknownModule 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# UNKNOWN: error: torch.nn.LSTM is not supported; kiln compiles Linear, Conv2d,
# UNKNOWN-NEXT: self.rnn = nn.LSTM(3, 4)
# RUN: not kiln compile %s --entry PlainList 2>&1 | FileCheck %s --check-prefix=LIST
# LIST: error: a plain list of modules or tensors is not registered with the module, so its weights would be lost; use nn.ModuleList([...])
# RUN: not kiln compile %s --entry NeedsArgs 2>&1 | FileCheck %s --check-prefix=ARGS
# ARGS: error: 'NeedsArgs' is constructed with no arguments, so parameter 'width' of __init__ needs a default value
# RUN: not kiln compile %s --entry NonPersistent 2>&1 | FileCheck %s --check-prefix=PERSIST
# PERSIST: error: non-persistent buffers are not in state_dict(), so their values cannot come from the weights; register 'mask' as persistent
# RUN: not kiln compile %s --entry MissingAttr 2>&1 | FileCheck %s --check-prefix=ATTR
# ATTR: error: 'MissingAttr' has no attribute 'fc2'; __init__ does not set it; did you mean 'fc'?
# ATTR-NEXT: return self.fc2(x)
# ATTR-NEXT: {{^ *\^~~$}}
# RUN: not kiln compile %s --entry Shared 2>&1 | FileCheck %s --check-prefix=SHARED
# SHARED: error: this module is both 'a' and 'b'; shared submodules are not supported
# RUN: not kiln compile %s --entry Ignored 2>&1 | FileCheck %s --check-prefix=IGNORED
# IGNORED: error: 'debug' is decorated @torch.jit.ignore, so it is not compiled, and kiln has no Python to run it at run time
# IGNORED: note: decorated here
# RUN: not kiln compile %s --entry BadGroups 2>&1 | FileCheck %s --check-prefix=GROUPS
# GROUPS: error: in_channels (3) and out_channels (4) must be divisible by groups (2)
# RUN: not kiln compile %s --entry NotAModule 2>&1 | FileCheck %s --check-prefix=NOTMOD
# NOTMOD: error: 'NotAModule' is not an nn.Module
# RUN: not kiln compile %s --entry FailedAssert 2>&1 | FileCheck %s --check-prefix=ASSERT
# ASSERT: error: assertion failed while running __init__
# ASSERT-NEXT: assert n_embd % n_head == 0
# RUN: not kiln compile %s --entry NoForward 2>&1 | FileCheck %s --check-prefix=NOFWD
# NOFWD: error: 'NoForward' has no forward method to compile
# RUN: not kiln compile %s --entry Lambda 2>&1 | FileCheck %s --check-prefix=LAMBDA
# LAMBDA: error: lambda is not supported

import torch
import torch.nn as nn


class PlainTensor(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.zeros(3)


class WhileLoop(nn.Module):
    def __init__(self):
        super().__init__()
        n = 0
        while n < 3:
            n += 1


class UnknownModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(3, 4)


class PlainList(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(2, 2)]


class NeedsArgs(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)


class NonPersistent(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mask", torch.ones(3), persistent=False)


class MissingAttr(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)

    # kiln: x=f32[2]
    def forward(self, x):
        return self.fc2(x)


class Shared(nn.Module):
    def __init__(self):
        super().__init__()
        fc = nn.Linear(2, 2)
        self.a = fc
        self.b = fc


class Ignored(nn.Module):
    def __init__(self):
        super().__init__()

    @torch.jit.ignore
    def debug(self, x):
        return x

    # kiln: x=f32[2]
    def forward(self, x):
        return self.debug(x)


class BadGroups(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, groups=2)


class NotAModule:
    def __init__(self):
        self.n = 1


class FailedAssert(nn.Module):
    def __init__(self, n_embd: int = 30, n_head: int = 4):
        super().__init__()
        assert n_embd % n_head == 0


class NoForward(nn.Module):
    def __init__(self):
        super().__init__()


class Lambda(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = lambda x: x
