//===- ParserTest.cpp -----------------------------------------------------===//
#include "frontend/Parser.h"
#include "frontend/AstPrinter.h"

#include <catch2/catch.hpp>

using namespace kiln;
using namespace kiln::ast;
using llvm::cast;
using llvm::isa;

namespace {

/// Fully parenthesized operators, so precedence shows in the string.
std::string paren(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::BinOp: {
    const auto &b = cast<BinOpExpr>(e);
    return "(" + paren(*b.lhs) + " " + spell(b.op) + " " + paren(*b.rhs) + ")";
  }
  case Expr::Kind::UnaryOp: {
    const auto &u = cast<UnaryOpExpr>(e);
    return std::string("(") + spell(u.op) +
           (u.op == UnaryOpKind::Not ? " " : "") + paren(*u.operand) + ")";
  }
  case Expr::Kind::BoolOp: {
    const auto &b = cast<BoolOpExpr>(e);
    return "(" + paren(*b.lhs) + " " + spell(b.op) + " " + paren(*b.rhs) + ")";
  }
  case Expr::Kind::Compare: {
    const auto &c = cast<CompareExpr>(e);
    std::string s = "(" + paren(*c.operands[0]);
    for (size_t i = 0; i < c.ops.size(); ++i)
      s += std::string(" ") + spell(c.ops[i]) + " " + paren(*c.operands[i + 1]);
    return s + ")";
  }
  case Expr::Kind::IfExp: {
    const auto &i = cast<IfExpExpr>(e);
    return "(" + paren(*i.body) + " if " + paren(*i.test) + " else " +
           paren(*i.orelse) + ")";
  }
  default:
    return exprToString(e);
  }
}

std::string parseParen(const std::string &text) {
  SourceFile file("e.py", text);
  auto r = parseExpression(file);
  if (!r.ok())
    return "error: " + r.error->message;
  return paren(*r.value);
}

std::string roundTrip(const std::string &text) {
  SourceFile file("e.py", text);
  auto r = parseExpression(file);
  if (!r.ok())
    return "error: " + r.error->message;
  return exprToString(*r.value);
}

/// "line:col: message" of the first error, or "ok".
std::string firstError(const std::string &text) {
  SourceFile file("t.py", text);
  std::optional<Diagnostic> d = firstParseError(file);
  if (!d)
    return "ok";
  return std::to_string(d->range.begin.line) + ":" +
         std::to_string(d->range.begin.col) + ": " + d->message;
}

Block parseOk(const std::string &text) {
  SourceFile file("t.py", text);
  auto r = parseStatements(file);
  INFO(text);
  if (r.error)
    FAIL(r.error->message);
  return std::move(r.value);
}

Module module(const std::string &text) {
  SourceFile file("m.py", text);
  return parseModule(file);
}

} // namespace

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

TEST_CASE("parser: arithmetic precedence", "[parser]") {
  CHECK(parseParen("a + b * c") == "(a + (b * c))");
  CHECK(parseParen("a - b - c") == "((a - b) - c)");
  CHECK(parseParen("x @ y / z // w % v") == "((((x @ y) / z) // w) % v)");
  CHECK(parseParen("a | b ^ c & d << e + f") ==
        "(a | (b ^ (c & (d << (e + f)))))");
  CHECK(parseParen("a >> b << c") == "((a >> b) << c)");
}

TEST_CASE("parser: power binds tighter than unary on its left", "[parser]") {
  CHECK(parseParen("-2 ** 2") == "(-(2 ** 2))");
  CHECK(parseParen("2 ** -1") == "(2 ** (-1))");
  CHECK(parseParen("a ** b ** c") == "(a ** (b ** c))");
  CHECK(parseParen("-x.y ** 2") == "(-(x.y ** 2))");
  CHECK(parseParen("~a.b[c](d)") == "(~a.b[c](d))");
  CHECK(parseParen("- - +a") == "(-(-(+a)))");
}

