//===- ParserErrorsTest.cpp - Skipped items and error messages -----------===//
#include "test/unit/ParserTestHelpers.h"

#include <catch2/catch.hpp>

#include <set>

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::test;
using llvm::cast;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Forgiving module parsing
//===----------------------------------------------------------------------===//

static const char *kTrainingScript = R"PY(import torch
import torch.nn as nn
from typing import List, Optional

BATCH = 64
data = {"a": 1}


# kiln: x=f32[B,784]
@torch.jit.script
def good(x: torch.Tensor) -> torch.Tensor:
    return torch.relu(x) * 2


def helper_with(path):
    with open(path) as f:
        return f.read()


@torch.jit.script
def bad(x):
    try:
        return x
    except Exception:
        return x


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(784, 10)

    def forward(self, x):
        return self.fc(x)


model = Model()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    opt.zero_grad()
    loss = {k: v for k, v in data.items()}
    with torch.no_grad():
        print(f"epoch {epoch}: {loss}")
    squares = [x for x in range(10) if x % 2]
fn = lambda y: y + 1
print(*[1, 2], sep=", ")

if __name__ == "__main__":
    def nested():
        pass
    try:
        nested()
    except Exception:
        pass


class Broken(nn.Module):
    def forward(self, *args):
        return args


def last(x):
    return x + 1
)PY";

TEST_CASE("module: skips training code and keeps good items", "[module]") {
  Module m = module(kTrainingScript);
  std::vector<std::string> names;
  for (const StmtPtr &s : m.items) {
    if (auto *f = llvm::dyn_cast<FunctionDef>(s.get()))
      names.push_back("def " + f->name);
    else if (auto *c = llvm::dyn_cast<ClassDef>(s.get()))
      names.push_back("class " + c->name);
    else if (isa<ImportStmt>(*s))
      names.push_back("import");
  }
  CHECK(names == std::vector<std::string>{"import", "import", "import",
                                          "def good", "class Model",
                                          "class Broken", "def last"});
  REQUIRE(m.skipped.size() == 2);
  const SkippedItem &helper = m.skipped[0];
  CHECK(helper.kind == SkippedItem::Kind::Function);
  CHECK(helper.name == "helper_with");
  CHECK_FALSE(helper.isScript);
  CHECK(helper.range.begin.line == 15);
  CHECK(helper.range.end.line == 17);
  CHECK(helper.error.message == "with is not supported");
  CHECK(helper.error.range.begin.line == 16);
  CHECK(helper.error.range.begin.col == 5);

  const SkippedItem &bad = m.skipped[1];
  CHECK(bad.kind == SkippedItem::Kind::Function);
  CHECK(bad.name == "bad");
  CHECK(bad.isScript);
  CHECK(bad.range.begin.line == 20);
  CHECK(bad.error.message == "try/except is not supported");
  CHECK(bad.error.range.begin.line == 22);

  // A method's signature kiln does not compile (valid Python) keeps its
  // class: the method is reported only if an entry point reaches it.
  auto &broken = cast<ClassDef>(*m.items[5]);
  auto &forward = cast<FunctionDef>(*broken.body[0]);
  REQUIRE(forward.unsupported);
  CHECK(forward.unsupported->message == "*args is not supported");
  CHECK(forward.unsupported->range.begin.line == 58);
  CHECK(forward.unsupported->range.begin.col == 23);

  auto &good = cast<FunctionDef>(*m.items[3]);
  REQUIRE(good.specs.size() == 1);
  CHECK(good.specs[0].text == "x=f32[B,784]");
}

