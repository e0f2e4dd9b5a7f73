# Compile errors reported by the lowering: type errors, unsupported constructs
# and bad shape specs. Each function below is one case, compiled alone with
# --entry; no function here is decorated with @torch.jit.script, so the bad
# ones are never compiled unless an --entry names them.

# Without --entry kiln compiles the @torch.jit.script functions; there are none.
# RUN: not kiln compile %s --emit=ir 2>&1 | FileCheck %s --check-prefix=NOSCRIPT --strict-whitespace --implicit-check-not=error:
# NOSCRIPT: {{^.*}}errors-lowering.py: error: no @torch.jit.script function to compile in '{{.*}}errors-lowering.py'; decorate one or pass --entry NAME (a function or an nn.Module class){{$}}

# Functions that fail to parse or to lower are not reported unless compiled:
# compiling good_entry alone succeeds although every other function is bad.
# RUN: kiln compile %s --emit=ir --entry good_entry 2>&1 | FileCheck %s --check-prefix=GOOD --implicit-check-not=error:
# GOOD: func.func @good_entry(%arg0: tensor<?x3xf32> {kiln.dims = ["B", "3"], kiln.name = "x"}) -> tensor<?x3xf32> attributes {kiln.entry}
# GOOD: call @helper
# GOOD: func.func private @helper(
# GOOD-NOT: func.func

# A bad --arg spec is a usage error: exit code 2, before the file is lowered.
# RUN: kiln compile %s --emit=ir --entry good_entry --arg 'x=q32[3]' > %t.out 2>&1; test $? -eq 2
# RUN: FileCheck %s --input-file=%t.out --check-prefix=BADARG --strict-whitespace
# BADARG: {{^}}kiln: error: --arg x=q32[3]: unknown dtype 'q32' in argument spec 'x=q32[3]' (expected one of f32, f16, bf16, f64, i32, i64, bool){{$}}

# In the default mode a @torch.jit.script function that failed to parse is
# reported even though nothing calls it.
# RUN: printf 'import torch\n\n@torch.jit.script\ndef f(x):\n    with torch.no_grad():\n        return x\n' > %t.py
# RUN: not kiln compile %t.py --emit=ir 2>&1 | FileCheck %s --check-prefix=SCRIPTSKIP --strict-whitespace --implicit-check-not=error:
# SCRIPTSKIP: {{^.*}}.py:5:5: error: with is not supported{{$}}
# SCRIPTSKIP-NEXT: {{^}}    with torch.no_grad():{{$}}
# SCRIPTSKIP-NEXT: {{^}}    ^~~~{{$}}

import torch
from typing import List, Optional


# kiln: x=f32[B,3]
def good_entry(x):
    return helper(x, x) * 2.0


def helper(a, b):
    return a + b


# A class a script function cannot use yet (see class_use).
class Holder:
    pass


# A variable that is a Tensor on one side of an if and an int on the other
# cannot be merged; the error points at the if and a note at each assignment.
# RUN: not kiln compile %s --emit=ir --entry branch_types 2>&1 | FileCheck %s --check-prefix=BRANCH --strict-whitespace --implicit-check-not='{{error|note}}:'
# BRANCH: {{^.*}}errors-lowering.py:[[@LINE+11]]:5: error: 'y' is a Tensor[f32, 3] in the true branch and an int in the false branch{{$}}
# BRANCH-NEXT: {{^}}    if c:{{$}}
# BRANCH-NEXT: {{^}}    ^~~~~{{$}}
# BRANCH-NEXT: {{^.*}}errors-lowering.py:[[@LINE+9]]:9: note: 'y' is a Tensor[f32, 3] here{{$}}
# BRANCH-NEXT: {{^}}        y = x{{$}}
# BRANCH-NEXT: {{^}}        ^{{$}}
# BRANCH-NEXT: {{^.*}}errors-lowering.py:[[@LINE+8]]:9: note: 'y' is an int here{{$}}
# BRANCH-NEXT: {{^}}        y = 1{{$}}
# BRANCH-NEXT: {{^}}        ^{{$}}
# kiln: x=f32[3]
def branch_types(x, c: bool):
    if c:
        y = x
    else:
        y = 1
    return y


# A variable assigned in only one branch is an error where it is read, with a
# note at the assignment.
# RUN: not kiln compile %s --emit=ir --entry one_branch 2>&1 | FileCheck %s --check-prefix=ONEBRANCH --strict-whitespace --implicit-check-not='{{error|note}}:'
# ONEBRANCH: {{^.*}}errors-lowering.py:[[@LINE+10]]:12: error: 'y' is assigned in the true branch but not in the false branch{{$}}
# ONEBRANCH-NEXT: {{^}}    return y{{$}}
# ONEBRANCH-NEXT: {{^}}           ^{{$}}
# ONEBRANCH-NEXT: {{^.*}}errors-lowering.py:[[@LINE+6]]:9: note: 'y' is assigned here{{$}}
# ONEBRANCH-NEXT: {{^}}        y = x{{$}}
# ONEBRANCH-NEXT: {{^}}        ^{{$}}
# kiln: x=f32[3]
def one_branch(x, c: bool):
    if c:
        y = x
    return y


