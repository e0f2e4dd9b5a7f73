//===- ParserTest.cpp - Expressions, statements and the AST printer ------===//
#include "test/unit/ParserTestHelpers.h"

#include <catch2/catch.hpp>

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::test;
using llvm::cast;
using llvm::isa;

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
  CHECK(roundTrip("[a * b for a in xs if a for b in ys if b > a if b]") ==
        "[a * b for a in xs if a for b in ys if b > a if b]");
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


TEST_CASE("parser: f-strings split into literals and fields", "[expr]") {
  // Fields are parsed in place: `b` keeps its column in the file.
  SourceFile file("e.py", "(f'a{{{b!r:>4}}}\\n' 'c' f\"{x.y + 1}\")\n");
  auto r = parseExpression(file);
  REQUIRE(r.ok());
  const auto &f = cast<FStringExpr>(*r.value);
  REQUIRE(f.parts.size() == 5);
  CHECK(f.parts[0].text == "a{");
  CHECK(exprToString(*f.parts[1].expr) == "b");
  CHECK(f.parts[1].expr->range.begin.col == 8);
  CHECK(f.parts[1].conversion == 'r');
  CHECK(f.parts[1].spec == ">4");
  CHECK(f.parts[2].text == "}\n");
  CHECK(f.parts[3].text == "c");
  CHECK(exprToString(*f.parts[4].expr) == "x.y + 1");
  CHECK(exprToString(f) == "f'a{{{b!r:>4}}}\\nc{x.y + 1}'");
}
