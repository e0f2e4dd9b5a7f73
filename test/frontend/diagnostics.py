# Diagnostics at compiler quality (issue 19, item 8): every independent
# error of a run is reported, not only the first; a misspelled name gets
# the nearest known one; a real PyTorch name that kiln lacks says so
# instead of reading like a typo.
#
# One run reports the errors of every entry point, and of every statement
# of a function: a statement that fails poisons the names it assigns, so
# their later uses add no second message.
# RUN: not kiln compile %s --emit=ir --entry typos --entry missing 2>&1 | FileCheck %s --check-prefix=ALL --implicit-check-not='error:'
# ALL: diagnostics.py:[[@LINE+14]]:9: error: undefined name 'hiden'; did you mean 'hidden'?
# ALL: diagnostics.py:[[@LINE+14]]:9: error: 'torch.sigmod' is not a PyTorch function; did you mean 'torch.sigmoid'?
# ALL: diagnostics.py:[[@LINE+14]]:11: error: a Tensor[f32, 2x3] has no attribute 'sofmax'; did you mean 'softmax'?
# ALL: diagnostics.py:[[@LINE+14]]:9: error: 'torch.nn.functional.rleu' is not a PyTorch function; did you mean 'torch.nn.functional.relu'?
# ALL: diagnostics.py:[[@LINE+20]]:11: error: 'Tensor.lgamma' is a PyTorch method that kiln does not support yet
# ALL: diagnostics.py:[[@LINE+20]]:9: error: 'torch.lgamma' is a PyTorch function that kiln does not support yet
# ALL: diagnostics.py:[[@LINE+20]]:12: error: 'torch.nn.functional.rrelu' is a PyTorch function that kiln does not support yet
import torch
import torch.nn.functional as F


# kiln: x=f32[2,3]
def typos(x):
    hidden = x * 2
    a = hiden + 1
    b = torch.sigmod(x)
    c = x.sofmax(0)
    d = F.rleu(x)
    # a, b, c and d are poisoned: this line adds no message.
    return a + b + c + d + hidden


# kiln: x=f32[2,3]
def missing(x):
    y = x.lgamma()
    z = torch.lgamma(x)
    return F.rrelu(x) + y + z


# A misspelled --entry, --passes or --print-ir-after gets the nearest name.
# RUN: not kiln compile %s --emit=ir --entry mising 2>&1 | FileCheck %s --check-prefix=ENTRY
# ENTRY: error: --entry 'mising' names no function or class in '{{.*}}diagnostics.py'; did you mean 'missing'?
# RUN: not kiln compile %s --entry typos -O2 --passes='kiln-fusio,cse,canonicalise' 2>&1 | FileCheck %s --check-prefix=PASSES
# PASSES: kiln: error: --passes: 'kiln-fusio' is not a registered pass (did you mean 'kiln-fusion'?); 'canonicalise' is not a registered pass (did you mean 'canonicalize'?)
# RUN: not kiln compile %s --entry typos -O2 --print-ir-after kiln-fuson 2>&1 | FileCheck %s --check-prefix=AFTER
# AFTER: kiln: error: no pass named 'kiln-fuson' runs in this pipeline; did you mean 'kiln-fusion'?; it runs:

# A module attribute is checked against the module's attributes and methods.
# RUN: not kiln compile %s --emit=ir --entry Net --random-weights=0 2>&1 | FileCheck %s --check-prefix=ATTR
# ATTR: diagnostics.py:[[@LINE+8]]:21: error: 'Net' has no attribute 'fc'; __init__ does not set it; did you mean 'fc1'?
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(3, 4)

    # kiln: x=f32[2,3]
    def forward(self, x):
        return self.fc(x)


# A name far from every known one gets no guess.
# RUN: not kiln compile %s --emit=ir --entry far 2>&1 | FileCheck %s --check-prefix=FAR
# FAR: error: a Tensor[f32, 2x3] has no attribute 'zzzzzz'{{$}}
# kiln: x=f32[2,3]
def far(x):
    return x.zzzzzz()


# Past 20 errors kiln stops, as clang does past -ferror-limit.
# RUN: not kiln compile %s --emit=ir --entry many 2>&1 | FileCheck %s --check-prefix=MANY
# MANY-COUNT-20: error: undefined name
# MANY: kiln: too many errors; stopping after 20
# kiln: x=f32[2,3]
def many(x):
    a1 = u1
    a2 = u2
    a3 = u3
    a4 = u4
    a5 = u5
    a6 = u6
    a7 = u7
    a8 = u8
    a9 = u9
    a10 = u10
    a11 = u11
    a12 = u12
    a13 = u13
    a14 = u14
    a15 = u15
    a16 = u16
    a17 = u17
    a18 = u18
    a19 = u19
    a20 = u20
    a21 = u21
    a22 = u22
    return x