# A variable first assigned in a loop body cannot be read after the loop.
# RUN: not kiln compile %s --emit=ir --entry loop_only 2>&1 | FileCheck %s --check-prefix=LOOPONLY --strict-whitespace --implicit-check-not='{{error|note}}:'
# LOOPONLY: {{^.*}}errors-lowering.py:[[@LINE+10]]:12: error: 'z' is assigned in the loop body but not defined before the loop; define it before the loop{{$}}
# LOOPONLY-NEXT: {{^}}    return z{{$}}
# LOOPONLY-NEXT: {{^}}           ^{{$}}
# LOOPONLY-NEXT: {{^.*}}errors-lowering.py:[[@LINE+6]]:9: note: 'z' is assigned here{{$}}
# LOOPONLY-NEXT: {{^}}        z = x + i{{$}}
# LOOPONLY-NEXT: {{^}}        ^{{$}}
# kiln: x=f32[3]
def loop_only(x):
    for i in range(3):
        z = x + i
    return z


# A loop-carried tensor whose rank changes in the body is rejected, with a
# note at its value before the loop.
# RUN: not kiln compile %s --emit=ir --entry loop_rank 2>&1 | FileCheck %s --check-prefix=LOOPRANK --strict-whitespace --implicit-check-not='{{error|note}}:'
# LOOPRANK: {{^.*}}errors-lowering.py:[[@LINE+10]]:9: error: 'y' is a Tensor[f32, 3] before the loop and a Tensor[f32, 1x3] at the end of its body{{$}}
# LOOPRANK-NEXT: {{^}}        y = y.unsqueeze(0){{$}}
# LOOPRANK-NEXT: {{^}}        ^{{$}}
# LOOPRANK-NEXT: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: note: 'y' is a Tensor[f32, 3] here{{$}}
# LOOPRANK-NEXT: {{^}}    y = x{{$}}
# LOOPRANK-NEXT: {{^}}    ^{{$}}
# kiln: x=f32[3]
def loop_rank(x):
    y = x
    for i in range(3):
        y = y.unsqueeze(0)
    return y


# A loop-carried tensor whose dtype changes in the body is rejected.
# RUN: not kiln compile %s --emit=ir --entry loop_dtype 2>&1 | FileCheck %s --check-prefix=LOOPDTYPE --strict-whitespace --implicit-check-not='{{error|note}}:'
# LOOPDTYPE: {{^.*}}errors-lowering.py:[[@LINE+10]]:9: error: 'y' is a Tensor[f32, 3] before the loop and a Tensor[bool, 3] at the end of its body{{$}}
# LOOPDTYPE-NEXT: {{^}}        y = y > 0{{$}}
# LOOPDTYPE-NEXT: {{^}}        ^{{$}}
# LOOPDTYPE-NEXT: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: note: 'y' is a Tensor[f32, 3] here{{$}}
# LOOPDTYPE-NEXT: {{^}}    y = x{{$}}
# LOOPDTYPE-NEXT: {{^}}    ^{{$}}
# kiln: x=f32[3]
def loop_dtype(x):
    y = x
    for i in range(3):
        y = y > 0
    return y


# A loop-carried int that becomes a float in a while body is rejected.
# RUN: not kiln compile %s --emit=ir --entry loop_scalar 2>&1 | FileCheck %s --check-prefix=LOOPSCALAR --strict-whitespace --implicit-check-not='{{error|note}}:'
# LOOPSCALAR: {{^.*}}errors-lowering.py:[[@LINE+10]]:9: error: 'n' is an int before the loop and a float at the end of its body{{$}}
# LOOPSCALAR-NEXT: {{^}}        n = n + 0.5{{$}}
# LOOPSCALAR-NEXT: {{^}}        ^{{$}}
# LOOPSCALAR-NEXT: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: note: 'n' is an int here{{$}}
# LOOPSCALAR-NEXT: {{^}}    n = 0{{$}}
# LOOPSCALAR-NEXT: {{^}}    ^{{$}}
# kiln: x=f32[3]
def loop_scalar(x):
    n = 0
    while n < 3:
        n = n + 0.5
    return x


# A loop-carried list whose element type changes is rejected.
# RUN: not kiln compile %s --emit=ir --entry loop_list 2>&1 | FileCheck %s --check-prefix=LOOPLIST --strict-whitespace --implicit-check-not='{{error|note}}:'
# LOOPLIST: {{^.*}}errors-lowering.py:[[@LINE+10]]:9: error: 'a' is a List[Tensor[f32, 3]] before the loop and a List[int] at the end of its body{{$}}
# LOOPLIST-NEXT: {{^}}        a = [1]{{$}}
# LOOPLIST-NEXT: {{^}}        ^{{$}}
# LOOPLIST-NEXT: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: note: 'a' is a List[Tensor[f32, 3]] here{{$}}
# LOOPLIST-NEXT: {{^}}    a = [x]{{$}}
# LOOPLIST-NEXT: {{^}}    ^{{$}}
# kiln: x=f32[3]
def loop_list(x):
    a = [x]
    for i in range(3):
        a = [1]
    return x


# An undefined name is reported with its range.
# RUN: not kiln compile %s --emit=ir --entry undefined 2>&1 | FileCheck %s --check-prefix=UNDEF --strict-whitespace --implicit-check-not='{{error|note}}:'
# UNDEF: {{^.*}}errors-lowering.py:[[@LINE+5]]:16: error: undefined name 'zz'{{$}}
# UNDEF-NEXT: {{^}}    return x + zz{{$}}
# UNDEF-NEXT: {{^}}               ^~{{$}}
# kiln: x=f32[3]
def undefined(x):
    return x + zz