// Valid Python that kiln does not support only matters where kiln compiles.
TEST_CASE("module: unsupported tokens in skipped code do not matter",
          "[module]") {
  Module m = module("def f(x):\n"
                    "    return x\n"
                    "z = 1j + 99999999999999999999999\n"
                    "caf\xc3\xa9 = 1\n"
                    "def g(x):\n"
                    "    return x + 2j\n"
                    "def h(x):\n"
                    "    return x\n");
  REQUIRE(m.items.size() == 2);
  CHECK(cast<FunctionDef>(*m.items[0]).name == "f");
  CHECK(cast<FunctionDef>(*m.items[1]).name == "h");
  REQUIRE(m.skipped.size() == 1);
  CHECK(m.skipped[0].name == "g");
  CHECK(m.skipped[0].error.message == "complex literal is not supported");
}

// Text CPython's tokenizer rejects makes the file not Python, wherever it
// is: every def and class is skipped with that error, and one more item,
// reported with no --entry, stands for the file.
TEST_CASE("module: a lexical error anywhere rejects the file", "[module]") {
  struct Case {
    std::string tail;
    const char *msg;
    uint32_t line;
  } cases[] = {
      {"print(1 $ 2)\n", "invalid character '$'", 6},
      {"s = 'unterminated\n", "unterminated string literal", 6},
      {"x = 0xZZ\n", "invalid hexadecimal literal", 6},
      {std::string("# a\0b\n", 6), "source code cannot contain null bytes", 6},
      {"# caf\xe9\n",
       "byte 0xe9 is not valid UTF-8; Python source files "
       "must be UTF-8",
       6},
      {"if x:\n        a\n    b\n",
       "unindent does not match any outer indentation level", 8},
      {"x = (1,\n", "'(' was never closed", 6},
      {"x = 1 + \\", "unexpected EOF while parsing", 6},
  };
  for (const Case &c : cases) {
    INFO(c.tail);
    Module m = module("@torch.jit.script\n"
                      "def f(x):\n"
                      "    return x\n"
                      "class C:\n" +
                      std::string("    pass\n") + c.tail);
    CHECK(m.items.empty());
    REQUIRE(m.skipped.size() == 3);
    std::set<std::string> names = {m.skipped[0].name, m.skipped[1].name};
    CHECK(names == std::set<std::string>{"f", "C"});
    CHECK(!m.skipped[0].isScript);
    CHECK(!m.skipped[1].isScript);
    CHECK(m.skipped[2].isScript);
    for (const SkippedItem &item : m.skipped) {
      CHECK(item.error.message == c.msg);
      CHECK(item.error.range.begin.line == c.line);
    }
  }
}

TEST_CASE("module: a bad dedent inside a function rejects the file",
          "[module]") {
  Module m = module("import torch\n"
                    "@torch.jit.script\n"
                    "def f(x):\n"
                    "        y = x\n"
                    "    return y\n");
  REQUIRE(m.items.size() == 1); // the import
  REQUIRE(m.skipped.size() == 2);
  CHECK(m.skipped[0].name == "f");
  CHECK(!m.skipped[0].isScript);
  CHECK(m.skipped[1].isScript);
  CHECK(m.skipped[1].error.message ==
        "unindent does not match any outer indentation level");
  CHECK(m.skipped[1].error.range.begin.line == 5);
  CHECK(m.skipped[1].error.range.begin.col == 5);
}

