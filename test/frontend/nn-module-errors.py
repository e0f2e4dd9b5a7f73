# kiln builds an --entry class by running its __init__ in Python; an error
# there is reported at its line in this file, with the frames that led to
# it. What Python builds but forward cannot use is an error where forward
# uses it. Each class is one case, compiled alone with --entry.
#
# RUN: not kiln compile %s --entry PlainTensor 2>&1 | FileCheck %s --check-prefix=PLAIN
# PLAIN: nn-module-errors.py:[[@LINE+67]]:25: error: 'PlainTensor.w' is a plain tensor, which is not a weight; make it one with nn.Parameter(...) or self.register_buffer(...); forward can read constants
# RUN: not kiln compile %s --entry UnknownModule 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# UNKNOWN: error: module description: module 'rnn' is a torch.nn.LSTM, which kiln does not compile yet
# RUN: not kiln compile %s --entry PlainList 2>&1 | FileCheck %s --check-prefix=LIST
# LIST: nn-module-errors.py:[[@LINE+82]]:27: error: 'PlainList.layers' is a plain list of modules, which nn.Module does not register; use nn.ModuleList
#
# Constructor arguments come from --init-arg: a literal, or an expression
# over the file's names.
# RUN: not kiln compile %s --entry NeedsArgs 2>&1 | FileCheck %s --check-prefix=ARGS
# ARGS: nn-module-errors.py:[[@LINE+82]]:7: error: building 'NeedsArgs' in Python: NeedsArgs(): missing a required argument: 'width'; give constructor arguments with --init-arg NAME=VALUE
# ARGS-NEXT: class NeedsArgs(nn.Module):
# ARGS-NEXT: {{^      \^~~~~~~~~$}}
# RUN: kiln compile %s --entry NeedsArgs --init-arg width=3 --init-arg act=nn.ReLU --emit=ir | FileCheck %s --check-prefix=ARGSOK
# ARGSOK: func.func @forward(%arg0: tensor<3xf32>
# ARGSOK: kiln.relu
# RUN: not kiln compile %s --entry NeedsArgs --init-arg width=3 --init-arg act=nn.Relu 2>&1 | FileCheck %s --check-prefix=ARGNAME
# ARGNAME: kiln: error: {{.*}}nn-module-errors.py: building 'NeedsArgs' in Python: --init-arg act=nn.Relu: AttributeError: module 'torch.nn' has no attribute 'Relu'
# RUN: not kiln compile %s --entry NeedsArgs --init-arg 3 2>&1 | FileCheck %s --check-prefix=ARGFORM
# ARGFORM: building 'NeedsArgs' in Python: --init-arg '3': expected NAME=VALUE
# RUN: not kiln compile %s --entry NeedsArgs --init-arg width=3 --init-arg depth=2 2>&1 | FileCheck %s --check-prefix=ARGEXTRA
# ARGEXTRA: error: building 'NeedsArgs' in Python: NeedsArgs(): got an unexpected keyword argument 'depth'; give constructor arguments with --init-arg NAME=VALUE
# RUN: not kiln compile %s --entry helper --init-arg width=3 2>&1 | FileCheck %s --check-prefix=ARGFN
# ARGFN: kiln: error: --init-arg is for an nn.Module class named by --entry, and no --entry names one
#
# RUN: not kiln compile %s --entry MissingAttr 2>&1 | FileCheck %s --check-prefix=ATTR
# ATTR: error: 'MissingAttr' has no attribute 'fc2'; __init__ does not set it; did you mean 'fc'?
# ATTR-NEXT: return self.fc2(x)
# ATTR-NEXT: {{^ *\^~~$}}
# RUN: not kiln compile %s --entry Ignored 2>&1 | FileCheck %s --check-prefix=IGNORED
# IGNORED: error: 'debug' is decorated @torch.jit.ignore, so it is not compiled, and kiln has no Python to run it at run time
# IGNORED: note: decorated here
# torch's own checks run, and point at the user's line that called them.
# RUN: not kiln compile %s --entry BadGroups 2>&1 | FileCheck %s --check-prefix=GROUPS
# GROUPS: nn-module-errors.py:[[@LINE+101]]:21: error: building 'BadGroups' in Python: ValueError: in_channels must be divisible by groups (raised at {{.*}}torch/nn/modules/conv.py:{{[0-9]+}}, in __init__)
# RUN: not kiln compile %s --entry NotAModule 2>&1 | FileCheck %s --check-prefix=NOTMOD
# NOTMOD: nn-module-errors.py:[[@LINE+105]]:7: error: building 'NotAModule' in Python: 'NotAModule' is not an nn.Module class
# RUN: not kiln compile %s --entry FailedAssert 2>&1 | FileCheck %s --check-prefix=ASSERT
# ASSERT: nn-module-errors.py:[[@LINE+111]]:16: error: building 'FailedAssert' in Python: AssertionError: heads must divide the width
# ASSERT-NEXT: assert n_embd % n_head == 0, "heads must divide the width"
# The same line when the file is named by a relative path.
# RUN: cd %S && not kiln compile ./nn-module-errors.py --entry FailedAssert 2>&1 | FileCheck %s --check-prefix=RELATIVE
# RELATIVE: ./nn-module-errors.py:{{[0-9]+}}:16: error: building 'FailedAssert' in Python: AssertionError
# A helper of the file that raises: the note shows the call in __init__.
# RUN: not kiln compile %s --entry HelperRaises 2>&1 | FileCheck %s --check-prefix=HELPER
# HELPER: nn-module-errors.py:[[@LINE+113]]:5: error: building 'HelperRaises' in Python: ValueError: unknown activation 'swish2'
# HELPER: nn-module-errors.py:[[@LINE+118]]:20: note: called from here
# A method whose signature kiln does not compile is reported where an
# entry point calls it, with a note at the method.
# RUN: not kiln compile %s --entry StarArgs 2>&1 | FileCheck %s --check-prefix=STAR
# STAR: error: *args is not supported
# STAR: note:
# RUN: not kiln compile %s --entry NoForward 2>&1 | FileCheck %s --check-prefix=NOFWD
# NOFWD: error: 'NoForward' has no forward method to compile
# RUN: not kiln compile %s --entry Lambda 2>&1 | FileCheck %s --check-prefix=LAMBDA
# LAMBDA: nn-module-errors.py:[[@LINE+127]]:21: error: 'Lambda.f' is the function Lambda.__init__.<locals>.<lambda>; forward can read constants