# str + Tensor has no meaning: the error is at the operator and a note
# describes each operand.
# RUN: not kiln compile %s --emit=ir --entry str_plus 2>&1 | FileCheck %s --check-prefix=STRPLUS --strict-whitespace --implicit-check-not='{{error|note}}:'
# STRPLUS: {{^.*}}errors-lowering.py:[[@LINE+11]]:16: error: unsupported operand types for +: a str and a Tensor[f32, 3]{{$}}
# STRPLUS-NEXT: {{^}}    return "a" + x{{$}}
# STRPLUS-NEXT: {{^}}               ^{{$}}
# STRPLUS-NEXT: {{^.*}}errors-lowering.py:[[@LINE+8]]:12: note: the left operand is a str{{$}}
# STRPLUS-NEXT: {{^}}    return "a" + x{{$}}
# STRPLUS-NEXT: {{^}}           ^~~{{$}}
# STRPLUS-NEXT: {{^.*}}errors-lowering.py:[[@LINE+5]]:18: note: the right operand is a Tensor[f32, 3]{{$}}
# STRPLUS-NEXT: {{^}}    return "a" + x{{$}}
# STRPLUS-NEXT: {{^}}                 ^{{$}}
# kiln: x=f32[3]
def str_plus(x):
    return "a" + x


# Indexing a rank-2 tensor with three indices is rejected.
# RUN: not kiln compile %s --emit=ir --entry too_many_indices 2>&1 | FileCheck %s --check-prefix=TOOMANY --strict-whitespace --implicit-check-not='{{error|note}}:'
# TOOMANY: {{^.*}}errors-lowering.py:[[@LINE+5]]:12: error: too many indices for a tensor of rank 2: 3 given{{$}}
# TOOMANY-NEXT: {{^}}    return x[0, 1, 2]{{$}}
# TOOMANY-NEXT: {{^}}           ^~~~~~~~~~{{$}}
# kiln: x=f32[3,4]
def too_many_indices(x):
    return x[0, 1, 2]


# A constant index past a static size is rejected at compile time.
# RUN: not kiln compile %s --emit=ir --entry index_range 2>&1 | FileCheck %s --check-prefix=INDEXRANGE --strict-whitespace --implicit-check-not='{{error|note}}:'
# INDEXRANGE: {{^.*}}errors-lowering.py:[[@LINE+5]]:14: error: index 5 is out of range for dimension 0 of size 3{{$}}
# INDEXRANGE-NEXT: {{^}}    return x[5]{{$}}
# INDEXRANGE-NEXT: {{^}}             ^{{$}}
# kiln: x=f32[3,4]
def index_range(x):
    return x[5]


# A constant index past the end of a tuple is rejected.
# RUN: not kiln compile %s --emit=ir --entry tuple_index 2>&1 | FileCheck %s --check-prefix=TUPLEINDEX --strict-whitespace --implicit-check-not='{{error|note}}:'
# TUPLEINDEX: {{^.*}}errors-lowering.py:[[@LINE+6]]:14: error: tuple index 2 is out of range for a tuple of 2{{$}}
# TUPLEINDEX-NEXT: {{^}}    return t[2]{{$}}
# TUPLEINDEX-NEXT: {{^}}             ^{{$}}
# kiln: x=f32[3]
def tuple_index(x):
    t = (x, x)
    return t[2]


# A reduction over a dimension the tensor does not have is rejected.
# RUN: not kiln compile %s --emit=ir --entry reduce_dim 2>&1 | FileCheck %s --check-prefix=REDUCEDIM --strict-whitespace --implicit-check-not='{{error|note}}:'
# REDUCEDIM: {{^.*}}errors-lowering.py:[[@LINE+5]]:18: error: dimension 2 is out of range for a tensor of rank 2{{$}}
# REDUCEDIM-NEXT: {{^}}    return x.sum(2){{$}}
# REDUCEDIM-NEXT: {{^}}                 ^{{$}}
# kiln: x=f32[3,4]
def reduce_dim(x):
    return x.sum(2)


# 'in' searches a tuple or a list, not a number.
# RUN: not kiln compile %s --emit=ir --entry in_op 2>&1 | FileCheck %s --check-prefix=INOP --strict-whitespace --implicit-check-not='{{error|note}}:'
# INOP: {{^.*}}errors-lowering.py:[[@LINE+6]]:12: error: 'in' is supported on a tuple or a list only, not a float{{$}}
# INOP-NEXT: {{^}}    return 1 in a{{$}}
# INOP-NEXT: {{^}}           ^~~~~~{{$}}
# kiln: x=f32[3]
def in_op(x):
    a = 1.5
    return 1 in a


# 'is' is supported only against None.
# RUN: not kiln compile %s --emit=ir --entry is_op 2>&1 | FileCheck %s --check-prefix=ISOP --strict-whitespace --implicit-check-not='{{error|note}}:'
# ISOP: {{^.*}}errors-lowering.py:[[@LINE+5]]:12: error: 'is' is supported only against None{{$}}
# ISOP-NEXT: {{^}}    return x is 1{{$}}
# ISOP-NEXT: {{^}}           ^~~~~~{{$}}
# kiln: x=f32[3]
def is_op(x):
    return x is 1


# A list literal must have one element type; the error points at the first
# element that differs.
# RUN: not kiln compile %s --emit=ir --entry mixed_list 2>&1 | FileCheck %s --check-prefix=MIXEDLIST --strict-whitespace --implicit-check-not='{{error|note}}:'
# MIXEDLIST: {{^.*}}errors-lowering.py:[[@LINE+5]]:13: error: list elements must have one type: element 0 is a Tensor[f32, 3] and element 1 is an int{{$}}
# MIXEDLIST-NEXT: {{^}}    a = [x, 1]{{$}}
# MIXEDLIST-NEXT: {{^}}            ^{{$}}
# kiln: x=f32[3]
def mixed_list(x):
    a = [x, 1]
    return x