TEST_CASE("parser: boolean and comparison precedence", "[parser]") {
  CHECK(parseParen("not a == b") == "(not (a == b))");
  CHECK(parseParen("a or b and not c") == "(a or (b and (not c)))");
  CHECK(parseParen("a and b and c") == "((a and b) and c)");
  CHECK(parseParen("a < b <= c") == "(a < b <= c)");
  CHECK(parseParen("a is not b") == "(a is not b)");
  CHECK(parseParen("a not in b") == "(a not in b)");
  CHECK(parseParen("a in b == c") == "(a in b == c)");
  CHECK(parseParen("a + 1 < b * 2") == "((a + 1) < (b * 2))");
  CHECK(parseParen("x is None or y") == "((x is None) or y)");
}

TEST_CASE("parser: conditional expressions", "[parser]") {
  CHECK(parseParen("a if b or c else d if e else f") ==
        "(a if (b or c) else (d if e else f))");
  CHECK(parseParen("a + b if c else d") == "((a + b) if c else d)");
}

TEST_CASE("parser: atoms and primaries", "[parser]") {
  CHECK(roundTrip("(a,)") == "(a,)");
  CHECK(roundTrip("()") == "()");
  CHECK(roundTrip("(a)") == "a");
  CHECK(roundTrip("(a, b,)") == "(a, b)");
  CHECK(roundTrip("[a, b,]") == "[a, b]");
  CHECK(roundTrip("[]") == "[]");
  CHECK(roundTrip("'a' \"b\"  'c'") == "'abc'");
  CHECK(roundTrip("True and False or None") == "True and False or None");
  CHECK(roundTrip("1.5 + 2e3 + .5 + 0x10") == "1.5 + 2000.0 + 0.5 + 16");
  CHECK(roundTrip("f(a, b=1, c=x + 1)") == "f(a, b=1, c=x + 1)");
  CHECK(roundTrip("f()") == "f()");
  CHECK(roundTrip("f(a,)") == "f(a)");
  CHECK(roundTrip("torch.nn.functional.relu(x)") ==
        "torch.nn.functional.relu(x)");
  CHECK(roundTrip("[x * 2 for x in range(3)]") == "[x * 2 for x in range(3)]");
  CHECK(roundTrip("[i for i, j in pairs]") == "[i for (i, j) in pairs]");
  CHECK(roundTrip("a, b") == "(a, b)");
  CHECK(roundTrip("x.size(0)") == "x.size(0)");
  CHECK(roundTrip("1e-5 + 1e16 + 0.1 + 1.5e-7 + 123.25") ==
        "1e-05 + 1e+16 + 0.1 + 1.5e-07 + 123.25");
}

TEST_CASE("parser: subscripts and slices", "[parser]") {
  CHECK(roundTrip("x[1:2, ::2, None, ..., :]") == "x[1:2, ::2, None, ..., :]");
  CHECK(roundTrip("x[-1]") == "x[-1]");
  CHECK(roundTrip("x[a:]") == "x[a:]");
  CHECK(roundTrip("x[:, 0]") == "x[:, 0]");
  CHECK(roundTrip("x[::-1]") == "x[::-1]");
  CHECK(roundTrip("Tuple[Tensor, int]") == "Tuple[Tensor, int]");

  SourceFile file("e.py", "x[i, j:k]");
  auto r = parseExpression(file);
  REQUIRE(r.ok());
  auto *sub = llvm::dyn_cast<SubscriptExpr>(r.value.get());
  REQUIRE(sub);
  REQUIRE(sub->indices.size() == 2);
  CHECK(isa<NameExpr>(*sub->indices[0]));
  auto *slice = llvm::dyn_cast<SliceExpr>(sub->indices[1].get());
  REQUIRE(slice);
  CHECK(slice->lower);
  CHECK(slice->upper);
  CHECK_FALSE(slice->step);
}

TEST_CASE("parser: call keyword arguments and ranges", "[parser]") {
  SourceFile file("e.py", "torch.sum(x, dim=1, keepdim=True)");
  auto r = parseExpression(file);
  REQUIRE(r.ok());
  auto *call = llvm::dyn_cast<CallExpr>(r.value.get());
  REQUIRE(call);
  CHECK(call->args.size() == 1);
  REQUIRE(call->keywords.size() == 2);
  CHECK(call->keywords[0].name == "dim");
  CHECK(call->keywords[1].name == "keepdim");
  CHECK(call->keywords[1].range.begin.col == 21);
  CHECK(call->range.begin.col == 1);
  CHECK(call->range.end.col == 34);
  auto *attr = llvm::dyn_cast<AttributeExpr>(call->func.get());
  REQUIRE(attr);
  CHECK(attr->attr == "sum");
  CHECK(attr->attrRange.begin.col == 7);
}