import torch
import torch.nn as nn


class PlainTensor(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.zeros(3)

    # kiln: x=f32[3]
    def forward(self, x):
        return x * self.w


class UnknownModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(3, 4)

    def forward(self, x):
        return x


class PlainList(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(2, 2)]

    # kiln: x=f32[2]
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class NeedsArgs(nn.Module):
    def __init__(self, width, act=nn.Identity):
        super().__init__()
        self.fc = nn.Linear(width, width)
        self.act = act()

    # kiln: x=f32[3]
    def forward(self, x):
        return self.act(self.fc(x))


# kiln: x=f32[3]
@torch.jit.script
def helper(x):
    return x


class MissingAttr(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)

    # kiln: x=f32[2]
    def forward(self, x):
        return self.fc2(x)


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

    def forward(self, x):
        return x


class NotAModule:
    def __init__(self):
        self.n = 1


class FailedAssert(nn.Module):
    def __init__(self, n_embd: int = 30, n_head: int = 4):
        super().__init__()
        assert n_embd % n_head == 0, "heads must divide the width"

    def forward(self, x):
        return x


def make_act(name):
    if name == "relu":
        return nn.ReLU()
    raise ValueError(f"unknown activation '{name}'")


class HelperRaises(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = make_act("swish2")

    def forward(self, x):
        return x


class NoForward(nn.Module):
    def __init__(self):
        super().__init__()


class Lambda(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = lambda x: x

    # kiln: x=f32[2]
    def forward(self, x):
        return self.f(x)


class StarArgs(nn.Module):
    def __init__(self, **kwargs):
        super().__init__()

    def total(self, *args):
        return args[0]

    # kiln: x=f32[2]
    def forward(self, x):
        return self.total(x)
