"""The decorators that declare kiln's op-table rows in the prelude.

A prelude function decorated with `@op(schema, spellings, ...)` is the
lowering of that torch op: kiln reads the decorator's arguments as the row
(frontend/PreludeRows.cpp), so the schema, the spellings, the sample inputs
of the generated differential test and the decomposition sit together.
kiln never runs this file; it is what makes the prelude ordinary Python,
so that test/prelude can run each decomposition eagerly against the torch
op it replaces, on the same samples. Every name here has a twin of the
same value in PreludeRows.cpp, and test/prelude checks that they agree.

op(schema, spellings, samples=[], aliases=[], rtol=0.0, atol=0.0, note='',
   flags=0, kiln=None, build=None, random=None)
  schema     PyTorch's schema text: "glu(Tensor self, int dim=-1) -> Tensor"
  spellings  TORCH | METHOD | FUNCTIONAL | INPLACE | F_INPLACE_ARG | MATH
  samples    (inputs, args='', lo=-1.0, hi=1.0) tuples, or inputs alone:
             a `# kiln:` spec for the inputs ("x=f32[B,5], y=f32[5]"), the
             call's arguments after the first, and the range float inputs
             are drawn from
  kiln       the kiln op the row lowers to (kiln='kiln.exp'), applied to
             the first argument
  build      the name of the C++ builder that lowers the row (OpTable*.cpp)
  note       a remark for the generated documentation
             Rows with kiln= or build= are not lowered by the function they
             decorate: they decorate a stub, several at a time.
  random     values eager PyTorch does not fix: 'uniform' (in [0, 1)),
             'normal' (finite) or 'any' (torch.empty); the generated test
             compares shape, dtype and only that of the values
  flags      FLOAT_MATH (int inputs compute in float), NO_BOOL (bool inputs
             are refused), FLOAT_ONLY (non-float inputs are refused, as
             PyTorch's activations do)

describe(value) is the text kiln's errors use for a value ("a Tensor[f32,
2x5]"), for the messages of a decomposition's checks; kiln computes it
while compiling. known(n) says whether a number (a dim) is known while
compiling; it is always True in eager Python.
"""

import torch

TORCH = 1
METHOD = 2
FUNCTIONAL = 4
INPLACE = 8
F_INPLACE_ARG = 16
MATH = 32
TENSOR_OP = TORCH | METHOD | INPLACE
ACTIVATION = FUNCTIONAL | F_INPLACE_ARG

FLOAT_MATH = 1
NO_BOOL = 2
FLOAT_ONLY = 4

# Every row declared so far, in declaration order: what test/prelude reads.
ROWS = []


def op(schema, spellings, samples=(), aliases=(), rtol=0.0, atol=0.0,
       note='', flags=0, kiln=None, build=None, random=None):
    def declare(fn):
        ROWS.append({'schema': schema, 'spellings': spellings,
                     'lowered_by_function': kiln is None and build is None,
                     'samples': [s if isinstance(s, tuple) else (s,)
                                 for s in samples],
                     'aliases': list(aliases), 'rtol': rtol, 'atol': atol,
                     'flags': flags, 'random': random, 'function': fn})
        return fn
    return declare


def describe(value):
    """The text kiln's errors use for a value, e.g. "a Tensor[f32, 2x5]";
    kiln computes it while compiling, for the messages of prelude checks."""
    if isinstance(value, torch.Tensor):
        short = {torch.float32: 'f32', torch.float64: 'f64',
                 torch.float16: 'f16', torch.bfloat16: 'bf16',
                 torch.int64: 'i64', torch.int32: 'i32', torch.bool: 'i1'}
        dims = 'x'.join(str(d) for d in value.shape)
        return 'a Tensor[%s%s]' % (short.get(value.dtype, str(value.dtype)),
                                   ', ' + dims if dims else '')
    return repr(value)


def known(value):
    """Whether a number is known while compiling (a static dim), so that a
    decomposition can take a cheaper form for static sizes; kiln decides
    it while compiling. In eager Python every size is known."""
    return True


def unary(lo, hi):
    """The samples most elementwise ops share: broadcasting over a dynamic
    dim, a second dtype, an empty tensor."""
    return [('x=f32[B,5]', '', lo, hi), ('x=f64[3]', '', lo, hi),
            ('x=f32[0,3]', '', lo, hi)]
