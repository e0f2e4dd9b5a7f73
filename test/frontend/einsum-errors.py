# Compile errors of torch.einsum, and of the Tensor[] and factory
# parameters of torch.cat and torch.zeros. Each function is one case,
# compiled alone with --entry; an error about the equation points at the
# equation string, one about the operands at them.
import torch


# A character other than a letter or '...' is refused at the equation.
# RUN: not kiln compile %s --emit=ir --entry bad_letter 2>&1 | FileCheck %s --check-prefix=BADLETTER --strict-whitespace --implicit-check-not='{{error|note}}:'
# BADLETTER: {{^.*}}einsum-errors.py:[[@LINE+5]]:25: error: torch.einsum() equation 'i1,jk->ik' has '1' in operand 0; subscripts are letters a-z and A-Z, and '...'{{$}}
# BADLETTER-NEXT: {{^}}    return torch.einsum('i1,jk->ik', x, y){{$}}
# BADLETTER-NEXT: {{^}}                        ^~~~~~~~~~~{{$}}
# kiln: x=f32[3,4], y=f32[4,5]
def bad_letter(x, y):
    return torch.einsum('i1,jk->ik', x, y)


# The equation names three operands; two tensors are given.
# RUN: not kiln compile %s --emit=ir --entry operand_count 2>&1 | FileCheck %s --check-prefix=OPERANDCOUNT --strict-whitespace --implicit-check-not='{{error|note}}:'
# OPERANDCOUNT: {{^.*}}einsum-errors.py:[[@LINE+5]]:25: error: torch.einsum() equation 'ij,jk,kl->il' has 3 operands, but 2 tensors were given{{$}}
# OPERANDCOUNT-NEXT: {{^}}    return torch.einsum('ij,jk,kl->il', x, y){{$}}
# OPERANDCOUNT-NEXT: {{^}}                        ^~~~~~~~~~~~~~{{$}}
# kiln: x=f32[3,4], y=f32[4,5]
def operand_count(x, y):
    return torch.einsum('ij,jk,kl->il', x, y)


# An output letter may appear once.
# RUN: not kiln compile %s --emit=ir --entry output_repeat 2>&1 | FileCheck %s --check-prefix=OUTPUTREPEAT --strict-whitespace --implicit-check-not='{{error|note}}:'
# OUTPUTREPEAT: {{^.*}}einsum-errors.py:[[@LINE+5]]:25: error: torch.einsum() equation 'ij,jk->ii' repeats 'i' in the output ('ii'); an output letter appears once{{$}}
# OUTPUTREPEAT-NEXT: {{^}}    return torch.einsum('ij,jk->ii', x, y){{$}}
# OUTPUTREPEAT-NEXT: {{^}}                        ^~~~~~~~~~~{{$}}
# kiln: x=f32[3,4], y=f32[4,5]
def output_repeat(x, y):
    return torch.einsum('ij,jk->ii', x, y)


# Static sizes of one letter must agree (or one be 1).
# RUN: not kiln compile %s --emit=ir --entry sizes 2>&1 | FileCheck %s --check-prefix=SIZES --strict-whitespace --implicit-check-not='{{error|note}}:'
# SIZES: {{^.*}}einsum-errors.py:[[@LINE+5]]:25: error: torch.einsum() equation 'ij,jk->ik' gives 'j' size 4 in operand 0 but size 5 in operand 1{{$}}
# SIZES-NEXT: {{^}}    return torch.einsum('ij,jk->ik', x, y){{$}}
# SIZES-NEXT: {{^}}                        ^~~~~~~~~~~{{$}}
# kiln: x=f32[3,4], y=f32[5,6]
def sizes(x, y):
    return torch.einsum('ij,jk->ik', x, y)