# Appending a Tensor to a list of ints is rejected.
# RUN: not kiln compile %s --emit=ir --entry append_type 2>&1 | FileCheck %s --check-prefix=APPEND --strict-whitespace --implicit-check-not='{{error|note}}:'
# APPEND: {{^.*}}errors-lowering.py:[[@LINE+6]]:14: error: cannot add a Tensor[f32, 3] to a list of int{{$}}
# APPEND-NEXT: {{^}}    a.append(x){{$}}
# APPEND-NEXT: {{^}}             ^{{$}}
# kiln: x=f32[3]
def append_type(x):
    a = [1, 2]
    a.append(x)
    return a


# A tensor whose size is known to differ from the list's first element's
# (eager Python would accept it) is a clear error, not a bad cast.
# RUN: not kiln compile %s --emit=ir --entry append_size 2>&1 | FileCheck %s --check-prefix=APPENDSIZE --strict-whitespace --implicit-check-not='{{error|note}}:'
# APPENDSIZE: {{^.*}}errors-lowering.py:[[@LINE+6]]:14: error: cannot add a Tensor[f32, 2] to a list of Tensor[f32, 4]: kiln's lists hold tensors whose sizes agree where both are known when compiling (dim 0 here){{$}}
# APPENDSIZE-NEXT: {{^}}    a.append(x[1:3, 0]){{$}}
# APPENDSIZE-NEXT: {{^}}             ^~~~~~~~~{{$}}
# kiln: x=f32[4,4]
def append_size(x):
    a = [x[0]]
    a.append(x[1:3, 0])
    return len(a)


# List methods other than append are rejected.
# RUN: not kiln compile %s --emit=ir --entry list_method 2>&1 | FileCheck %s --check-prefix=LISTMETHOD --strict-whitespace --implicit-check-not='{{error|note}}:'
# LISTMETHOD: {{^.*}}errors-lowering.py:[[@LINE+6]]:9: error: the list method 'pop' is not supported{{$}}
# LISTMETHOD-NEXT: {{^}}    b = a.pop(){{$}}
# LISTMETHOD-NEXT: {{^}}        ^~~~~~~{{$}}
# kiln: x=f32[3]
def list_method(x):
    a = [1, 2]
    b = a.pop()
    return x


# Only tuples can be unpacked; unpacking a Tensor is rejected.
# RUN: not kiln compile %s --emit=ir --entry unpack_tensor 2>&1 | FileCheck %s --check-prefix=UNPACKT --strict-whitespace --implicit-check-not='{{error|note}}:'
# UNPACKT: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: error: cannot unpack a Tensor[f32, 3] into 2 names; only tuples can be unpacked{{$}}
# UNPACKT-NEXT: {{^}}    a, b = x{{$}}
# UNPACKT-NEXT: {{^}}    ^~~~{{$}}
# kiln: x=f32[3]
def unpack_tensor(x):
    a, b = x
    return a


# Unpacking a tuple into the wrong number of names is rejected.
# RUN: not kiln compile %s --emit=ir --entry unpack_count 2>&1 | FileCheck %s --check-prefix=UNPACKN --strict-whitespace --implicit-check-not='{{error|note}}:'
# UNPACKN: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: error: cannot unpack a tuple of 3 values into 2 names{{$}}
# UNPACKN-NEXT: {{^}}    a, b = (x, x, x){{$}}
# UNPACKN-NEXT: {{^}}    ^~~~{{$}}
# kiln: x=f32[3]
def unpack_count(x):
    a, b = (x, x, x)
    return a


# An unknown Tensor method is rejected at its name, as Python would.
# RUN: not kiln compile %s --emit=ir --entry unknown_method 2>&1 | FileCheck %s --check-prefix=METHOD --strict-whitespace --implicit-check-not='{{error|note}}:'
# METHOD: {{^.*}}errors-lowering.py:[[@LINE+5]]:14: error: a Tensor[f32, 3] has no attribute 'frobnicate'{{$}}
# METHOD-NEXT: {{^}}    return x.frobnicate(){{$}}
# METHOD-NEXT: {{^}}             ^~~~~~~~~~{{$}}
# kiln: x=f32[3]
def unknown_method(x):
    return x.frobnicate()


# An unknown torch.nn.functional function is rejected at its name.
# RUN: not kiln compile %s --emit=ir --entry unknown_functional 2>&1 | FileCheck %s --check-prefix=FUNCTIONAL --strict-whitespace --implicit-check-not='{{error|note}}:'
# FUNCTIONAL: {{^.*}}errors-lowering.py:[[@LINE+5]]:12: error: 'torch.nn.functional.softsign' is a PyTorch function that kiln does not support yet{{$}}
# FUNCTIONAL-NEXT: {{^}}    return torch.nn.functional.softsign(x){{$}}
# FUNCTIONAL-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[3]
def unknown_functional(x):
    return torch.nn.functional.softsign(x)


# A Python builtin outside the subset is rejected at its name.
# RUN: not kiln compile %s --emit=ir --entry unknown_builtin 2>&1 | FileCheck %s --check-prefix=BUILTIN --strict-whitespace --implicit-check-not='{{error|note}}:'
# BUILTIN: {{^.*}}errors-lowering.py:[[@LINE+5]]:14: error: the Python builtin 'sorted' is not supported yet; docs/python-subset.md lists the ones kiln compiles{{$}}
# BUILTIN-NEXT: {{^}}    for v in sorted([1, 2]):{{$}}
# BUILTIN-NEXT: {{^}}             ^~~~~~{{$}}
# kiln: x=f32[3]
def unknown_builtin(x):
    for v in sorted([1, 2]):
        x = x + v
    return x


