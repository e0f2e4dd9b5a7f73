# Compile errors for List and Tuple entry parameters, whose structure the
# spec fixes. Each function is one case, compiled alone with --entry.
from typing import List, Optional, Tuple

import torch
from torch import Tensor


# RUN: not kiln compile %s --entry no_spec 2>&1 | FileCheck %s --check-prefix=NOSPEC --implicit-check-not=error:
# NOSPEC: entry-containers-errors.py:[[@LINE+1]]:13: error: no length for 'xs' of 'no_spec', annotated 'List[Tensor]'; an archive's inputs are fixed when it is compiled, so pass --arg xs=[f32[N], f32[N]] or write '# kiln: xs=[f32[N], f32[N]]' on the line above the def
def no_spec(xs: List[Tensor]) -> Tensor:
    return xs[0]


# RUN: not kiln compile %s --entry no_ints 2>&1 | FileCheck %s --check-prefix=NOINTS --implicit-check-not=error:
# NOINTS: error: no length for 'sizes' of 'no_ints', annotated 'List[int]'; an archive's inputs are fixed when it is compiled, so pass --arg sizes=int[2] or write '# kiln: sizes=int[2]' on the line above the def
# RUN: not kiln compile %s --entry no_ints --arg sizes=f32[3] 2>&1 | FileCheck %s --check-prefix=SHAPE --implicit-check-not=error:
# SHAPE: error: 'sizes' is annotated 'List[int]', so its spec lists its elements, as in sizes=int[2]; got 'sizes=f32[3]'
# RUN: not kiln compile %s --entry no_ints --arg "sizes=[int, f32[2]]" 2>&1 | FileCheck %s --check-prefix=INTELEM --implicit-check-not=error:
# INTELEM: error: 'sizes.1' is an int (sizes is annotated 'List[int]'), so its spec is 'int'; got 'sizes.1=f32[2]'
def no_ints(sizes: List[int]) -> int:
    return sizes[0]


# RUN: not kiln compile %s --entry state --arg "hc=(f32[3], f32[3], f32[3])" 2>&1 | FileCheck %s --check-prefix=ARITY --implicit-check-not=error:
# ARITY: error: the spec 'hc=(f32[3], f32[3], f32[3])' has 3 elements, but 'hc' is annotated 'Tuple[Tensor, Tensor]', which has 2
# RUN: not kiln compile %s --entry state 2>&1 | FileCheck %s --check-prefix=TUPLESHAPE --implicit-check-not=error:
# TUPLESHAPE: error: no shape for 'hc.0', an element of 'hc' (annotated 'Tuple[Tensor, Tensor]'); pass --arg hc=(f32[N], f32[N]) or write '# kiln: hc=(f32[N], f32[N])' on the line above the def
# RUN: not kiln compile %s --entry state --arg "hc=(int, f32[3])" 2>&1 | FileCheck %s --check-prefix=TENSORELEM --implicit-check-not=error:
# TENSORELEM: error: 'hc.0' is a Tensor; its spec must be a shape such as hc.0=f32[N], got 'hc.0=int'
# RUN: not kiln compile %s --entry state --arg "hc=(f32[3]?, f32[3])" 2>&1 | FileCheck %s --check-prefix=NONE --implicit-check-not=error:
# NONE: error: the spec 'hc.0=f32[3]?' ends in '?', but the elements of a List or Tuple entry input cannot be None
def state(hc: Tuple[Tensor, Tensor]) -> Tensor:
    return hc[0] + hc[1]


# RUN: not kiln compile %s --entry tensor_given_list --arg "x=[f32[3]]" 2>&1 | FileCheck %s --check-prefix=NOTLIST --implicit-check-not=error:
# NOTLIST: entry-containers-errors.py:[[@LINE+1]]:23: error: 'x' is a Tensor; its spec must be a shape such as x=f32[N], got 'x=[f32[3]]'
def tensor_given_list(x: Tensor) -> Tensor:
    return x


# RUN: not kiln compile %s --entry mixed_ranks 2>&1 | FileCheck %s --check-prefix=MIXED --implicit-check-not=error:
# MIXED: entry-containers-errors.py:[[@LINE+2]]:17: error: the elements of list input 'xs' must share a dtype and rank, as a kiln list's do: 'xs.0' is a Tensor[f32, 3] and 'xs.1' is a Tensor[f32, 2x3]; annotate it as a Tuple for mixed elements
# kiln: xs=[f32[3], f32[2,3]]
def mixed_ranks(xs: List[Tensor]) -> Tensor:
    return xs[0]