// A decorator whose name is bound nowhere in the file, or a near miss of a
// torch.jit decorator, fails when Python imports the file; kiln must not
// silently leave the function out.
TEST_CASE("module: misspelled decorators reject the file", "[module]") {
  struct Case {
    const char *decorator;
    const char *msg;
    uint32_t col;
  } cases[] = {
      {"@tor3h.jit.script", "name 'tor3h' is not defined", 2},
      {"@torch.jit.scrip",
       "unknown decorator '@torch.jit.scrip'; did you "
       "mean '@torch.jit.script'?",
       2},
      {"@torch.jot.script()",
       "unknown decorator '@torch.jot.script'; did "
       "you mean '@torch.jit.script'?",
       2},
      {"@jit.expor",
       "unknown decorator '@torch.jit.expor'; did you mean "
       "'@torch.jit.export'?",
       2},
  };
  for (const Case &c : cases) {
    INFO(c.decorator);
    Module m = module("import torch\n"
                      "from torch import jit\n" +
                      std::string(c.decorator) +
                      "\n"
                      "def f(x):\n"
                      "    return x\n");
    REQUIRE(m.skipped.size() == 2);
    CHECK(m.skipped[1].isScript);
    CHECK(m.skipped[1].error.message == c.msg);
    CHECK(m.skipped[1].error.range.begin.line == 3);
    CHECK(m.skipped[1].error.range.begin.col == c.col);
  }
  // Decorators Python can resolve are fine.
  Module ok = module("import torch\n"
                     "import functools as ft\n"
                     "from dataclasses import dataclass\n"
                     "registry = {}\n"
                     "@torch.no_grad()\n"
                     "def train(x):\n"
                     "    pass\n"
                     "@ft.lru_cache(maxsize=None)\n"
                     "def cached(n):\n"
                     "    return n\n"
                     "@registry.setdefault\n"
                     "def g(x):\n"
                     "    return x\n"
                     "@dataclass\n"
                     "class Config:\n"
                     "    size: int = 3\n"
                     "    @property\n"
                     "    def twice(self):\n"
                     "        return self.size * 2\n"
                     "    @twice.setter\n"
                     "    def twice(self, v):\n"
                     "        pass\n"
                     "    @staticmethod\n"
                     "    def make():\n"
                     "        pass\n"
                     "    @torch.jit.export\n"
                     "    def e(self):\n"
                     "        pass\n");
  CHECK(ok.skipped.empty());
  CHECK(ok.items.size() == 7);
}

// A syntax error in a def or class, unlike a construct outside the subset,
// makes Python refuse the file: `@torch.j<CR>it.script` leaves a decorator
// with no def after it.
TEST_CASE("module: a syntax error in an item rejects the file", "[module]") {
  for (const char *src : {"import torch\n@torch.jit.script:\ndef f(x):\n"
                          "    return x\n",
                          "import torch\n@torch.j\rit.script\ndef f(x):\n"
                          "    return x\n"}) {
    INFO(src);
    Module m = module(src);
    CHECK(m.items.size() == 1); // the import
    REQUIRE(m.skipped.size() >= 2);
    CHECK(m.skipped.back().isScript);
    CHECK(m.skipped.back().error.message ==
          (std::string(src).find("script:") != std::string::npos
               ? "expected a newline after a decorator"
               : "expected 'def' or 'class' after a decorator"));
  }
  // Constructs outside the subset only skip their item.
  Module m = module("def f(x):\n    with x:\n        pass\n"
                    "def g(x):\n    match x:\n        case 1:\n"
                    "            pass\n"
                    "def h(x):\n    return x\n");
  REQUIRE(m.items.size() == 1);
  REQUIRE(m.skipped.size() == 2);
  CHECK(m.skipped[1].error.message == "match is not supported");
}

// The block layout is checked on the tokens, so it holds in the top-level
// code that the parser skips too.
TEST_CASE("module: block layout errors reject the file", "[module]") {
  struct Case {
    const char *src;
    const char *msg;
    uint32_t line;
  } cases[] = {
      {"x = 1\n    y = 2\n", "unexpected indent", 2},
      {"for i in x:\nprint(i)\n", "expected an indented block", 2},
      {"f forward(x):\n    pass\n", "invalid syntax", 1},
      {"class C:\n    def f(self):\n        pass\n3   x = 1\n"
       "    def g(self):\n        pass\n",
       "invalid syntax", 4},
  };
  for (const Case &c : cases) {
    INFO(c.src);
    Module m = module(c.src);
    REQUIRE(!m.skipped.empty());
    CHECK(m.skipped.back().isScript);
    CHECK(m.skipped.back().error.message == c.msg);
    CHECK(m.skipped.back().error.range.begin.line == c.line);
  }
  CHECK(module("if __name__ == '__main__':\n    main()\n"
               "while True: pass\nwith a as b:\n    pass\n")
            .skipped.empty());
}