# A letter repeated in one operand takes a diagonal, which kiln refuses.
# RUN: not kiln compile %s --emit=ir --entry diagonal 2>&1 | FileCheck %s --check-prefix=DIAGONAL --strict-whitespace --implicit-check-not='{{error|note}}:'
# DIAGONAL: {{^.*}}einsum-errors.py:[[@LINE+5]]:25: error: torch.einsum() equation 'ii->i' repeats 'i' in operand 0 ('ii'); diagonals are not supported{{$}}
# DIAGONAL-NEXT: {{^}}    return torch.einsum('ii->i', x){{$}}
# DIAGONAL-NEXT: {{^}}                        ^~~~~~~{{$}}
# kiln: x=f32[3,3]
def diagonal(x):
    return torch.einsum('ii->i', x)


# Without '...', an operand's letters must name all its dims.
# RUN: not kiln compile %s --emit=ir --entry rank 2>&1 | FileCheck %s --check-prefix=RANK --strict-whitespace --implicit-check-not='{{error|note}}:'
# RANK: {{^.*}}einsum-errors.py:[[@LINE+5]]:25: error: torch.einsum() equation 'ijk->i' names 3 dimensions in operand 0 ('ijk'), but it has 2{{$}}
# RANK-NEXT: {{^}}    return torch.einsum('ijk->i', x){{$}}
# RANK-NEXT: {{^}}                        ^~~~~~~~{{$}}
# kiln: x=f32[3,4]
def rank(x):
    return torch.einsum('ijk->i', x)


# Every output letter comes from an operand.
# RUN: not kiln compile %s --emit=ir --entry unknown_output 2>&1 | FileCheck %s --check-prefix=UNKNOWNOUTPUT --strict-whitespace --implicit-check-not='{{error|note}}:'
# UNKNOWNOUTPUT: {{^.*}}einsum-errors.py:[[@LINE+5]]:25: error: torch.einsum() equation 'ij->ik' output subscript 'k' does not appear in any operand{{$}}
# UNKNOWNOUTPUT-NEXT: {{^}}    return torch.einsum('ij->ik', x){{$}}
# UNKNOWNOUTPUT-NEXT: {{^}}                        ^~~~~~~~{{$}}
# kiln: x=f32[3,4]
def unknown_output(x):
    return torch.einsum('ij->ik', x)


# '...' appears at most once per operand.
# RUN: not kiln compile %s --emit=ir --entry two_ellipses 2>&1 | FileCheck %s --check-prefix=TWOELLIPSES --strict-whitespace --implicit-check-not='{{error|note}}:'
# TWOELLIPSES: {{^.*}}einsum-errors.py:[[@LINE+5]]:25: error: torch.einsum() equation '...i...->i' has '...' twice in operand 0{{$}}
# TWOELLIPSES-NEXT: {{^}}    return torch.einsum('...i...->i', x){{$}}
# TWOELLIPSES-NEXT: {{^}}                        ^~~~~~~~~~~~{{$}}
# kiln: x=f32[3,4]
def two_ellipses(x):
    return torch.einsum('...i...->i', x)


# The operands share one dtype, as PyTorch requires; the error points at them.
# RUN: not kiln compile %s --emit=ir --entry dtypes 2>&1 | FileCheck %s --check-prefix=DTYPES --strict-whitespace --implicit-check-not='{{error|note}}:'
# DTYPES: {{^.*}}einsum-errors.py:[[@LINE+5]]:38: error: torch.einsum() operands must have one dtype, got Tensor[f32, 3x4] and Tensor[f64, 4x5]{{$}}
# DTYPES-NEXT: {{^}}    return torch.einsum('ij,jk->ik', x, y){{$}}
# DTYPES-NEXT: {{^}}                                     ^~~~{{$}}
# kiln: x=f32[3,4], y=f64[4,5]
def dtypes(x, y):
    return torch.einsum('ij,jk->ik', x, y)


