# Compile errors about shape specs and entry-point selection: a missing or
# malformed '# kiln:' spec, a spec on the wrong parameter, and --arg/--entry
# options that name nothing. Each function below is one case, compiled alone
# with --entry; none is decorated with @torch.jit.script.

import torch


# kiln: x=f32[3]
def good_entry(x):
    return x


# A tensor argument without a shape spec is an error that shows both ways to
# give one.
# RUN: not kiln compile %s --emit=ir --entry no_spec 2>&1 | FileCheck %s --check-prefix=NOSPEC --strict-whitespace --implicit-check-not='{{error|note}}:'
# NOSPEC: {{^.*}}errors-specs.py:[[@LINE+3]]:13: error: no shape for tensor argument 'x' of 'no_spec'; pass --arg x=f32[N] or write '# kiln: x=f32[N]' on the line above the def{{$}}
# NOSPEC-NEXT: {{^}}def no_spec(x, n: int):{{$}}
# NOSPEC-NEXT: {{^}}            ^{{$}}
def no_spec(x, n: int):
    return x * n


# A '# kiln:' spec naming something that is not a parameter is rejected.
# RUN: not kiln compile %s --emit=ir --entry spec_names_other 2>&1 | FileCheck %s --check-prefix=SPECNAME --strict-whitespace --implicit-check-not='{{error|note}}:'
# SPECNAME: {{^.*}}errors-specs.py:[[@LINE+3]]:9: error: shape spec names 'y', which is not a parameter of 'spec_names_other'{{$}}
# SPECNAME-NEXT: {{^}}# kiln: y=f32[3]{{$}}
# SPECNAME-NEXT: {{^}}        ^~~~~~~~{{$}}
# kiln: y=f32[3]
def spec_names_other(x):
    return x


# A malformed '# kiln:' spec is reported at the spec text.
# RUN: not kiln compile %s --emit=ir --entry spec_malformed 2>&1 | FileCheck %s --check-prefix=SPECBAD --strict-whitespace --implicit-check-not='{{error|note}}:'
# SPECBAD: {{^.*}}errors-specs.py:[[@LINE+3]]:9: error: expected ']' in argument spec 'x=f32[3'{{$}}
# SPECBAD-NEXT: {{^}}# kiln: x=f32[3{{$}}
# SPECBAD-NEXT: {{^}}        ^~~~~~~{{$}}
# kiln: x=f32[3
def spec_malformed(x):
    return x


# A shape spec for an int parameter is rejected.
# RUN: not kiln compile %s --emit=ir --entry spec_on_scalar 2>&1 | FileCheck %s --check-prefix=SPECSCALAR --strict-whitespace --implicit-check-not='{{error|note}}:'
# SPECSCALAR: {{^.*}}errors-specs.py:[[@LINE+4]]:20: error: parameter 'x' is a scalar; a shape spec applies to tensors only{{$}}
# SPECSCALAR-NEXT: {{^}}def spec_on_scalar(x: int):{{$}}
# SPECSCALAR-NEXT: {{^}}                   ^~~~~~{{$}}
# kiln: x=f32[3]
def spec_on_scalar(x: int):
    return x


# An --arg that names no parameter of any entry point is rejected.
# RUN: not kiln compile %s --emit=ir --entry good_entry --arg 'z=f32[3]' 2>&1 | FileCheck %s --check-prefix=ARGNAME --strict-whitespace --implicit-check-not='{{error|note}}:'
# ARGNAME: {{^.*}}errors-specs.py: error: --arg 'z' does not name a parameter of any entry point{{$}}


# An --entry that names nothing in the file is rejected.
# RUN: not kiln compile %s --emit=ir --entry no_such_function 2>&1 | FileCheck %s --check-prefix=NOENTRY --strict-whitespace --implicit-check-not='{{error|note}}:'
# NOENTRY: {{^.*}}errors-specs.py: error: --entry 'no_such_function' names no function or class in '{{.*}}errors-specs.py'{{$}}


# An --entry naming a class that is not an nn.Module is rejected at its name.
# RUN: not kiln compile %s --emit=ir --entry Holder 2>&1 | FileCheck %s --check-prefix=CLASSENTRY --strict-whitespace --implicit-check-not='{{error|note}}:'
# CLASSENTRY: {{^.*}}errors-specs.py:[[@LINE+3]]:7: error: building 'Holder' in Python: 'Holder' is not an nn.Module class{{$}}
# CLASSENTRY-NEXT: {{^}}class Holder:{{$}}
# CLASSENTRY-NEXT: {{^}}      ^~~~~~{{$}}
class Holder:
    pass