# An unexpected keyword argument to a Tensor method is reported at the
# keyword.
# RUN: not kiln compile %s --emit=ir --entry bad_keyword 2>&1 | FileCheck %s --check-prefix=KEYWORD --strict-whitespace --implicit-check-not='{{error|note}}:'
# KEYWORD: {{^.*}}errors-lowering.py:[[@LINE+5]]:18: error: Tensor.sum() got an unexpected keyword argument 'dimm'; the schema is sum(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor{{$}}
# KEYWORD-NEXT: {{^}}    return x.sum(dimm=0){{$}}
# KEYWORD-NEXT: {{^}}                 ^~~~~~{{$}}
# kiln: x=f32[3]
def bad_keyword(x):
    return x.sum(dimm=0)


# Calling a helper without one of its arguments is rejected.
# RUN: not kiln compile %s --emit=ir --entry missing_arg 2>&1 | FileCheck %s --check-prefix=MISSINGARG --strict-whitespace --implicit-check-not='{{error|note}}:'
# MISSINGARG: {{^.*}}errors-lowering.py:[[@LINE+5]]:12: error: helper() is missing the argument 'b'{{$}}
# MISSINGARG-NEXT: {{^}}    return helper(x){{$}}
# MISSINGARG-NEXT: {{^}}           ^~~~~~~~~{{$}}
# kiln: x=f32[3]
def missing_arg(x):
    return helper(x)


# Calling a helper with too many arguments is rejected.
# RUN: not kiln compile %s --emit=ir --entry too_many_args 2>&1 | FileCheck %s --check-prefix=TOOMANYARGS --strict-whitespace --implicit-check-not='{{error|note}}:'
# TOOMANYARGS: {{^.*}}errors-lowering.py:[[@LINE+5]]:12: error: helper() takes at most 2 arguments (3 given){{$}}
# TOOMANYARGS-NEXT: {{^}}    return helper(x, x, x){{$}}
# TOOMANYARGS-NEXT: {{^}}           ^~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[3]
def too_many_args(x):
    return helper(x, x, x)


# Giving a helper argument both by position and by keyword is rejected.
# RUN: not kiln compile %s --emit=ir --entry multiple_values 2>&1 | FileCheck %s --check-prefix=MULTIPLE --strict-whitespace --implicit-check-not='{{error|note}}:'
# MULTIPLE: {{^.*}}errors-lowering.py:[[@LINE+5]]:22: error: helper() got multiple values for argument 'a'{{$}}
# MULTIPLE-NEXT: {{^}}    return helper(x, a=x){{$}}
# MULTIPLE-NEXT: {{^}}                     ^~~{{$}}
# kiln: x=f32[3]
def multiple_values(x):
    return helper(x, a=x)


# Helpers are specialized per argument type; None cannot be passed.
# RUN: not kiln compile %s --emit=ir --entry pass_none 2>&1 | FileCheck %s --check-prefix=PASSNONE --strict-whitespace --implicit-check-not='{{error|note}}:'
# PASSNONE: {{^.*}}errors-lowering.py:[[@LINE+5]]:12: error: cannot pass None to 'helper'; helpers take tensors, scalars, lists and tuples of them{{$}}
# PASSNONE-NEXT: {{^}}    return helper(None, x){{$}}
# PASSNONE-NEXT: {{^}}           ^~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[3]
def pass_none(x):
    return helper(None, x)


# Calling an int is rejected at the callee.
# RUN: not kiln compile %s --emit=ir --entry not_callable 2>&1 | FileCheck %s --check-prefix=NOTCALLABLE --strict-whitespace --implicit-check-not='{{error|note}}:'
# NOTCALLABLE: {{^.*}}errors-lowering.py:[[@LINE+6]]:12: error: an int is not callable{{$}}
# NOTCALLABLE-NEXT: {{^}}    return y(x){{$}}
# NOTCALLABLE-NEXT: {{^}}           ^{{$}}
# kiln: x=f32[3]
def not_callable(x):
    y = 3
    return y(x)


# A recursive helper is rejected at the recursive call.
# RUN: not kiln compile %s --emit=ir --entry recursive 2>&1 | FileCheck %s --check-prefix=RECURSIVE --strict-whitespace --implicit-check-not='{{error|note}}:'
# RECURSIVE: {{^.*}}errors-lowering.py:[[@LINE+4]]:12: error: recursive call to 'recurse' is not supported{{$}}
# RECURSIVE-NEXT: {{^}}    return recurse(a){{$}}
# RECURSIVE-NEXT: {{^}}           ^~~~~~~~~~{{$}}
def recurse(a):
    return recurse(a)

# kiln: x=f32[3]
def recursive(x):
    return recurse(x)


# 'break' outside a loop is reported by the lowering.
# RUN: not kiln compile %s --emit=ir --entry break_outside 2>&1 | FileCheck %s --check-prefix=BREAK --strict-whitespace --implicit-check-not='{{error|note}}:'
# BREAK: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: error: 'break' outside a loop{{$}}
# BREAK-NEXT: {{^}}    break{{$}}
# BREAK-NEXT: {{^}}    ^~~~~{{$}}
# kiln: x=f32[3]
def break_outside(x):
    break
    return x


# 'continue' outside a loop is reported by the lowering.
# RUN: not kiln compile %s --emit=ir --entry continue_outside 2>&1 | FileCheck %s --check-prefix=CONTINUE --strict-whitespace --implicit-check-not='{{error|note}}:'
# CONTINUE: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: error: 'continue' outside a loop{{$}}
# CONTINUE-NEXT: {{^}}    continue{{$}}
# CONTINUE-NEXT: {{^}}    ^~~~~~~~{{$}}
# kiln: x=f32[3]
def continue_outside(x):
    continue
    return x