// Top-level code is not compiled but is parsed all the same: a syntax error
// there rejects the file, a construct outside the subset does not.
TEST_CASE("module: syntax errors in skipped top-level code", "[module]") {
  struct Case {
    const char *src;
    const char *msg;
  } cases[] = {
      {"i port torch\n", "invalid syntax"},
      {"if __name__ == '__main__'\n    main()\n", "expected ':'"},
      {"print(f(x) g(x))\n", "expected ')'"},
      {"for i in range(3):\n    x = \n", "expected an expression"},
  };
  for (const Case &c : cases) {
    INFO(c.src);
    Module m = module(std::string("def f(x):\n    return x\n") + c.src);
    CHECK(m.items.empty());
    REQUIRE(m.skipped.size() == 2);
    CHECK(m.skipped[1].isScript);
    CHECK(m.skipped[1].error.message == c.msg);
    CHECK(m.skipped[1].error.range.begin.line >= 3);
  }
  Module ok = module(
      "def f(x):\n    return x\n"
      "big = 123456789012345678901234567890 + 2j\n"
      "try:\n    import numpy\nexcept ImportError:\n    numpy = None\n"
      "with open('x') as fh:\n    data = {k: v for k, v in fh}\n"
      "print(*data, sep=f'{big}')\n"
      "match data:\n    case {}:\n        pass\n"
      "g = lambda a: [a for a in data if a]\n"
      "async def h():\n    await g(1)\n");
  CHECK(ok.items.size() == 1);
  REQUIRE(ok.skipped.size() == 1);
  CHECK(ok.skipped[0].name == "h");
}

