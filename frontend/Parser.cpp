//===- Parser.cpp - Statement and module parsing --------------------------===//
//
// Blocks, simple statements (assignments, imports and the like), the
// module loop with its recovery over unsupported items, and the public
// parse entry points. Compound statements live in ParserCompound.cpp.
//
//===----------------------------------------------------------------------===//
#include "frontend/Parser.h"
#include "frontend/ParserImpl.h"

#include <algorithm>

namespace kiln::detail {

using namespace ast;

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool Parser::parseBlock(Block &out) {
  if (!cur().is(TokenKind::Newline))
    return parseSimpleStatements(out);
  next();
  if (!cur().is(TokenKind::Indent)) {
    failAtCur("expected an indented block");
    return false;
  }
  DepthGuard guard(*this);
  if (!guard.ok)
    return false;
  next();
  while (!cur().is(TokenKind::Dedent) && !cur().is(TokenKind::EndOfFile))
    if (!parseStatement(out))
      return false;
  next(); // Dedent
  return true;
}

/// Whether the logical line starting at token `i` ends with `:` and so
/// opens a block: how `match x:` (a soft keyword) differs from `match(x)`.
bool Parser::startsBlock(size_t i) const {
  while (i + 1 < toks.size() && !toks[i + 1].is(TokenKind::Newline) &&
         !toks[i + 1].is(TokenKind::EndOfFile))
    ++i;
  return toks[i].isOp(":");
}

bool Parser::parseStatement(Block &out) {
  const Token &t = cur();
  if (t.is(TokenKind::Indent)) {
    fail(t.range, "unexpected indent");
    return false;
  }
  if (t.isOp("@") || t.isName("def") || t.isName("class")) {
    StmtPtr s;
    if (t.isOp("@"))
      s = parseDecorated();
    else if (t.isName("def"))
      s = parseFunctionDef({}, t.range.begin);
    else
      s = parseClassDef({}, t.range.begin);
    if (!s)
      return false;
    out.push_back(std::move(s));
    return true;
  }
  StmtPtr s;
  if (t.isName("if"))
    s = parseIf();
  else if (t.isName("while"))
    s = parseWhile();
  else if (t.isName("for"))
    s = parseFor();
  else if (t.isName("try"))
    return fail(t.range, "try/except is not supported"), false;
  else if (t.isName("with"))
    return fail(t.range, "with is not supported"), false;
  else if (t.isName("async"))
    return fail(t.range, "async is not supported"), false;
  else if ((t.isName("match") || t.isName("case")) && startsBlock(pos))
    return fail(t.range, t.text + " is not supported"), false;
  else if (t.isName("else") || t.isName("elif") || t.isName("except") ||
           t.isName("finally"))
    return fail(t.range, "invalid syntax"), false;
  else
    return parseSimpleStatements(out);
  if (!s)
    return false;
  out.push_back(std::move(s));
  return true;
}

bool Parser::parseSimpleStatements(Block &out) {
  while (true) {
    StmtPtr s = parseSmallStatement();
    if (!s)
      return false;
    out.push_back(std::move(s));
    if (!acceptOp(";"))
      break;
    if (cur().is(TokenKind::Newline) || cur().is(TokenKind::EndOfFile))
      break;
  }
  if (cur().is(TokenKind::Newline)) {
    next();
    return true;
  }
  if (cur().is(TokenKind::EndOfFile))
    return true;
  failAtCur("invalid syntax");
  return false;
}

StmtPtr Parser::parseSmallStatement() {
  const Token &t = cur();
  SourceRange r = t.range;
  if (t.is(TokenKind::Name)) {
    const std::string &kw = t.text;
    if (kw == "pass") {
      next();
      return std::make_unique<PassStmt>(r);
    }
    if (kw == "break") {
      next();
      return std::make_unique<BreakStmt>(r);
    }
    if (kw == "continue") {
      next();
      return std::make_unique<ContinueStmt>(r);
    }
    if (kw == "return") {
      next();
      ExprPtr value;
      if (canStartExpr(cur())) {
        value = parseTestList("starred expression is not supported");
        if (!value)
          return nullptr;
      }
      return std::make_unique<ReturnStmt>(from(r.begin), std::move(value));
    }
    if (kw == "assert") {
      next();
      ExprPtr test = parseTest();
      if (!test)
        return nullptr;
      ExprPtr msg;
      if (acceptOp(",")) {
        msg = parseTest();
        if (!msg)
          return nullptr;
      }
      return std::make_unique<AssertStmt>(from(r.begin), std::move(test),
                                          std::move(msg));
    }
    if (kw == "import")
      return parseImport();
    if (kw == "from")
      return parseFromImport();
    if (kw == "global")
      return fail(r, "global is not supported");
    if (kw == "nonlocal")
      return fail(r, "nonlocal is not supported");
    if (kw == "del")
      return fail(r, "del is not supported");
    if (kw == "raise") {
      next();
      ExprPtr exc, cause;
      if (canStartExpr(cur())) {
        exc = parseTest();
        if (!exc)
          return nullptr;
        if (cur().isName("from")) {
          next();
          cause = parseTest();
          if (!cause)
            return nullptr;
        }
      }
      return std::make_unique<RaiseStmt>(from(r.begin), std::move(exc),
                                         std::move(cause));
    }
    if (kw == "yield")
      return fail(r, "yield is not supported");
    if (kw == "def" || kw == "class" || kw == "if" || kw == "while" ||
        kw == "for" || kw == "try" || kw == "with" || kw == "else" ||
        kw == "elif" || kw == "except" || kw == "finally" || kw == "async")
      return fail(r, "invalid syntax");
  }
  return parseExprOrAssign();
}

static std::optional<BinOpKind> augAssignOp(const Token &t) {
  if (!t.is(TokenKind::Op) || t.text.size() < 2 || t.text.back() != '=')
    return std::nullopt;
  static const std::pair<const char *, BinOpKind> ops[] = {
      {"+=", BinOpKind::Add},       {"-=", BinOpKind::Sub},
      {"*=", BinOpKind::Mul},       {"/=", BinOpKind::Div},
      {"//=", BinOpKind::FloorDiv}, {"%=", BinOpKind::Mod},
      {"**=", BinOpKind::Pow},      {"@=", BinOpKind::MatMul},
      {"&=", BinOpKind::BitAnd},    {"|=", BinOpKind::BitOr},
      {"^=", BinOpKind::BitXor},    {"<<=", BinOpKind::LShift},
      {">>=", BinOpKind::RShift}};
  for (const auto &[text, kind] : ops)
    if (t.text == text)
      return kind;
  return std::nullopt;
}

static bool isSingleTarget(const Expr &e) {
  return llvm::isa<NameExpr, AttributeExpr, SubscriptExpr>(e);
}

StmtPtr Parser::parseExprOrAssign() {
  const char *starMsg = "starred assignment is not supported";
  ExprPtr first = parseTestList(starMsg);
  if (!first)
    return nullptr;
  SourceLoc begin = first->range.begin;

  if (atOp(":")) {
    if (llvm::isa<TupleExpr>(*first))
      return fail(first->range,
                  "only single target (not tuple) can be annotated");
    if (!isSingleTarget(*first)) {
      checkTarget(*first);
      return fail(first->range, "illegal target for annotation");
    }
    next();
    ExprPtr annotation = parseTest();
    if (!annotation)
      return nullptr;
    ExprPtr value;
    if (acceptOp("=")) {
      value = parseTestList(starMsg);
      if (!value)
        return nullptr;
    }
    return std::make_unique<AnnAssignStmt>(
        from(begin), std::move(first), std::move(annotation), std::move(value));
  }

  if (std::optional<BinOpKind> op = augAssignOp(cur())) {
    if (!isSingleTarget(*first))
      return fail(first->range, "illegal expression for augmented assignment");
    SourceRange opRange = cur().range;
    next();
    ExprPtr value = parseTestList(starMsg);
    if (!value)
      return nullptr;
    return std::make_unique<AugAssignStmt>(from(begin), std::move(first), *op,
                                           std::move(value), opRange);
  }

  if (!atOp("="))
    return std::make_unique<ExprStmt>(from(begin), std::move(first));

  std::vector<ExprPtr> exprs;
  exprs.push_back(std::move(first));
  while (acceptOp("=")) {
    ExprPtr e = parseTestList(starMsg);
    if (!e)
      return nullptr;
    exprs.push_back(std::move(e));
  }
  ExprPtr value = std::move(exprs.back());
  exprs.pop_back();
  for (const ExprPtr &target : exprs)
    if (!checkTarget(*target))
      return nullptr;
  return std::make_unique<AssignStmt>(from(begin), std::move(exprs),
                                      std::move(value));
}

/// `a.b.c`; empty (with an error recorded) if there is no name.
static std::string parseDottedName(Parser &p) {
  std::string name;
  while (true) {
    if (!p.cur().is(TokenKind::Name) || p.cur().isKeyword()) {
      p.failAtCur("expected a module name");
      return {};
    }
    name += p.cur().text;
    p.next();
    if (!p.atOp("."))
      return name;
    name += '.';
    p.next();
  }
}

/// `as NAME` if present; false on error.
static bool parseAsName(Parser &p, std::string &asname) {
  if (!p.atKw("as"))
    return true;
  p.next();
  if (!p.cur().is(TokenKind::Name) || p.cur().isKeyword()) {
    p.failAtCur("expected a name after 'as'");
    return false;
  }
  asname = p.cur().text;
  p.next();
  return true;
}

StmtPtr Parser::parseImport() {
  SourceLoc begin = cur().range.begin;
  next(); // import
  auto stmt = std::make_unique<ImportStmt>(SourceRange());
  do {
    ImportAlias alias;
    SourceLoc aliasBegin = cur().range.begin;
    alias.name = parseDottedName(*this);
    if (failed() || !parseAsName(*this, alias.asname))
      return nullptr;
    alias.range = from(aliasBegin);
    stmt->names.push_back(std::move(alias));
  } while (acceptOp(","));
  stmt->range = from(begin);
  return stmt;
}

StmtPtr Parser::parseFromImport() {
  SourceLoc begin = cur().range.begin;
  next(); // from
  auto stmt = std::make_unique<ImportStmt>(SourceRange());
  // Relative imports: the dots belong to the module name.
  while (atOp(".") || atOp("...")) {
    stmt->module += cur().text;
    next();
  }
  if (!atKw("import")) {
    stmt->module += parseDottedName(*this);
    if (failed())
      return nullptr;
  }
  if (!atKw("import"))
    return failAtCur("expected 'import'");
  next();
  if (atOp("*"))
    return fail(cur().range, "import * is not supported");
  bool paren = acceptOp("(");
  do {
    if (paren && atOp(")"))
      break;
    if (!cur().is(TokenKind::Name) || cur().isKeyword())
      return failAtCur("expected a name to import");
    ImportAlias alias;
    SourceLoc aliasBegin = cur().range.begin;
    alias.name = cur().text;
    next();
    if (!parseAsName(*this, alias.asname))
      return nullptr;
    alias.range = from(aliasBegin);
    stmt->names.push_back(std::move(alias));
  } while (acceptOp(","));
  if (paren && !expectOp(")"))
    return nullptr;
  stmt->range = from(begin);
  return stmt;
}

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

size_t Parser::skipStatement(size_t i) const {
  int blockDepth = 0;
  size_t last = toks.size() - 1; // EndOfFile
  while (i < last) {
    const Token &t = toks[i++];
    if (t.is(TokenKind::Indent)) {
      ++blockDepth;
    } else if (t.is(TokenKind::Dedent)) {
      if (--blockDepth <= 0)
        return i;
    } else if (t.is(TokenKind::Newline) && blockDepth == 0 &&
               !toks[i].is(TokenKind::Indent)) {
      return i;
    }
  }
  return last;
}

namespace {
/// What a failed top-level item was, read from its raw tokens so that it
/// works however early parsing stopped.
struct ItemInfo {
  SkippedItem::Kind kind = SkippedItem::Kind::Other;
  std::string name;
  bool isScript = false;
};
} // namespace

/// Whether a decorator that failed to parse was meant to be script, so that
/// its error is reported rather than the function silently left out: a
/// spelling of script with at most a slip (`@torch.jit.script:`).
static bool looksLikeScript(std::string_view text) {
  auto near = [&](std::string_view spelling, size_t slack) {
    return text.substr(0, spelling.size()) == spelling ||
           editDistance(text, spelling) <= slack;
  };
  return near("torch.jit.script", 2) || near("jit.script", 1) ||
         text == "script";
}

/// kiln's parser errors are of two kinds: valid Python that kiln does not
/// support ("with is not supported", its own depth limit), and syntax Python
/// rejects too.
bool isSyntaxError(std::string_view message) {
  return message.find("not supported") == std::string_view::npos &&
         message != "expression is nested too deeply" &&
         message != "integer literal is too large";
}

static ItemInfo describeItem(const std::vector<Token> &toks, size_t i) {
  ItemInfo info;
  size_t last = toks.size() - 1;
  while (i < last && toks[i].isOp("@")) {
    std::string text;
    for (++i; i < last && !toks[i].is(TokenKind::Newline); ++i)
      text += toks[i].text;
    if (looksLikeScript(text))
      info.isScript = true;
    if (i < last)
      ++i; // Newline
  }
  if (i < last && toks[i].isName("async"))
    ++i;
  if (i < last && (toks[i].isName("def") || toks[i].isName("class"))) {
    info.kind = toks[i].isName("def") ? SkippedItem::Kind::Function
                                      : SkippedItem::Kind::Class;
    if (toks[i + 1].is(TokenKind::Name))
      info.name = toks[i + 1].text;
  }
  return info;
}

void Parser::checkSkipped(size_t start) {
  // Other top-level code is not compiled, but it is parsed all the same:
  // if it is not Python, Python refuses the file. What kiln does not support
  // there does not matter. A clause that continues a statement (`except`
  // after an unsupported `try`) was skipped with it.
  const Token &t = toks[start];
  if (t.isName("else") || t.isName("elif") || t.isName("except") ||
      t.isName("finally"))
    return;
  err.reset();
  depth = funcDepth = classDepth = 0;
  Block ignored;
  if (!parseStatement(ignored) && !syntaxError && isSyntaxError(err->message))
    syntaxError = err;
  err.reset();
  pos = start;
}

Module Parser::parseModule() {
  Module m;
  size_t last = toks.size() - 1;
  while (pos < last) {
    const Token &t = cur();
    if (t.is(TokenKind::Newline) || t.is(TokenKind::Dedent)) {
      next();
      continue;
    }
    bool isItem = t.isOp("@") || t.isName("def") || t.isName("class") ||
                  (t.isName("async") && ahead(1).isName("def"));
    bool isImport = t.isName("import") || t.isName("from");
    size_t start = pos;
    if (!isItem && !isImport) {
      checkSkipped(start);
      pos = skipStatement(start);
      continue;
    }
    err.reset();
    depth = funcDepth = classDepth = 0;
    Block parsed;
    bool ok = isItem ? parseStatement(parsed) : parseSimpleStatements(parsed);
    if (ok) {
      for (StmtPtr &s : parsed)
        if (!isImport || llvm::isa<ImportStmt>(*s))
          m.items.push_back(std::move(s));
      continue;
    }
    // Resynchronize: skip the decorator lines, then the statement itself.
    size_t end = start;
    while (end < last && toks[end].isOp("@"))
      end = skipStatement(end);
    end = skipStatement(end);
    if (end <= start)
      end = start + 1;
    ItemInfo info = describeItem(toks, start);
    SkippedItem item;
    item.kind = info.kind;
    item.name = info.name;
    item.isScript = info.isScript;
    size_t lastTok = end - 1;
    while (lastTok > start && (toks[lastTok].is(TokenKind::Newline) ||
                               toks[lastTok].is(TokenKind::Dedent)))
      --lastTok;
    item.range = SourceRange::cover(toks[start].range, toks[lastTok].range);
    // A genuine syntax error, unlike valid Python outside the subset, means
    // Python refuses the whole file.
    if (!syntaxError && isSyntaxError(err->message))
      syntaxError = err;
    item.error = std::move(*err);
    err.reset();
    m.skipped.push_back(std::move(item));
    pos = end;
  }
  if (std::optional<Diagnostic> error = fileError(m, toks, syntaxError))
    rejectFile(m, *error);
  return m;
}

} // namespace kiln::detail

