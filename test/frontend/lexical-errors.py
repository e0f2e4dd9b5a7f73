# Text CPython's tokenizer rejects makes the whole file invalid Python, so
# kiln refuses the file wherever the error is, with CPython's message at the
# byte at fault. Each case writes its own file: one error rejects a file.
# Unprintable bytes in the quoted line are shown as \xNN.

# A dedent to a column no enclosing block has (the return used to vanish).
# RUN: printf 'import torch\n@torch.jit.script\ndef f(x: int) -> int:\n        y = x\n    return y\n' > %t.dedent.py
# RUN: not kiln compile %t.dedent.py --emit=ir 2>&1 | FileCheck %s --check-prefix=DEDENT --strict-whitespace --implicit-check-not=error:
# DEDENT: dedent.py:5:5: error: unindent does not match any outer indentation level{{$}}
# DEDENT-NEXT: {{^}}    return y{{$}}
# DEDENT-NEXT: {{^}}    ^{{$}}

# Tabs and spaces that compare differently with tabs as 8 columns and as 1.
# RUN: printf 'import torch\n@torch.jit.script\ndef f(x: int) -> int:\n\tif x:\n        return x\n\treturn x\n' > %t.tab.py
# RUN: not kiln compile %t.tab.py --emit=ir 2>&1 | FileCheck %s --check-prefix=TAB --implicit-check-not=error:
# TAB: tab.py:5:9: error: inconsistent use of tabs and spaces in indentation

# A byte that is not UTF-8 in a name (the manifest writer used to abort).
# RUN: printf 'import torch\n@torch.jit.script\ndef f\377(x: int) -> int:\n    return x\n' > %t.name.py
# RUN: not kiln compile %t.name.py --emit=ir 2>&1 | FileCheck %s --check-prefix=NAME --strict-whitespace --implicit-check-not=error:
# NAME: name.py:3:6: error: byte 0xff is not valid UTF-8; Python source files must be UTF-8{{$}}
# NAME-NEXT: {{^}}def f\xff(x: int) -> int:{{$}}
# NAME-NEXT: {{^}}     ^~~~{{$}}

# Invalid UTF-8 in a string, and in a comment of top-level code kiln skips.
# RUN: printf 'import torch\n@torch.jit.script\ndef f(x: int) -> int:\n    assert x, "caf\351"\n    return x\n' > %t.str.py
# RUN: not kiln compile %t.str.py --emit=ir 2>&1 | FileCheck %s --check-prefix=STR --implicit-check-not=error:
# STR: str.py:4:19: error: byte 0xe9 is not valid UTF-8; Python source files must be UTF-8
# RUN: printf 'import torch\n@torch.jit.script\ndef f(x: int) -> int:\n    return x\nif __name__ == "__main__":\n    print(f(1))  # \300\200\n' > %t.comment.py
# RUN: not kiln compile %t.comment.py --emit=ir 2>&1 | FileCheck %s --check-prefix=COMMENT --implicit-check-not=error:
# COMMENT: comment.py:6:20: error: byte 0xc0 is not valid UTF-8; Python source files must be UTF-8

# NUL bytes, in a comment and in a string.
# RUN: printf 'import torch\n@torch.jit.script\ndef f(x: int) -> int:\n    return x  # a\0b\n' > %t.nul.py
# RUN: not kiln compile %t.nul.py --emit=ir 2>&1 | FileCheck %s --check-prefix=NUL --strict-whitespace --implicit-check-not=error:
# NUL: nul.py:4:18: error: source code cannot contain null bytes{{$}}
# NUL-NEXT: {{^}}    return x  # a\x00b{{$}}
# NUL-NEXT: {{^}}                 ^~~~{{$}}
# RUN: printf 'import torch\n@torch.jit.script\ndef f(x: int) -> int:\n    assert x, "a\0"\n    return x\n' > %t.nulstr.py
# RUN: not kiln compile %t.nulstr.py --emit=ir 2>&1 | FileCheck %s --check-prefix=NULSTR --implicit-check-not=error:
# NULSTR: nulstr.py:4:17: error: source code cannot contain null bytes

