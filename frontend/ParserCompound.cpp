//===- ParserCompound.cpp - Compound statement parsing --------------------===//
//
// The statements that open a block: if/elif/else, while and for (which
// refuse a loop `else`), and the definitions: a decorator list, a function
// definition with its parameters, annotations and the # kiln: spec comments
// above it, and a class definition.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstPrinter.h"
#include "frontend/ParserImpl.h"

#include <set>

namespace kiln::detail {

using namespace ast;

/// After a loop body: Python's `else` clause on loops is not in the subset.
static bool rejectLoopElse(Parser &p) {
  if (!p.atKw("else"))
    return true;
  p.fail(p.cur().range, "else on a loop is not supported");
  return false;
}

StmtPtr Parser::parseIf() {
  SourceLoc begin = cur().range.begin;
  next(); // if / elif
  ExprPtr test = parseNamedTest();
  if (!test || !expectOp(":"))
    return nullptr;
  Block body, orelse;
  if (!parseBlock(body))
    return nullptr;
  if (atKw("elif")) {
    StmtPtr elif = parseIf();
    if (!elif)
      return nullptr;
    orelse.push_back(std::move(elif));
  } else if (atKw("else")) {
    next();
    if (!expectOp(":") || !parseBlock(orelse))
      return nullptr;
  }
  return std::make_unique<IfStmt>(from(begin), std::move(test), std::move(body),
                                  std::move(orelse));
}

StmtPtr Parser::parseWhile() {
  SourceLoc begin = cur().range.begin;
  next(); // while
  ExprPtr test = parseNamedTest();
  if (!test || !expectOp(":"))
    return nullptr;
  Block body;
  if (!parseBlock(body) || !rejectLoopElse(*this))
    return nullptr;
  return std::make_unique<WhileStmt>(from(begin), std::move(test),
                                     std::move(body));
}

StmtPtr Parser::parseFor() {
  SourceLoc begin = cur().range.begin;
  next(); // for
  ExprPtr target = parseExprList();
  if (!target || !checkTarget(*target))
    return nullptr;
  if (!atKw("in"))
    return failAtCur("expected 'in'");
  next();
  ExprPtr iter = parseTestList("starred expression is not supported");
  if (!iter || !expectOp(":"))
    return nullptr;
  Block body;
  if (!parseBlock(body) || !rejectLoopElse(*this))
    return nullptr;
  return std::make_unique<ForStmt>(from(begin), std::move(target),
                                   std::move(iter), std::move(body));
}

StmtPtr Parser::parseDecorated() {
  SourceLoc begin = cur().range.begin;
  std::vector<ExprPtr> decorators;
  while (atOp("@")) {
    next();
    ExprPtr d = parseNamedTest();
    if (!d)
      return nullptr;
    if (!cur().is(TokenKind::Newline))
      return failAtCur("expected a newline after a decorator");
    next();
    decorators.push_back(std::move(d));
  }
  if (atKw("def"))
    return parseFunctionDef(std::move(decorators), begin);
  if (atKw("class"))
    return parseClassDef(std::move(decorators), begin);
  if (atKw("async"))
    return fail(cur().range, "async is not supported");
  return failAtCur("expected 'def' or 'class' after a decorator");
}

std::vector<SpecComment> Parser::specsAbove(uint32_t firstLine,
                                            uint32_t lastLine) const {
  // Walk up over the comment-only lines directly above the def.
  uint32_t top = firstLine;
  while (top > 1) {
    std::string_view text = file.line(top - 1);
    size_t i = text.find_first_not_of(" \t");
    if (i == std::string_view::npos || text[i] != '#')
      break;
    --top;
  }
  std::vector<SpecComment> out;
  for (const SpecComment &s : specs)
    if (s.range.begin.line >= top && s.range.begin.line <= lastLine)
      out.push_back(s);
  return out;
}

/// Whether a decorator leaves the function to Python, so that TorchScript
/// never compiles its body: @torch.jit.unused or @torch.jit.ignore (also
/// spelled through `jit.` or a bare `unused`/`ignore` import), with or
/// without arguments (`@torch.jit.ignore(drop=True)`).
static bool leftToPython(const std::vector<ExprPtr> &decorators) {
  for (const ExprPtr &d : decorators) {
    const Expr *e = d.get();
    if (auto *c = llvm::dyn_cast<CallExpr>(e))
      e = c->func.get();
    std::string name = exprToString(*e);
    for (const char *spelling : {"torch.jit.unused", "torch.jit.ignore",
                                 "jit.unused", "jit.ignore", "unused",
                                 "ignore"})
      if (name == spelling)
        return true;
  }
  return false;
}

StmtPtr Parser::parseFunctionDef(std::vector<ExprPtr> decorators,
                                 SourceLoc begin) {
  const Token &defTok = cur();
  size_t defIndex = pos;
  if (funcDepth > 0)
    return fail(defTok.range, "nested def is not supported");
  uint32_t defLine = defTok.range.begin.line;
  next();
  auto fn = std::make_unique<FunctionDef>(SourceRange());
  if (!cur().is(TokenKind::Name) || cur().isKeyword())
    return failAtCur("expected a function name");
  fn->name = cur().text;
  fn->nameRange = cur().range;
  next();
  if (!expectOp("("))
    return nullptr;
  // A signature kiln does not compile (torchvision's `**kwargs: Any` in
  // __init__) is valid Python: in a method, it is reported only if an
  // entry point reaches the method, as an unsupported body is; Python runs
  // __init__. Elsewhere it fails the def.
  auto unsupportedSignature = [&](SourceRange range,
                                  std::string message) -> StmtPtr {
    fail(range, std::move(message));
    if (classDepth == 0)
      return nullptr;
    fn->unsupported = std::move(err);
    err.reset();
    fn->params.clear();
    pos = skipStatement(defIndex);
    fn->range = from(begin);
    fn->decorators = std::move(decorators);
    return StmtPtr(std::move(fn));
  };
  std::set<std::string> seen;
  bool sawDefault = false;
  while (!atOp(")")) {
    if (atOp("*")) {
      if (ahead(1).is(TokenKind::Name))
        return unsupportedSignature(
            SourceRange::cover(cur().range, ahead(1).range),
            "*args is not supported");
      return unsupportedSignature(cur().range,
                                  "keyword-only parameters are not supported");
    }
    if (atOp("**"))
      return unsupportedSignature(
          SourceRange::cover(cur().range, ahead(1).range),
          "**kwargs is not supported");
    if (atOp("/"))
      return unsupportedSignature(
          cur().range, "positional-only parameters are not supported");
    if (!cur().is(TokenKind::Name) || cur().isKeyword())
      return failAtCur("expected a parameter name");
    Param param;
    param.name = cur().text;
    SourceRange nameRange = cur().range;
    next();
    if (acceptOp(":")) {
      param.annotation = parseTest();
      if (!param.annotation)
        return nullptr;
    }
    if (acceptOp("=")) {
      param.defaultValue = parseTest();
      if (!param.defaultValue)
        return nullptr;
      sawDefault = true;
    } else if (sawDefault) {
      return fail(nameRange, "non-default argument follows default argument");
    }
    if (!seen.insert(param.name).second)
      return fail(nameRange, "duplicate argument '" + param.name +
                                 "' in function definition");
    param.range = from(nameRange.begin);
    fn->params.push_back(std::move(param));
    if (!acceptOp(","))
      break;
  }
  if (!expectOp(")"))
    return nullptr;
  if (acceptOp("->")) {
    fn->returns = parseTest();
    if (!fn->returns)
      return nullptr;
  }
  if (!expectOp(":"))
    return nullptr;
  ++funcDepth;
  bool ok = parseBlock(fn->body);
  --funcDepth;
  if (!ok && err && !isSyntaxError(err->message) &&
      leftToPython(decorators)) {
    // TorchScript never compiles the body of an @torch.jit.unused or
    // @torch.jit.ignore function, so Python outside kiln's subset (`with`,
    // a lambda) may be there. The body is dropped; calling the function is
    // an error when lowering. Syntax errors still refuse the file.
    err.reset();
    fn->body.clear();
    pos = skipStatement(defIndex);
    ok = true;
  } else if (!ok && err && !isSyntaxError(err->message) && classDepth > 0) {
    // A method is compiled only if an entry point reaches it, so what kiln
    // does not support in it is reported then, as for a skipped top-level
    // def. __init__ too: Python runs it (ModuleDescription.h), kiln never
    // compiles it.
    fn->unsupported = std::move(err);
    err.reset();
    fn->body.clear();
    pos = skipStatement(defIndex);
    ok = true;
  }
  if (!ok)
    return nullptr;
  fn->range = from(begin);
  fn->decorators = std::move(decorators);
  fn->specs = specsAbove(begin.line, defLine);
  return fn;
}

StmtPtr Parser::parseClassDef(std::vector<ExprPtr> decorators,
                              SourceLoc begin) {
  const Token &classTok = cur();
  if (funcDepth > 0 || classDepth > 0)
    return fail(classTok.range, "nested class is not supported");
  next();
  auto cls = std::make_unique<ClassDef>(SourceRange());
  if (!cur().is(TokenKind::Name) || cur().isKeyword())
    return failAtCur("expected a class name");
  cls->name = cur().text;
  cls->nameRange = cur().range;
  next();
  if (acceptOp("(")) {
    while (!atOp(")")) {
      if (atOp("*"))
        return fail(cur().range, "*args is not supported");
      if (atOp("**"))
        return fail(cur().range, "**kwargs is not supported");
      if (cur().is(TokenKind::Name) && ahead(1).isOp("="))
        return fail(cur().range,
                    "keyword arguments in class bases are not supported");
      ExprPtr base = parseTest();
      if (!base)
        return nullptr;
      cls->bases.push_back(std::move(base));
      if (!acceptOp(","))
        break;
    }
    if (!expectOp(")"))
      return nullptr;
  }
  if (!expectOp(":"))
    return nullptr;
  ++classDepth;
  bool ok = parseBlock(cls->body);
  --classDepth;
  if (!ok)
    return nullptr;
  cls->range = from(begin);
  cls->decorators = std::move(decorators);
  return cls;
}

} // namespace kiln::detail
