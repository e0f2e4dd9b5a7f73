//===- Parser.h - Recursive-descent parser for kiln's Python subset -------===//
//
// The same file trains in PyTorch and compiles with kiln, so the module
// parser is forgiving at the top level: imports, defs and classes are kept;
// every other top-level statement is left out; a def or class outside the
// subset becomes an ast::SkippedItem that the lowering reports only if an
// entry point reaches it. But a file Python itself refuses (a lexical error,
// a syntax error, bad indentation anywhere, a decorator naming nothing) is
// refused whole: every item is skipped with that error. Nothing here
// throws, crashes or hangs on any input.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_PARSER_H
#define KILN_FRONTEND_PARSER_H

#include "frontend/AST.h"
#include "frontend/Diagnostics.h"

#include <optional>

namespace kiln {

/// A parsed value, or the first error that stopped parsing.
template <typename T> struct ParseResult {
  T value{};
  std::optional<Diagnostic> error;
  bool ok() const { return !error.has_value(); }
};

/// Parses a whole module, forgivingly (see above).
ast::Module parseModule(const SourceFile &file);

/// Parses a file holding exactly one expression (newlines around it are
/// allowed).
ParseResult<ast::ExprPtr> parseExpression(const SourceFile &file);

/// Parses every statement of a file strictly, as if it were a function body
/// at the top level: no skipping, the first error wins. Used by tests and by
/// tools that want Python's own "is this file valid" answer.
ParseResult<ast::Block> parseStatements(const SourceFile &file);

/// The first error parseStatements finds, if any.
std::optional<Diagnostic> firstParseError(const SourceFile &file);

} // namespace kiln

#endif // KILN_FRONTEND_PARSER_H