TEST_CASE("parser: binop ranges", "[parser]") {
  SourceFile file("e.py", "a  +  bb");
  auto r = parseExpression(file);
  REQUIRE(r.ok());
  auto *bin = llvm::dyn_cast<BinOpExpr>(r.value.get());
  REQUIRE(bin);
  CHECK(bin->range.begin.col == 1);
  CHECK(bin->range.end.col == 9);
  CHECK(bin->opRange.begin.col == 4);
  CHECK(bin->opRange.end.col == 5);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

TEST_CASE("parser: assignment forms", "[parser]") {
  Block b = parseOk("a = b = 1\n"
                    "a, b = f(x)\n"
                    "x = a, b\n"
                    "[a, b] = c\n"
                    "self.w[i, j] = v\n"
                    "y: int = 3\n"
                    "z: Optional[Tensor]\n"
                    "x += 1; x -= 1; x *= 2; x /= 2; x //= 2; x %= 2\n"
                    "x **= 2; x @= w; x &= 1; x |= 1; x ^= 1; x <<= 1\n"
                    "x >>= 1\n");
  REQUIRE(b.size() == 20);
  auto &chain = cast<AssignStmt>(*b[0]);
  CHECK(chain.targets.size() == 2);
  auto &unpack = cast<AssignStmt>(*b[1]);
  REQUIRE(unpack.targets.size() == 1);
  CHECK(cast<TupleExpr>(*unpack.targets[0]).elts.size() == 2);
  CHECK(isa<CallExpr>(*unpack.value));
  CHECK(isa<TupleExpr>(*cast<AssignStmt>(*b[2]).value));
  CHECK(isa<ListExpr>(*cast<AssignStmt>(*b[3]).targets[0]));
  CHECK(isa<SubscriptExpr>(*cast<AssignStmt>(*b[4]).targets[0]));
  auto &ann = cast<AnnAssignStmt>(*b[5]);
  CHECK(exprToString(*ann.annotation) == "int");
  CHECK(ann.value);
  CHECK_FALSE(cast<AnnAssignStmt>(*b[6]).value);
  const BinOpKind ops[] = {
      BinOpKind::Add,   BinOpKind::Sub,      BinOpKind::Mul,
      BinOpKind::Div,   BinOpKind::FloorDiv, BinOpKind::Mod,
      BinOpKind::Pow,   BinOpKind::MatMul,   BinOpKind::BitAnd,
      BinOpKind::BitOr, BinOpKind::BitXor,   BinOpKind::LShift,
      BinOpKind::RShift};
  for (int i = 0; i < 13; ++i) {
    auto *aug = llvm::dyn_cast<AugAssignStmt>(b[7 + i].get());
    REQUIRE(aug);
    CHECK(aug->op == ops[i]);
  }
}

TEST_CASE("parser: control flow", "[parser]") {
  Block b = parseOk("if a:\n"
                    "    pass\n"
                    "elif b:\n"
                    "    x = 1\n"
                    "else:\n"
                    "    x = 2\n"
                    "for i, (j, k) in enumerate(xs):\n"
                    "    if i: break\n"
                    "    continue\n"
                    "while x < 3:\n"
                    "    x += 1\n"
                    "assert x\n"
                    "assert x > 0, 'positive'\n");
  REQUIRE(b.size() == 5);
  auto &ifs = cast<IfStmt>(*b[0]);
  REQUIRE(ifs.orelse.size() == 1);
  auto &elif = cast<IfStmt>(*ifs.orelse[0]);
  CHECK(elif.range.begin.line == 3);
  CHECK(elif.orelse.size() == 1);
  auto &loop = cast<ForStmt>(*b[1]);
  CHECK(exprToString(*loop.target) == "(i, (j, k))");
  CHECK(loop.body.size() == 2);
  CHECK(isa<IfStmt>(*loop.body[0]));
  CHECK(isa<WhileStmt>(*b[2]));
  CHECK_FALSE(cast<AssertStmt>(*b[3]).msg);
  CHECK(cast<AssertStmt>(*b[4]).msg);
}

TEST_CASE("parser: returns", "[parser]") {
  Block b = parseOk("def f(x):\n"
                    "    if x:\n"
                    "        return\n"
                    "    return x, x + 1\n");
  auto &f = cast<FunctionDef>(*b[0]);
  auto &early = cast<ReturnStmt>(*cast<IfStmt>(*f.body[0]).body[0]);
  CHECK_FALSE(early.value);
  auto &ret = cast<ReturnStmt>(*f.body[1]);
  CHECK(cast<TupleExpr>(*ret.value).elts.size() == 2);
}

TEST_CASE("parser: imports", "[parser]") {
  Block b = parseOk("import torch\n"
                    "import torch.nn as nn, math\n"
                    "from torch.nn import functional as F, Linear\n"
                    "from typing import (List,\n  Tuple,)\n"
                    "from . import x\n");
  REQUIRE(b.size() == 5);
  auto &i1 = cast<ImportStmt>(*b[1]);
  CHECK(i1.module.empty());
  REQUIRE(i1.names.size() == 2);
  CHECK(i1.names[0].name == "torch.nn");
  CHECK(i1.names[0].asname == "nn");
  CHECK(i1.names[1].name == "math");
  auto &i2 = cast<ImportStmt>(*b[2]);
  CHECK(i2.module == "torch.nn");
  CHECK(i2.names[0].name == "functional");
  CHECK(i2.names[0].asname == "F");
  CHECK(cast<ImportStmt>(*b[3]).names.size() == 2);
  CHECK(cast<ImportStmt>(*b[4]).module == ".");
}

TEST_CASE("parser: function definitions", "[parser]") {
  Block b = parseOk("# kiln: x=f32[B,784]\n"
                    "# unrelated comment\n"
                    "@torch.jit.script\n"
                    "def f(x: Tensor, n: int = 3) -> Tuple[Tensor, int]:\n"
                    "    '''doc'''\n"
                    "    return x, n\n"
                    "\n"
                    "# kiln: not=mine\n"
                    "\n"
                    "def g(): return 1\n");
  REQUIRE(b.size() == 2);
  auto &f = cast<FunctionDef>(*b[0]);
  CHECK(f.name == "f");
  CHECK(f.nameRange.begin.line == 4);
  CHECK(f.nameRange.begin.col == 5);
  CHECK(f.range.begin.line == 3);
  REQUIRE(f.decorators.size() == 1);
  CHECK(exprToString(*f.decorators[0]) == "torch.jit.script");
  REQUIRE(f.params.size() == 2);
  CHECK(f.params[0].name == "x");
  CHECK(exprToString(*f.params[0].annotation) == "Tensor");
  CHECK_FALSE(f.params[0].defaultValue);
  CHECK(exprToString(*f.params[1].defaultValue) == "3");
  CHECK(exprToString(*f.returns) == "Tuple[Tensor, int]");
  REQUIRE(f.specs.size() == 1);
  CHECK(f.specs[0].text == "x=f32[B,784]");
  REQUIRE(f.body.size() == 2);
  auto &doc = cast<ExprStmt>(*f.body[0]);
  CHECK(cast<StrLitExpr>(*doc.value).value == "doc");
  auto &g = cast<FunctionDef>(*b[1]);
  CHECK(g.specs.empty());
  CHECK(g.body.size() == 1);
}

TEST_CASE("parser: nn.Module class", "[parser]") {
  const char *src = "class Net(nn.Module):\n"
                    "    \"\"\"A net.\"\"\"\n"
                    "    __constants__ = ['n']\n"
                    "    n: int\n"
                    "\n"
                    "    def __init__(self, n: int):\n"
                    "        super().__init__()\n"
                    "        self.fc = nn.Linear(784, 10)\n"
                    "        self.n = n\n"
                    "\n"
                    "    # kiln: x=f32[B,784]\n"
                    "    def forward(self, x):\n"
                    "        return self.fc(x).relu()\n";
  Block b = parseOk(src);
  REQUIRE(b.size() == 1);
  auto &cls = cast<ClassDef>(*b[0]);
  CHECK(cls.name == "Net");
  REQUIRE(cls.bases.size() == 1);
  CHECK(exprToString(*cls.bases[0]) == "nn.Module");
  REQUIRE(cls.body.size() == 5);
  CHECK(isa<ExprStmt>(*cls.body[0]));
  CHECK(isa<AssignStmt>(*cls.body[1]));
  CHECK(isa<AnnAssignStmt>(*cls.body[2]));
  auto &init = cast<FunctionDef>(*cls.body[3]);
  CHECK(init.name == "__init__");
  CHECK(init.body.size() == 3);
  auto &fwd = cast<FunctionDef>(*cls.body[4]);
  CHECK(fwd.name == "forward");
  REQUIRE(fwd.specs.size() == 1);
  CHECK(fwd.specs[0].text == "x=f32[B,784]");
}

TEST_CASE("parser: semicolons and one-line bodies", "[parser]") {
  Block b = parseOk("a = 1; b = 2;\n"
                    "if a: b = 3; c = 4\n"
                    "def f(): pass\n");
  REQUIRE(b.size() == 4);
  CHECK(cast<IfStmt>(*b[2]).body.size() == 2);
}

TEST_CASE("parser: decorators with arguments", "[parser]") {
  Block b = parseOk("@a.b(c=1)\n@d\nclass C:\n    pass\n");
  auto &c = cast<ClassDef>(*b[0]);
  REQUIRE(c.decorators.size() == 2);
  CHECK(exprToString(*c.decorators[0]) == "a.b(c=1)");
}

//===----------------------------------------------------------------------===//
// The AST printer
//===----------------------------------------------------------------------===//

TEST_CASE("printer: format", "[printer]") {
  Module m = module("import torch\n"
                    "@torch.jit.script\n"
                    "def myfun(x):\n"
                    "    y = x * x\n"
                    "    return y\n"
                    "def train():\n"
                    "    with a:\n"
                    "        pass\n");
  CHECK(printAST(m) == "Import @1:1 torch\n"
                       "FunctionDef myfun @2:1 [decorators: torch.jit.script]\n"
                       "  Param x @3:11\n"
                       "  Assign @4:5\n"
                       "    Name y @4:5 (target)\n"
                       "    BinOp * @4:9\n"
                       "      Name x @4:9\n"
                       "      Name x @4:13\n"
                       "  Return @5:5\n"
                       "    Name y @5:12\n"
                       "Skipped function 'train' @6:1: with is not supported "
                       "(at 7:5)\n");
}

TEST_CASE("printer: control flow and literals", "[printer]") {
  Module m = module("def f(a: int = 2) -> int:\n"
                    "    for i in range(3):\n"
                    "        a += i\n"
                    "    if a > 1:\n"
                    "        pass\n"
                    "    else:\n"
                    "        a = -1.5 if a else 'x'\n"
                    "    return x[1:, None]\n");
  CHECK(printAST(m) == "FunctionDef f @1:1 -> int\n"
                       "  Param a @1:7 : int = 2\n"
                       "  For @2:5\n"
                       "    Name i @2:9 (target)\n"
                       "    Call @2:14\n"
                       "      Name range @2:14\n"
                       "      Int 3 @2:20\n"
                       "    Body\n"
                       "      AugAssign += @3:9\n"
                       "        Name a @3:9 (target)\n"
                       "        Name i @3:14\n"
                       "  If @4:5\n"
                       "    Compare > @4:8\n"
                       "      Name a @4:8\n"
                       "      Int 1 @4:12\n"
                       "    Then\n"
                       "      Pass @5:9\n"
                       "    Else\n"
                       "      Assign @7:9\n"
                       "        Name a @7:9 (target)\n"
                       "        IfExp @7:13\n"
                       "          Name a @7:21\n"
                       "          UnaryOp - @7:13\n"
                       "            Float 1.5 @7:14\n"
                       "          Str 'x' @7:28\n"
                       "  Return @8:5\n"
                       "    Subscript @8:12\n"
                       "      Name x @8:12\n"
                       "      Slice @8:14\n"
                       "        Int 1 @8:14\n"
                       "        <none>\n"
                       "        <none>\n"
                       "      None @8:18\n");
}

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
                                          "def last"});
  REQUIRE(m.skipped.size() == 3);
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

  const SkippedItem &broken = m.skipped[2];
  CHECK(broken.kind == SkippedItem::Kind::Class);
  CHECK(broken.name == "Broken");
  CHECK(broken.error.message == "*args is not supported");
  CHECK(broken.error.range.begin.line == 58);
  CHECK(broken.error.range.begin.col == 23);

  auto &good = cast<FunctionDef>(*m.items[3]);
  REQUIRE(good.specs.size() == 1);
  CHECK(good.specs[0].text == "x=f32[B,784]");
}