# RUN: not kiln compile %s --entry list_default 2>&1 | FileCheck %s --check-prefix=LISTDEFAULT --implicit-check-not=error:
# LISTDEFAULT: entry-containers-errors.py:[[@LINE+2]]:48: error: entry parameter 'sizes' is a list, whose default would be mutable, shared by every call; TorchScript refuses it too: annotate it as a Tuple[T, ...] with a tuple default
# kiln: x=f32[N], sizes=int[2]
def list_default(x: Tensor, sizes: List[int] = [1, 2]) -> Tensor:
    return x * sizes[0]


# RUN: not kiln compile %s --entry bad_defaults --arg "size=int[3]" 2>&1 | FileCheck %s --check-prefix=DEFAULTLEN --implicit-check-not=error:
# DEFAULTLEN: error: the default of entry parameter 'size' has 2 elements ('(1, 2)'), but its spec gives it 3
# RUN: not kiln compile %s --entry bad_defaults 2>&1 | FileCheck %s --check-prefix=DEFAULTKIND --implicit-check-not=error:
# DEFAULTKIND: entry-containers-errors.py:[[@LINE+3]]:47: error: the default of entry parameter 'scale' gives 'scale.1' 'True', which is not a finite number literal
# kiln: x=f32[N]
def bad_defaults(x: Tensor, size: Tuple[int, ...] = (1, 2),
                 scale: Tuple[float, float] = (1.0, True)) -> Tensor:
    return x * size[0]


# RUN: not kiln compile %s --entry tensor_default 2>&1 | FileCheck %s --check-prefix=TENSORDEFAULT --implicit-check-not=error:
# TENSORDEFAULT: entry-containers-errors.py:[[@LINE+2]]:47: error: the default of entry parameter 'pair' gives tensor input 'pair.0' a default; only scalar elements have one
# kiln: pair=(f32[N], int)
def tensor_default(pair: Tuple[Tensor, int] = (None, 2)) -> Tensor:
    return pair[0]


# RUN: not kiln compile %s --entry nested_list --arg "xs=[[int]]" 2>&1 | FileCheck %s --check-prefix=NESTED --implicit-check-not=error:
# NESTED: error: 'xs' is annotated 'List[List[int]]'; an entry point's list input holds tensors, ints, floats or bools (a tuple may hold lists and tuples)
def nested_list(xs: List[List[int]]) -> int:
    return len(xs)


# RUN: not kiln compile %s --entry strings --arg "names=[str:a]" 2>&1 | FileCheck %s --check-prefix=STRS --implicit-check-not=error:
# STRS: kiln: error: --arg names=[str:a]: unknown dtype 'str:a' in argument spec 'names=[str:a]' (expected one of f32, f16, bf16, f64, i32, i64, bool, or int, float, bool for a Python scalar)
# RUN: not kiln compile %s --entry strings --arg "names=[f32[2]]" 2>&1 | FileCheck %s --check-prefix=STRELEM --implicit-check-not=error:
# STRELEM: error: 'names' is annotated 'List[str]'; the elements of an entry point's List or Tuple input are Tensor, int, float and bool, or Tuples and Lists of them
def strings(names: List[str]) -> int:
    return len(names)


# RUN: not kiln compile %s --entry optional_list --arg "xs=[f32[2]]" 2>&1 | FileCheck %s --check-prefix=OPTIONAL --implicit-check-not=error:
# OPTIONAL: error: parameter 'xs' of entry point 'optional_list' has type 'Optional[List[Tensor]]'; entry points take Tensor, int, float and bool, Optional of each, str, and Lists and Tuples of Tensor, int, float and bool
def optional_list(xs: Optional[List[Tensor]]) -> int:
    return 0


# A list built in a run-time loop has no fixed number of elements.
# RUN: not kiln compile %s --entry grown 2>&1 | FileCheck %s --check-prefix=GROWN --implicit-check-not=error:
# GROWN: entry-containers-errors.py:[[@LINE+6]]:5: error: an entry point cannot return a List[Tensor[f32, 3]] whose length is known only at run time: each element is a result of the archive, so their number is fixed when it is compiled; return a tuple, or torch.stack the list
# kiln: x=f32[3]
def grown(x: Tensor, n: int) -> List[Tensor]:
    out: List[Tensor] = []
    for i in range(n):
        out.append(x * i)
    return out
