//===- ParserTestHelpers.h - Shared helpers of the parser tests ----------===//
#ifndef KILN_TEST_UNIT_PARSERTESTHELPERS_H
#define KILN_TEST_UNIT_PARSERTESTHELPERS_H

#include "frontend/AstPrinter.h"
#include "frontend/Parser.h"

#include <catch2/catch.hpp>

#include <string>

namespace kiln::test {
using namespace kiln::ast;
using llvm::cast;
using llvm::isa;

/// Fully parenthesized operators, so precedence shows in the string.
inline std::string paren(const Expr &e) {
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

inline std::string parseParen(const std::string &text) {
  SourceFile file("e.py", text);
  auto r = parseExpression(file);
  if (!r.ok())
    return "error: " + r.error->message;
  return paren(*r.value);
}

inline std::string roundTrip(const std::string &text) {
  SourceFile file("e.py", text);
  auto r = parseExpression(file);
  if (!r.ok())
    return "error: " + r.error->message;
  return exprToString(*r.value);
}

/// "line:col: message" of the first error, or "ok".
inline std::string firstError(const std::string &text) {
  SourceFile file("t.py", text);
  std::optional<Diagnostic> d = firstParseError(file);
  if (!d)
    return "ok";
  return std::to_string(d->range.begin.line) + ":" +
         std::to_string(d->range.begin.col) + ": " + d->message;
}

inline Block parseOk(const std::string &text) {
  SourceFile file("t.py", text);
  auto r = parseStatements(file);
  INFO(text);
  if (r.error)
    FAIL(r.error->message);
  return std::move(r.value);
}

inline Module module(const std::string &text) {
  SourceFile file("m.py", text);
  return parseModule(file);
}

} // namespace kiln::test

#endif // KILN_TEST_UNIT_PARSERTESTHELPERS_H