TEST_CASE("module: lexer errors in skipped code do not matter", "[module]") {
  Module m = module("def f(x):\n"
                    "    return x\n"
                    "print(1 $ 2)\n"
                    "s = 'unterminated\n"
                    "x = 0xZZ + 1j\n"
                    "def g(x):\n"
                    "    return x ? 1\n"
                    "def h(x):\n"
                    "    return x\n");
  REQUIRE(m.items.size() == 2);
  CHECK(cast<FunctionDef>(*m.items[0]).name == "f");
  CHECK(cast<FunctionDef>(*m.items[1]).name == "h");
  REQUIRE(m.skipped.size() == 1);
  CHECK(m.skipped[0].name == "g");
  CHECK(m.skipped[0].error.message == "invalid character '?'");
  CHECK(m.skipped[0].error.range.begin.line == 7);
  CHECK(m.skipped[0].error.range.begin.col == 14);
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
      {"x = {}\n", "1:5: dict display is not supported"},
      {"x = {a: b}\n", "1:5: dict display is not supported"},
      {"x = {k: v for k in y}\n", "1:5: dict display is not supported"},
      {"x = {k for k in y}\n", "1:5: set display is not supported"},
      {"x = [a for a in b if a]\n",
       "1:19: comprehension with 'if' is not supported"},
      {"x = [a for a in b for c in a]\n",
       "1:19: comprehension with several 'for' clauses is not supported"},
      {"x = (a for a in b)\n", "1:8: generator expression is not supported"},
      {"x = sum(a for a in b)\n",
       "1:11: generator expression is not supported"},
      {"if (n := 3):\n    pass\n",
       "1:7: assignment expression ':=' is not supported"},
      {"del x\n", "1:1: del is not supported"},
      {"raise ValueError()\n", "1:1: raise is not supported"},
      {"for x in y:\n    pass\nelse:\n    pass\n",
       "3:1: else on a loop is not supported"},
      {"while x:\n    pass\nelse:\n    pass\n",
       "3:1: else on a loop is not supported"},
      {"from a import *\n", "1:15: import * is not supported"},
      {"a, *b = c\n", "1:4: starred assignment is not supported"},
      {"x = f'a{b}'\n", "1:5: f-string is not supported"},
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
      {"f(a, b\n", "2:1: expected ')'"},
      {"x = [1, 2\n", "2:1: expected ']'"},
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
      {"x = )\n", "1:5: expected an expression"},
      {"x = if\n", "1:5: expected an expression"},
  };
  for (const Case &c : cases) {
    INFO(c.src);
    CHECK(firstError(c.src) == c.expected);
  }
}

TEST_CASE("parser: nesting depth is capped", "[errors]") {
  std::string deep =
      "x = " + std::string(1000, '(') + "1" + std::string(1000, ')') + "\n";
  std::string err = firstError(deep);
  CHECK(err.find("expression is nested too deeply") != std::string::npos);
  CHECK(err.substr(0, 2) == "1:");

  std::string ok =
      "x = " + std::string(150, '(') + "1" + std::string(150, ')') + "\n";
  CHECK(firstError(ok) == "ok");

  CHECK(firstError("x = " + std::string(5000, '-') + "1\n") ==
        "1:204: expression is nested too deeply");
  std::string nots;
  for (int i = 0; i < 5000; ++i)
    nots += "not ";
  CHECK(firstError("x = " + nots + "a\n").find("nested too deeply") !=
        std::string::npos);
  std::string blocks;
  for (int i = 0; i < 500; ++i)
    blocks += std::string(i, ' ') + "if x:\n";
  blocks += std::string(500, ' ') + "pass\n";
  CHECK(firstError(blocks).find("nested too deeply") != std::string::npos);
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
