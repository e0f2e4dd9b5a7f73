//===- AstPrinter.h - Textual dump of the syntax tree ---------------------===//
//
// `kiln compile FILE --emit=ast` prints this. The format is one node per line,
// indented two spaces per level, each with its `@line:col`; it is meant to be
// stable so golden tests can check it.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_ASTPRINTER_H
#define KILN_FRONTEND_ASTPRINTER_H

#include "frontend/AST.h"

#include <string>

namespace kiln {

/// The whole module, skipped items last.
std::string printAST(const ast::Module &m);
/// One statement (and its children), starting at `indent` levels.
std::string printAST(const ast::Stmt &s, unsigned indent = 0);
/// One expression tree.
std::string printAST(const ast::Expr &e, unsigned indent = 0);

/// Python source for an expression, e.g. "torch.jit.script" or
/// "Tuple[Tensor, int]"; used for decorators, annotations and messages.
std::string exprToString(const ast::Expr &e);

} // namespace kiln

#endif // KILN_FRONTEND_ASTPRINTER_H