# A function that returns a value on some paths only is rejected at its
# name.
# RUN: not kiln compile %s --emit=ir --entry some_paths 2>&1 | FileCheck %s --check-prefix=PATHS --strict-whitespace --implicit-check-not='{{error|note}}:'
# PATHS: {{^.*}}errors-lowering.py:[[@LINE+4]]:5: error: not every path through 'some_paths' returns a value; add a return at the end{{$}}
# PATHS-NEXT: {{^}}def some_paths(x, c: bool):{{$}}
# PATHS-NEXT: {{^}}    ^~~~~~~~~~{{$}}
# kiln: x=f32[3]
def some_paths(x, c: bool):
    if c:
        return x


# A multi-element tensor as an if condition is rejected.
# RUN: not kiln compile %s --emit=ir --entry ambiguous_truth 2>&1 | FileCheck %s --check-prefix=TRUTH --strict-whitespace --implicit-check-not='{{error|note}}:'
# TRUTH: {{^.*}}errors-lowering.py:[[@LINE+5]]:8: error: the truth value of a Tensor[f32, 3] is ambiguous; reduce it to one element first{{$}}
# TRUTH-NEXT: {{^}}    if x:{{$}}
# TRUTH-NEXT: {{^}}       ^{{$}}
# kiln: x=f32[3]
def ambiguous_truth(x):
    if x:
        return x
    return x + 1


# Subscript assignment needs a Tensor; a list element cannot be assigned.
# RUN: not kiln compile %s --emit=ir --entry list_store 2>&1 | FileCheck %s --check-prefix=LISTSTORE --strict-whitespace --implicit-check-not='{{error|note}}:'
# LISTSTORE: {{^.*}}errors-lowering.py:[[@LINE+6]]:5: error: cannot assign to an element of a List[int]; subscript assignment needs a Tensor{{$}}
# LISTSTORE-NEXT: {{^}}    a[0] = 3{{$}}
# LISTSTORE-NEXT: {{^}}    ^{{$}}
# kiln: x=f32[3]
def list_store(x):
    a = [1, 2]
    a[0] = 3
    return x


# Assigning to an attribute is rejected.
# RUN: not kiln compile %s --emit=ir --entry attribute_store 2>&1 | FileCheck %s --check-prefix=ATTRSTORE --strict-whitespace --implicit-check-not='{{error|note}}:'
# ATTRSTORE: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: error: assigning to an attribute is not supported{{$}}
# ATTRSTORE-NEXT: {{^}}    x.foo = 1{{$}}
# ATTRSTORE-NEXT: {{^}}    ^~~~~{{$}}
# kiln: x=f32[3]
def attribute_store(x):
    x.foo = 1
    return x


# An assert message must be a string known at compile time.
# RUN: not kiln compile %s --emit=ir --entry assert_message 2>&1 | FileCheck %s --check-prefix=ASSERT --strict-whitespace --implicit-check-not='{{error|note}}:'
# ASSERT: {{^.*}}errors-lowering.py:[[@LINE+5]]:25: error: an assert message must be a string known while compiling (a literal, or an f-string or str.format() of values known then), not an int{{$}}
# ASSERT-NEXT: {{^}}    assert x.sum() > 0, 3{{$}}
# ASSERT-NEXT: {{^}}                        ^{{$}}
# kiln: x=f32[3]
def assert_message(x):
    assert x.sum() > 0, 3
    return x


# Reshaping to a static shape with another element count is rejected.
# RUN: not kiln compile %s --emit=ir --entry reshape_count 2>&1 | FileCheck %s --check-prefix=RESHAPE --strict-whitespace --implicit-check-not='{{error|note}}:'
# RESHAPE: {{^.*}}errors-lowering.py:[[@LINE+5]]:12: error: cannot reshape a Tensor[f32, 2x3] to Tensor[f32, 4x2]: the element counts differ{{$}}
# RESHAPE-NEXT: {{^}}    return x.reshape(4, 2){{$}}
# RESHAPE-NEXT: {{^}}           ^~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[2,3]
def reshape_count(x):
    return x.reshape(4, 2)


# range() is supported only as the iterable of a for loop.
# RUN: not kiln compile %s --emit=ir --entry range_value 2>&1 | FileCheck %s --check-prefix=RANGE --strict-whitespace --implicit-check-not='{{error|note}}:'
# RANGE: {{^.*}}errors-lowering.py:[[@LINE+5]]:9: error: range() is supported only as the iterable of a for loop{{$}}
# RANGE-NEXT: {{^}}    r = range(3){{$}}
# RANGE-NEXT: {{^}}        ^~~~~~~~{{$}}
# kiln: x=f32[3]
def range_value(x):
    r = range(3)
    return x


# The builtin min() takes numbers; it points to torch.minimum.
# RUN: not kiln compile %s --emit=ir --entry min_tensors 2>&1 | FileCheck %s --check-prefix=MINTENSOR --strict-whitespace --implicit-check-not='{{error|note}}:'
# MINTENSOR: {{^.*}}errors-lowering.py:[[@LINE+5]]:12: error: min() takes numbers; use torch.minimum for tensors{{$}}
# MINTENSOR-NEXT: {{^}}    return min(x, x){{$}}
# MINTENSOR-NEXT: {{^}}           ^~~~~~~~~{{$}}
# kiln: x=f32[3]
def min_tensors(x):
    return min(x, x)