namespace kiln {

ast::Module parseModule(const SourceFile &file) {
  detail::Parser p(file);
  return p.parseModule();
}

ParseResult<ast::ExprPtr> parseExpression(const SourceFile &file) {
  detail::Parser p(file);
  ParseResult<ast::ExprPtr> result;
  while (p.cur().is(TokenKind::Indent))
    p.next();
  ast::ExprPtr e = p.parseTestList("starred expression is not supported");
  if (e) {
    while (p.cur().is(TokenKind::Newline) || p.cur().is(TokenKind::Dedent))
      p.next();
    if (!p.cur().is(TokenKind::EndOfFile))
      p.failAtCur("invalid syntax");
  }
  if (p.failed())
    result.error = std::move(p.err);
  else
    result.value = std::move(e);
  return result;
}

ParseResult<ast::Block> parseStatements(const SourceFile &file) {
  detail::Parser p(file);
  ParseResult<ast::Block> result;
  while (!p.cur().is(TokenKind::EndOfFile)) {
    if (p.cur().is(TokenKind::Newline) || p.cur().is(TokenKind::Dedent)) {
      p.next();
      continue;
    }
    if (!p.parseStatement(result.value))
      break;
  }
  if (p.failed()) {
    result.error = std::move(p.err);
    result.value.clear();
  }
  return result;
}

std::optional<Diagnostic> firstParseError(const SourceFile &file) {
  return parseStatements(file).error;
}

} // namespace kiln