# The operands are a Tensor[]: the binder reports a non-tensor in the schema's format.
# RUN: not kiln compile %s --emit=ir --entry not_tensors 2>&1 | FileCheck %s --check-prefix=NOTTENSORS --strict-whitespace --implicit-check-not='{{error|note}}:'
# NOTTENSORS: {{^.*}}einsum-errors.py:[[@LINE+5]]:35: error: torch.einsum() argument 'tensors' must be a list of Tensors, got a tuple (a Tensor[f32, 3x4], an int); the schema is einsum(str equation, Tensor[] tensors) -> Tensor{{$}}
# NOTTENSORS-NEXT: {{^}}    return torch.einsum('ij->ji', x, 3){{$}}
# NOTTENSORS-NEXT: {{^}}                                  ^~~~{{$}}
# kiln: x=f32[3,4]
def not_tensors(x):
    return torch.einsum('ij->ji', x, 3)


# torch.cat's Tensor[] gets the same message.
# RUN: not kiln compile %s --emit=ir --entry cat_not_tensors 2>&1 | FileCheck %s --check-prefix=CATNOTTENSORS --strict-whitespace --implicit-check-not='{{error|note}}:'
# CATNOTTENSORS: {{^.*}}einsum-errors.py:[[@LINE+5]]:22: error: torch.cat() argument 'tensors' must be a list of Tensors, got a tuple (a Tensor[f32, 3x4], an int); the schema is cat(Tensor[] tensors, int dim=0) -> Tensor{{$}}
# CATNOTTENSORS-NEXT: {{^}}    return torch.cat([x, 2]){{$}}
# CATNOTTENSORS-NEXT: {{^}}                     ^~~~~~{{$}}
# kiln: x=f32[3,4]
def cat_not_tensors(x):
    return torch.cat([x, 2])


# cat joins tensors of one rank.
# RUN: not kiln compile %s --emit=ir --entry cat_ranks 2>&1 | FileCheck %s --check-prefix=CATRANKS --strict-whitespace --implicit-check-not='{{error|note}}:'
# CATRANKS: {{^.*}}einsum-errors.py:[[@LINE+5]]:22: error: torch.cat() argument 'tensors' must hold tensors of one dtype and rank, got Tensor[f32, 3x4] and Tensor[f32, 4]{{$}}
# CATRANKS-NEXT: {{^}}    return torch.cat([x, x[0]]){{$}}
# CATRANKS-NEXT: {{^}}                     ^~~~~~~~~{{$}}
# kiln: x=f32[3,4]
def cat_ranks(x):
    return torch.cat([x, x[0]])


# Sizes may be run-time ints, but a constant one must not be negative.
# RUN: not kiln compile %s --emit=ir --entry zeros_negative 2>&1 | FileCheck %s --check-prefix=ZEROSNEGATIVE --strict-whitespace --implicit-check-not='{{error|note}}:'
# ZEROSNEGATIVE: {{^.*}}einsum-errors.py:[[@LINE+5]]:24: error: torch.zeros() argument 'size' must be non-negative, got -1{{$}}
# ZEROSNEGATIVE-NEXT: {{^}}    return torch.zeros(2, -1){{$}}
# ZEROSNEGATIVE-NEXT: {{^}}                       ^~~~~{{$}}
# kiln: x=f32[3,4]
def zeros_negative(x):
    return torch.zeros(2, -1)


# PyTorch's keyword-only factory arguments are typed like the others.
# RUN: not kiln compile %s --emit=ir --entry zeros_layout 2>&1 | FileCheck %s --check-prefix=ZEROSLAYOUT --strict-whitespace --implicit-check-not='{{error|note}}:'
# ZEROSLAYOUT: {{^.*}}einsum-errors.py:[[@LINE+5]]:34: error: torch.zeros() argument 'layout' must be torch.strided or None, got an int; the schema is zeros(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor{{$}}
# ZEROSLAYOUT-NEXT: {{^}}    return torch.zeros(2, layout=3){{$}}
# ZEROSLAYOUT-NEXT: {{^}}                                 ^{{$}}
# kiln: x=f32[3,4]
def zeros_layout(x):
    return torch.zeros(2, layout=3)