TEST_CASE("module: a failing decorator skips its def", "[module]") {
  Module m = module("@torch.jit.script\n"
                    "@foo(lambda x: x)\n"
                    "def f(x):\n"
                    "    return x\n"
                    "def g():\n"
                    "    pass\n");
  REQUIRE(m.items.size() == 1);
  CHECK(cast<FunctionDef>(*m.items[0]).name == "g");
  REQUIRE(m.skipped.size() == 1);
  CHECK(m.skipped[0].name == "f");
  CHECK(m.skipped[0].isScript);
  CHECK(m.skipped[0].error.message == "lambda is not supported");
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST_CASE("parser: unsupported Python is rejected precisely", "[errors]") {
  struct Case {
    const char *src;
    const char *expected;
  } cases[] = {
      {"try:\n    pass\nexcept:\n    pass\n",
       "1:1: try/except is not supported"},
      {"f = lambda x: x\n", "1:5: lambda is not supported"},
      {"def f(a, *args):\n    pass\n", "1:10: *args is not supported"},
      {"def f(**kw):\n    pass\n", "1:7: **kwargs is not supported"},
      {"def f(a, *, b):\n    pass\n",
       "1:10: keyword-only parameters are not supported"},
      {"g(x, *xs)\n", "1:6: *args is not supported"},
      {"g(**kw)\n", "1:3: **kwargs is not supported"},
      {"def f():\n    def g():\n        pass\n",
       "2:5: nested def is not supported"},
      {"def f():\n    if x:\n        class C:\n            pass\n",
       "3:9: nested class is not supported"},
      {"def f():\n    global x\n", "2:5: global is not supported"},
      {"def f():\n    nonlocal x\n", "2:5: nonlocal is not supported"},
      {"def f():\n    yield 1\n", "2:5: yield is not supported"},
      {"def f():\n    x = yield\n", "2:9: yield is not supported"},
      {"x = await y\n", "1:5: await is not supported"},
      {"async def f():\n    pass\n", "1:1: async is not supported"},
      {"with open(f) as g:\n    pass\n", "1:1: with is not supported"},
      {"x = {1, 2}\n", "1:5: set display is not supported"},
      {"x = {**a}\n", "1:5: dict unpacking '**' is not supported"},
      {"x = {a: b, **c}\n", "1:5: dict unpacking '**' is not supported"},
      {"x = {k: v for k in y}\n", "1:5: dict comprehension is not supported"},
      {"x = {a: b c}\n", "1:11: expected ',' or '}' in a dict display"},
      {"x = {k for k in y}\n", "1:5: set display is not supported"},
      {"x = [a for a in b async for c in a]\n",
       "1:19: async is not supported"},
      {"x = sum(a for a in b, 1)\n",
       "1:21: a generator expression must be parenthesized unless it is the "
       "only argument"},
      {"x = f(1, a for a in b)\n",
       "1:12: a generator expression must be parenthesized unless it is the "
       "only argument"},
      {"if (n := 3):\n    pass\n",
       "1:7: assignment expression ':=' is not supported"},
      {"del x\n", "1:1: del is not supported"},
      {"for x in y:\n    pass\nelse:\n    pass\n",
       "3:1: else on a loop is not supported"},
      {"while x:\n    pass\nelse:\n    pass\n",
       "3:1: else on a loop is not supported"},
      {"from a import *\n", "1:15: import * is not supported"},
      {"a, *b = c\n", "1:4: starred assignment is not supported"},
      {"x = f'a{b!q}'\n", "1:10: f-string: invalid conversion character: "
                           "expected 's', 'r', or 'a'"},
      {"x = f'a{b:{w}}'\n", "1:11: f-string: a format spec with "
                             "replacement fields of its own is not supported"},
      {"x = 'a' b'a'\n", "1:9: bytes literal is not supported"},
      {"class A:\n    class B:\n        pass\n",
       "2:5: nested class is not supported"},
      {"def f(a, /, b):\n    pass\n",
       "1:10: positional-only parameters are not supported"},
  };
  for (const Case &c : cases) {
    INFO(c.src);
    CHECK(firstError(c.src) == c.expected);
  }
}

TEST_CASE("parser: syntax errors", "[errors]") {
  struct Case {
    const char *src;
    const char *expected;
  } cases[] = {
      {"x = a if c\n", "1:11: expected 'else' in conditional expression"},
      {"if x\n    pass\n", "1:5: expected ':'"},
      {"def f(x)\n    pass\n", "1:9: expected ':'"},
      {"f(a, b\n", "1:2: '(' was never closed"},
      {"x = [1, 2\n", "1:5: '[' was never closed"},
      {"x = \n", "1:5: expected an expression"},
      {"x = 1 +\n", "1:8: expected an expression"},
      {"x[]\n", "1:3: expected an expression"},
      {"if x:\npass\n", "2:1: expected an indented block"},
      {"def f():\n\n# c\nreturn 1\n", "4:1: expected an indented block"},
      {"x = 1\n    y = 2\n", "2:5: unexpected indent"},
      {"f(x) = 3\n", "1:1: cannot assign to a call"},
      {"1 = x\n", "1:1: cannot assign to a literal"},
      {"a, b + 1 = c\n", "1:4: cannot assign to an expression"},
      {"True = 1\n", "1:1: cannot assign to True"},
      {"None = 1\n", "1:1: cannot assign to None"},
      {"for f() in x:\n    pass\n", "1:5: cannot assign to a call"},
      {"x = a < b = 3\n", "1:5: cannot assign to a comparison"},
      {"x + 1 += 2\n", "1:1: illegal expression for augmented assignment"},
      {"a, b: int = 1, 2\n",
       "1:1: only single target (not tuple) can be annotated"},
      {"x = 1 2\n", "1:7: invalid syntax"},
      {"else:\n    pass\n", "1:1: invalid syntax"},
      {"x = 1 $ 2\n", "1:7: invalid character '$'"},
      {"x = 'abc\n", "1:5: unterminated string literal"},
      {"x = 1j\n", "1:5: complex literal is not supported"},
      {"if a:\n    b\n  c\n",
       "3:3: unindent does not match any outer indentation level"},
      {"f(a=1, b)\n", "1:8: positional argument follows keyword argument"},
      {"f(a=1, a=2)\n", "1:8: keyword argument 'a' repeated"},
      {"def f(a=1, b):\n    pass\n",
       "1:12: non-default argument follows default argument"},
      {"def f(x, x):\n    pass\n",
       "1:10: duplicate argument 'x' in function definition"},
      {"class C(metaclass=M):\n    pass\n",
       "1:9: keyword arguments in class bases are not supported"},
      {"import a as\n", "1:12: expected a name after 'as'"},
      {"from a imp b\n", "1:8: expected 'import'"},
      {"x.1\n", "1:2: invalid syntax"},
      {"x.if\n", "1:3: expected an attribute name after '.'"},
      {"@script\nx = 1\n", "2:1: expected 'def' or 'class' after a decorator"},
      {"def (x):\n    pass\n", "1:5: expected a function name"},
      {"for x y:\n    pass\n", "1:7: expected 'in'"},
      {"x = )\n", "1:5: unmatched ')'"},
      {"x = if\n", "1:5: expected an expression"},
  };
  for (const Case &c : cases) {
    INFO(c.src);
    CHECK(firstError(c.src) == c.expected);
  }
}

TEST_CASE("parser: nesting depth is capped", "[errors]") {
  // Brackets nest 200 deep, as in CPython; the lexer refuses the 201st.
  auto parens = [](int n) {
    return "x = " + std::string(n, '(') + "1" + std::string(n, ')') + "\n";
  };
  CHECK(firstError(parens(1000)) == "1:205: too many nested parentheses");
  CHECK(firstError(parens(201)) == "1:205: too many nested parentheses");
  CHECK(firstError(parens(200)) == "ok");
  CHECK(firstError("def f(x):\n    if x:\n        return " +
                   parens(200).substr(4)) == "ok");

  CHECK(firstError("x = " + std::string(5000, '-') + "1\n") ==
        "1:1004: expression is nested too deeply");
  CHECK(firstError("x = " + std::string(999, '-') + "1\n") == "ok");
  std::string nots;
  for (int i = 0; i < 5000; ++i)
    nots += "not ";
  CHECK(firstError("x = " + nots + "a\n").find("nested too deeply") !=
        std::string::npos);
  std::string blocks;
  for (int i = 0; i < 500; ++i)
    blocks += std::string(i, ' ') + "if x:\n";
  blocks += std::string(500, ' ') + "pass\n";
  CHECK(firstError(blocks).find("too many levels of indentation") !=
        std::string::npos);
}

// The expression tree's height is bounded, however it grows: a long chain of
// one operator, nested brackets each holding a chain, or a long chain of
// calls. Every walk of the tree after the parser recurses once per level.
TEST_CASE("parser: expression trees are at most 1000 high", "[errors]") {
  auto sum = [](int n) {
    std::string s = "a";
    for (int i = 1; i < n; ++i)
      s += " + a";
    return s;
  };
  CHECK(firstError("x = " + sum(1000) + "\n") == "ok");
  CHECK(firstError("x = " + sum(1001) + "\n")
            .find("expression is nested too deeply") != std::string::npos);
  // 100 brackets, each holding a 100-term sum with the next bracket first:
  // a tree 10,000 high.
  std::string deep = "a";
  for (int i = 0; i < 100; ++i)
    deep = "(" + deep + " + " + sum(99) + ")";
  std::string err = firstError("x = " + deep + "\n");
  CHECK(err.find("expression is nested too deeply") != std::string::npos);
  std::string calls = "x";
  for (int i = 0; i < 5000; ++i)
    calls += ".relu()";
  CHECK(firstError("y = " + calls + "\n").find("nested too deeply") !=
        std::string::npos);
  for (const char *op : {" and ", " or ", " * ", " | ", " ** "}) {
    std::string chain = "a";
    for (int i = 0; i < 3000; ++i)
      chain += op + std::string("a");
    INFO(op);
    CHECK(firstError("x = " + chain + "\n").find("nested too deeply") !=
          std::string::npos);
  }
}

//===----------------------------------------------------------------------===//
// Robustness
//===----------------------------------------------------------------------===//

static void parseEverything(const std::string &text) {
  SourceFile file("fuzz.py", text);
  Module m = parseModule(file);
  (void)printAST(m);
  auto r = parseStatements(file);
  if (r.ok())
    for (const StmtPtr &s : r.value)
      (void)printAST(*s);
  auto e = parseExpression(file);
  if (e.ok())
    (void)exprToString(*e.value);
}

TEST_CASE("robustness: every prefix of a real script", "[robustness]") {
  std::string script = kTrainingScript;
  for (size_t len = 0; len <= script.size(); ++len)
    parseEverything(script.substr(0, len));
  // And every suffix, which starts mid-token and mid-block.
  for (size_t start = 0; start < script.size(); start += 7)
    parseEverything(script.substr(start));
  SUCCEED();
}

TEST_CASE("robustness: garbage inputs", "[robustness]") {
  const char *inputs[] = {
      "",
      "\n\n\n",
      "(((",
      ")))",
      "]]]}}}",
      "def",
      "def f(",
      "class",
      "@",
      "@@@@\n",
      "\t\t\t\n  \t x",
      "if:\n",
      "\\",
      "'''",
      "\"",
      "\x00\x01\x02\xff\xfe",
      "def f():\n  return\n return\n",
      "x = ["
      "\n",
      "lambda: (yield)",
      "from . import",
      "import",
      "a = b = = c",
      "x[:::]",
      "@torch.jit.script\n",
      "@torch.jit.script\ndef",
      "class C(:\n  pass\n",
      "   \n\n   x\n",
  };
  for (const char *in : inputs)
    parseEverything(in);

  // Token soup from a Python-ish vocabulary.
  const char *vocab[] = {"def ",  "class ", "if ",
                         "else",  ":",      "\n",
                         "    ",  "(",      ")",
                         "[",     "]",      "{",
                         "}",     "x",      "1",
                         "2.5",   "'s'",    ",",
                         "=",     "+",      "**",
                         "-",     "not ",   "and ",
                         "for ",  "in ",    "return ",
                         "@",     ".",      "lambda ",
                         "*",     "\\\n",   "#kiln: x=f32[3]\n",
                         "\t",    "yield ", "import ",
                         "from ", "as ",    "->",
                         ";",     "..."};
  uint32_t seed = 42;
  for (int round = 0; round < 300; ++round) {
    std::string text;
    for (int i = 0; i < 60; ++i) {
      seed = seed * 1664525 + 1013904223;
      text += vocab[(seed >> 8) % (sizeof(vocab) / sizeof(vocab[0]))];
    }
    parseEverything(text);
  }

  // Random bytes.
  for (int round = 0; round < 100; ++round) {
    std::string text;
    for (int i = 0; i < 300; ++i) {
      seed = seed * 1664525 + 1013904223;
      text += char(seed >> 24);
    }
    parseEverything(text);
  }

  // Pathological sizes.
  parseEverything(std::string(100000, '('));
  parseEverything(std::string(100000, '['));
  parseEverything(std::string(100000, '-') + "x");
  parseEverything("x = " + std::string(50000, '~') + "x\n");
  std::string chain = "x = a";
  for (int i = 0; i < 20000; ++i)
    chain += " + a";
  parseEverything(chain + "\n");
  std::string attrs = "x = a";
  for (int i = 0; i < 20000; ++i)
    attrs += ".b";
  parseEverything(attrs + "\n");
  std::string pow = "x = 2";
  for (int i = 0; i < 20000; ++i)
    pow += " ** 2";
  parseEverything(pow + "\n");
  SUCCEED();
}