# A negative slice step is rejected at the step.
# RUN: not kiln compile %s --emit=ir --entry negative_step 2>&1 | FileCheck %s --check-prefix=STEP --strict-whitespace --implicit-check-not='{{error|note}}:'
# STEP: {{^.*}}errors-lowering.py:[[@LINE+5]]:16: error: slice step must be a positive constant{{$}}
# STEP-NEXT: {{^}}    return x[::-1]{{$}}
# STEP-NEXT: {{^}}               ^~{{$}}
# kiln: x=f32[3]
def negative_step(x):
    return x[::-1]


# Using a class inside a script function is rejected.
# RUN: not kiln compile %s --emit=ir --entry class_use 2>&1 | FileCheck %s --check-prefix=CLASSUSE --strict-whitespace --implicit-check-not='{{error|note}}:'
# CLASSUSE: {{^.*}}errors-lowering.py:[[@LINE+5]]:9: error: using the class 'Holder' inside a script function is not supported yet{{$}}
# CLASSUSE-NEXT: {{^}}    f = Holder(){{$}}
# CLASSUSE-NEXT: {{^}}        ^~~~~~{{$}}
# kiln: x=f32[3]
def class_use(x):
    f = Holder()
    return x


# An import inside a function is rejected.
# RUN: not kiln compile %s --emit=ir --entry import_inside 2>&1 | FileCheck %s --check-prefix=IMPORT --strict-whitespace --implicit-check-not='{{error|note}}:'
# IMPORT: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: error: import inside a function is not supported{{$}}
# IMPORT-NEXT: {{^}}    import math{{$}}
# IMPORT-NEXT: {{^}}    ^~~~~~~~~~~{{$}}
# kiln: x=f32[3]
def import_inside(x):
    import math
    return x


# A nested def makes the parser skip the function; the error is reported
# only because this function is compiled.
# RUN: not kiln compile %s --emit=ir --entry nested_def 2>&1 | FileCheck %s --check-prefix=NESTEDDEF --strict-whitespace --implicit-check-not='{{error|note}}:'
# NESTEDDEF: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: error: nested def is not supported{{$}}
# NESTEDDEF-NEXT: {{^}}    def inner(y):{{$}}
# NESTEDDEF-NEXT: {{^}}    ^~~{{$}}
# kiln: x=f32[3]
def nested_def(x):
    def inner(y):
        return y
    return x


# try/except is reported when the function is compiled.
# RUN: not kiln compile %s --emit=ir --entry try_except 2>&1 | FileCheck %s --check-prefix=TRY --strict-whitespace --implicit-check-not='{{error|note}}:'
# TRY: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: error: try/except is not supported{{$}}
# TRY-NEXT: {{^}}    try:{{$}}
# TRY-NEXT: {{^}}    ^~~{{$}}
# kiln: x=f32[3]
def try_except(x):
    try:
        y = x
    except Exception:
        y = x
    return y


# with is reported when the function is compiled.
# RUN: not kiln compile %s --emit=ir --entry with_stmt 2>&1 | FileCheck %s --check-prefix=WITH --strict-whitespace --implicit-check-not='{{error|note}}:'
# WITH: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: error: with is not supported{{$}}
# WITH-NEXT: {{^}}    with torch.no_grad():{{$}}
# WITH-NEXT: {{^}}    ^~~~{{$}}
# kiln: x=f32[3]
def with_stmt(x):
    with torch.no_grad():
        y = x
    return y


# lambda is reported when the function is compiled.
# RUN: not kiln compile %s --emit=ir --entry lambda_expr 2>&1 | FileCheck %s --check-prefix=LAMBDA --strict-whitespace --implicit-check-not='{{error|note}}:'
# LAMBDA: {{^.*}}errors-lowering.py:[[@LINE+5]]:9: error: lambda is not supported{{$}}
# LAMBDA-NEXT: {{^}}    f = lambda a: a{{$}}
# LAMBDA-NEXT: {{^}}        ^~~~~~{{$}}
# kiln: x=f32[3]
def lambda_expr(x):
    f = lambda a: a
    return x


# global is reported when the function is compiled.
# RUN: not kiln compile %s --emit=ir --entry global_stmt 2>&1 | FileCheck %s --check-prefix=GLOBAL --strict-whitespace --implicit-check-not='{{error|note}}:'
# GLOBAL: {{^.*}}errors-lowering.py:[[@LINE+5]]:5: error: global is not supported{{$}}
# GLOBAL-NEXT: {{^}}    global counter{{$}}
# GLOBAL-NEXT: {{^}}    ^~~~~~{{$}}
# kiln: x=f32[3]
def global_stmt(x):
    global counter
    return x


# A set display is reported when the function is compiled.
# RUN: not kiln compile %s --emit=ir --entry set_display 2>&1 | FileCheck %s --check-prefix=SETDISPLAY --strict-whitespace --implicit-check-not='{{error|note}}:'
# SETDISPLAY: {{^.*}}errors-lowering.py:[[@LINE+5]]:9: error: set display is not supported{{$}}
# SETDISPLAY-NEXT: {{^}}    a = {1, 2}{{$}}
# SETDISPLAY-NEXT: {{^}}        ^~~~~~{{$}}
# kiln: x=f32[3]
def set_display(x):
    a = {1, 2}
    return x


# A decorator other than @torch.jit.script is rejected when the function is
# compiled.
# RUN: not kiln compile %s --emit=ir --entry other_decorator 2>&1 | FileCheck %s --check-prefix=DECORATOR --strict-whitespace --implicit-check-not='{{error|note}}:'
# DECORATOR: {{^.*}}errors-lowering.py:[[@LINE+4]]:2: error: decorator '@torch.jit.ignore' is not supported; only @torch.jit.script is{{$}}
# DECORATOR-NEXT: {{^}}@torch.jit.ignore{{$}}
# DECORATOR-NEXT: {{^}} ^~~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[3]
@torch.jit.ignore
def other_decorator(x):
    return x