# A backslash just before the end of the file.
# RUN: printf 'import torch\n@torch.jit.script\ndef f(x: int) -> int:\n    return x\nx = 1 + \\' > %t.eof.py
# RUN: not kiln compile %t.eof.py --emit=ir 2>&1 | FileCheck %s --check-prefix=EOF --implicit-check-not=error:
# EOF: eof.py:5:9: error: unexpected EOF while parsing

# CR alone ends a line, as in CPython: this file compiles, and an error in it
# is reported on the right line.
# RUN: printf 'import torch\r@torch.jit.script\rdef f(x: int) -> int:\r    y = x\r    return y\r' > %t.cr.py
# RUN: kiln compile %t.cr.py --emit=ir | FileCheck %s --check-prefix=CR
# CR: func.func @f(%arg0: i64 {kiln.name = "x"}) -> i64
# RUN: printf 'import torch\r@torch.jit.script\rdef f(x: int) -> int:\r    y = x $\r    return y\r' > %t.crerr.py
# RUN: not kiln compile %t.crerr.py --emit=ir 2>&1 | FileCheck %s --check-prefix=CRERR --strict-whitespace --implicit-check-not=error:
# CRERR: crerr.py:4:11: error: invalid character '$'{{$}}
# CRERR-NEXT: {{^}}    y = x ${{$}}

# Brackets: CPython allows 200 nested, and reports unmatched and unclosed
# ones.
# RUN: %python -c "print('import torch\n@torch.jit.script\ndef f(x: int) -> int:\n    return ' + '(' * 200 + 'x' + ')' * 200)" > %t.200.py
# RUN: kiln compile %t.200.py --emit=ir | FileCheck %s --check-prefix=P200
# P200: return %arg0 : i64
# RUN: %python -c "print('import torch\n@torch.jit.script\ndef f(x: int) -> int:\n    return ' + '(' * 201 + 'x' + ')' * 201)" > %t.201.py
# RUN: not kiln compile %t.201.py --emit=ir 2>&1 | FileCheck %s --check-prefix=P201 --implicit-check-not=error:
# P201: 201.py:4:212: error: too many nested parentheses
# RUN: printf 'import torch\n@torch.jit.script\ndef f(x: int) -> int:\n    return x\nprint(f(1)]\n' > %t.match.py
# RUN: not kiln compile %t.match.py --emit=ir 2>&1 | FileCheck %s --check-prefix=MATCH --implicit-check-not=error:
# MATCH: match.py:5:11: error: closing parenthesis ']' does not match opening parenthesis '('

# A misspelled decorator used to drop its function silently.
# RUN: printf 'import torch\n@tor3h.jit.script\ndef f(x: int) -> int:\n    return x\n@torch.jit.script\ndef g(x: int) -> int:\n    return x\n' > %t.deco.py
# RUN: not kiln compile %t.deco.py --emit=ir 2>&1 | FileCheck %s --check-prefix=DECO --implicit-check-not=error:
# DECO: deco.py:2:2: error: name 'tor3h' is not defined
# RUN: printf 'import torch\n@torch.jit.scrpt\ndef f(x: int) -> int:\n    return x\n' > %t.deco2.py
# RUN: not kiln compile %t.deco2.py --emit=ir --entry f 2>&1 | FileCheck %s --check-prefix=DECO2 --implicit-check-not=error:
# DECO2: deco2.py:2:2: error: unknown decorator '@torch.jit.scrpt'; did you mean '@torch.jit.script'?

# An expression tree 10,000 high (100 brackets, each holding a 100-term sum)
# is refused with an error, not a stack overflow.
# RUN: %python -c "s = 'x'; exec(\"for i in range(100): s = '(' + s + ' + ' + ' + '.join(['x'] * 99) + ')'\"); print('import torch\n@torch.jit.script\ndef f(x: int) -> int:\n    return ' + s)" > %t.deep.py
# RUN: kiln compile %t.deep.py --emit=ast | FileCheck %s --check-prefix=DEEPAST
# DEEPAST: Skipped function 'f' @2:1 [script]: expression is nested too deeply
# RUN: not kiln compile %t.deep.py --emit=ir 2>&1 | FileCheck %s --check-prefix=DEEP
# DEEP: deep.py:4:{{[0-9]+}}: error: expression is nested too deeply