# Static shapes that cannot broadcast are rejected, naming both types
# and pointing at each operand.
# RUN: not kiln compile %s --entry broadcast_mismatch 2>&1 | FileCheck %s --check-prefix=BCAST --implicit-check-not=error:
# BCAST: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: error: operands are not broadcast-compatible: Tensor[f32, 3] and Tensor[f32, 4] differ in dimension 0 (3 vs 4)
# BCAST: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: note: the left operand is a Tensor[f32, 3]
# BCAST: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: note: the right operand is a Tensor[f32, 4]
# kiln: x=f32[3], y=f32[4]
def broadcast_mismatch(x, y):
    return x + y


# A matmul whose contraction dims differ names both shapes; the notes
# point at each argument.
# RUN: not kiln compile %s --entry matmul_mismatch 2>&1 | FileCheck %s --check-prefix=MATMUL --implicit-check-not=error:
# MATMUL: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: error: matmul contraction dimensions differ: Tensor[f32, 3x4] and Tensor[f32, 5x6] (4 vs 5)
# MATMUL: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: note: the left operand is a Tensor[f32, 3x4]
# MATMUL: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: note: the right operand is a Tensor[f32, 5x6]
# kiln: x=f32[3,4], y=f32[5,6]
def matmul_mismatch(x, y):
    return torch.matmul(x, y)


# An unknown torch function is named as such, at the function name.
# RUN: not kiln compile %s --entry unknown_torch_function 2>&1 | FileCheck %s --check-prefix=TORCHFN --implicit-check-not=error:
# TORCHFN: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: error: 'torch.fft' is a PyTorch function that kiln does not support yet
# kiln: x=f32[3]
def unknown_torch_function(x):
    return torch.fft(x)


# An unknown Tensor attribute is an error even when unused.
# RUN: not kiln compile %s --entry unknown_attribute 2>&1 | FileCheck %s --check-prefix=ATTR --implicit-check-not=error:
# ATTR: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: error: a Tensor[f32, 3] has no attribute 'foo'
# kiln: x=f32[3]
def unknown_attribute(x):
    y = x.foo
    return x


# The two sides of a conditional expression must have one type.
# RUN: not kiln compile %s --entry conditional_types 2>&1 | FileCheck %s --check-prefix=IFEXP --implicit-check-not=error:
# IFEXP: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: error: the value of this expression is a Tensor[f32, 3] in the true branch and an int in the false branch
# IFEXP: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: note: the value of this expression is a Tensor[f32, 3] here
# IFEXP: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: note: the value of this expression is an int here
# kiln: x=f32[3]
def conditional_types(x, c: bool):
    return x if c else 1


# `a: List[int] = []` fixes the element type, so appending a Tensor fails.
# RUN: not kiln compile %s --entry annotated_list 2>&1 | FileCheck %s --check-prefix=LISTANN --implicit-check-not=error:
# LISTANN: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: error: cannot add a Tensor[f32, 3] to a list of int
# kiln: x=f32[3]
def annotated_list(x):
    a: List[int] = []
    a.append(x)
    return a


# An entry point parameter of an unsupported type is named as written.
# RUN: not kiln compile %s --entry optional_param 2>&1 | FileCheck %s --check-prefix=OPTPARAM --implicit-check-not=error:
# OPTPARAM: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: error: parameter 'o' of entry point 'optional_param' has type 'Optional[List[int]]'; entry points take Tensor, int, float and bool, Optional of each, str, and Lists and Tuples of Tensor, int, float and bool
# kiln: x=f32[3]
def optional_param(x, o: Optional[List[int]]):
    return x


# unsqueeze's valid range is one wider than the rank.
# RUN: not kiln compile %s --entry unsqueeze_dim 2>&1 | FileCheck %s --check-prefix=UNSQ --implicit-check-not=error:
# UNSQ: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: error: unsqueeze dimension 3 is out of range for a tensor of rank 1 (expected -2 to 1)
# kiln: x=f32[3]
def unsqueeze_dim(x):
    return x.unsqueeze(3)


# A builtin is not a value; it is named the way the user wrote it.
# RUN: not kiln compile %s --entry return_builtin 2>&1 | FileCheck %s --check-prefix=RETBUILTIN --implicit-check-not=error:
# RETBUILTIN: {{.*}}errors-lowering.py:{{[0-9]+}}:{{[0-9]+}}: error: cannot return the builtin 'abs'; functions return tensors, scalars, lists and tuples of them
# kiln: x=f32[3]
def return_builtin(x):
    return abs


# A comparison method reports like the operator: both operands get a note.
# RUN: not kiln compile %s --entry method_compare 2>&1 | FileCheck %s --check-prefix=METHODCMP --implicit-check-not=error:
# METHODCMP: {{.*}}errors-lowering.py:[[@LINE+5]]:12: error: operands are not broadcast-compatible: Tensor[f32, 3] and Tensor[f32, 4] differ in dimension 0 (3 vs 4)
# METHODCMP: {{.*}}errors-lowering.py:[[@LINE+4]]:12: note: the left operand is a Tensor[f32, 3]
# METHODCMP: {{.*}}errors-lowering.py:[[@LINE+3]]:17: note: the right operand is a Tensor[f32, 4]
# kiln: x=f32[3], y=f32[4]
def method_compare(x, y):
    return x.lt(y)
