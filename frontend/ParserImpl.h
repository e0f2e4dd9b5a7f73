//===- ParserImpl.h - The parser's private state --------------------------===//
//
// Shared by ParseExpr.cpp and Parser.cpp; not part of the public interface.
//
// Errors are sticky: the first one is kept in `err` and every parse function
// returns null/false from then on, so callers only have to propagate.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_PARSERIMPL_H
#define KILN_FRONTEND_PARSERIMPL_H

#include "frontend/AST.h"
#include "frontend/Lexer.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::detail {

/// The parser's own recursion (blocks, `not`, unary operators, `**`, and
/// each bracket, which the lexer already limits to CPython's 200) stops here
/// rather than risk the stack.
constexpr int kMaxNestingDepth = 1000;

/// The tallest expression tree the parser builds: a chain of 1,000 `+` is
/// 1,000 high. Every walk of the tree after us (the lowering, the AST
/// printer, the destructor) recurses once per level, so this bound keeps
/// them all on the stack. CPython's compiler gives up near 3,000.
constexpr uint32_t kMaxExprHeight = 1000;

class Parser {
public:
  explicit Parser(const SourceFile &file);

  const SourceFile &file;
  std::vector<Token> toks;
  std::vector<ast::SpecComment> specs;
  size_t pos = 0;
  std::optional<Diagnostic> err;
  /// The first syntax error (not an unsupported construct) in a top-level
  /// def or class: Python would refuse the whole file.
  std::optional<Diagnostic> syntaxError;
  int depth = 0;
  int funcDepth = 0;
  int classDepth = 0;

  //===--- Token access ---------------------------------------------------===//
  const Token &cur() const { return toks[pos]; }
  const Token &ahead(size_t n) const {
    return toks[std::min(pos + n, toks.size() - 1)];
  }
  void next() {
    if (pos + 1 < toks.size())
      ++pos;
  }
  /// End of the last consumed token.
  SourceLoc prevEnd() const {
    return pos ? toks[pos - 1].range.end : SourceLoc();
  }
  SourceRange from(SourceLoc begin) const { return {begin, prevEnd()}; }
  bool atOp(const char *op) const { return cur().isOp(op); }
  bool atKw(const char *kw) const { return cur().isName(kw); }
  bool acceptOp(const char *op) {
    if (!atOp(op))
      return false;
    next();
    return true;
  }

  //===--- Errors ---------------------------------------------------------===//
  bool failed() const { return err.has_value(); }
  std::nullptr_t fail(SourceRange range, std::string msg) {
    if (!err)
      err = Diagnostic{range, std::move(msg), {}};
    return nullptr;
  }
  /// Blames the current token; a lexer Error token speaks for itself.
  std::nullptr_t failAtCur(std::string msg) {
    if (cur().is(TokenKind::Error))
      return fail(cur().range, cur().text);
    return fail(cur().range, std::move(msg));
  }
  bool expectOp(const char *op) {
    if (acceptOp(op))
      return true;
    failAtCur(std::string("expected '") + op + "'");
    return false;
  }

  /// RAII nesting counter.
  struct DepthGuard {
    Parser &p;
    bool ok;
    explicit DepthGuard(Parser &p) : p(p), ok(++p.depth <= kMaxNestingDepth) {
      if (!ok)
        p.failAtCur("expression is nested too deeply");
    }
    ~DepthGuard() { --p.depth; }
  };

  //===--- Expressions (ParseExpr.cpp) ------------------------------------===//
  /// Sets the height of a new node from its children's and refuses a tree
  /// taller than kMaxExprHeight.
  ast::ExprPtr bounded(ast::ExprPtr e);
  template <typename T, typename... Args> ast::ExprPtr make(Args &&...args) {
    return bounded(std::make_unique<T>(std::forward<Args>(args)...));
  }
  bool canStartExpr(const Token &t) const;
  ast::ExprPtr parseNamedTest();
  ast::ExprPtr parseTest();
  /// `a or b or c` / `a and b`, nesting to the left.
  ast::ExprPtr parseBoolChain(const char *keyword, ast::BoolOpKind kind,
                              ast::ExprPtr (Parser::*operand)());
  ast::ExprPtr parseOrTest();
  ast::ExprPtr parseAndTest();
  ast::ExprPtr parseNotTest();
  ast::ExprPtr parseComparison();
  ast::ExprPtr parseBitOr();
  ast::ExprPtr parseBitXor();
  ast::ExprPtr parseBitAnd();
  ast::ExprPtr parseShift();
  ast::ExprPtr parseArith();
  ast::ExprPtr parseTerm();
  ast::ExprPtr parseFactor();
  ast::ExprPtr parsePower();
  ast::ExprPtr parsePrimary();
  ast::ExprPtr parseAtom();
  ast::ExprPtr parseParenOrTuple();
  /// `, e2, e3 <closer>` after a display's first element; a trailing comma
  /// is allowed. Consumes the closer.
  bool parseMoreElements(const char *closer, std::vector<ast::ExprPtr> &elts);
  ast::ExprPtr parseListDisplay();
  /// `for target in iter if cond...` after `elt`, at `for`.
  ast::ExprPtr parseComprehension(SourceLoc begin, ast::ExprPtr elt);
  ast::ExprPtr parseBraceDisplay();
  ast::ExprPtr parseStrings();
  /// Appends the parts of the f-string token `t` (ParseFString.cpp).
  bool parseFStringToken(const Token &t,
                         std::vector<ast::FStringExpr::Part> &parts);
  ast::ExprPtr parseCall(ast::ExprPtr func);
  ast::ExprPtr parseSubscript(ast::ExprPtr value);
  ast::ExprPtr parseSubscriptIndex();
  /// `test (',' test)* [',']`: one expression or a TupleExpr. A `*` element
  /// is refused with `starMessage`.
  ast::ExprPtr parseTestList(const char *starMessage);
  /// The target list of `for` and comprehensions (stops before `in`).
  ast::ExprPtr parseExprList();
  /// Checks an assignment target; on failure records "cannot assign to ...".
  bool checkTarget(const ast::Expr &e);

  //===--- Statements (Parser.cpp) ----------------------------------------===//
  bool startsBlock(size_t i) const;
  bool parseStatement(ast::Block &out);
  bool parseSimpleStatements(ast::Block &out);
  ast::StmtPtr parseSmallStatement();
  ast::StmtPtr parseExprOrAssign();
  ast::StmtPtr parseImport();
  ast::StmtPtr parseFromImport();
  bool parseBlock(ast::Block &out);
  ast::StmtPtr parseIf();
  ast::StmtPtr parseWhile();
  ast::StmtPtr parseFor();
  ast::StmtPtr parseDecorated();
  ast::StmtPtr parseFunctionDef(std::vector<ast::ExprPtr> decorators,
                                SourceLoc begin);
  ast::StmtPtr parseClassDef(std::vector<ast::ExprPtr> decorators,
                             SourceLoc begin);
  std::vector<ast::SpecComment> specsAbove(uint32_t firstLine,
                                           uint32_t lastLine) const;

  //===--- Module level (Parser.cpp) --------------------------------------===//
  /// Index just past the top-level statement starting at `i`, including its
  /// indented block.
  size_t skipStatement(size_t i) const;
  /// Parses the skipped statement at `start` for its syntax errors only.
  void checkSkipped(size_t start);
  ast::Module parseModule();
};

//===--- Whole-file errors (ModuleChecks.cpp) -----------------------------===//
/// The first error that makes Python refuse the whole file, if any: a fatal
/// lexer token, a block layout error or `syntaxError` anywhere, or else a
/// decorator that cannot exist at import time.
std::optional<Diagnostic>
fileError(const ast::Module &m, const std::vector<Token> &toks,
          const std::optional<Diagnostic> &syntaxError);
/// Turns every def and class of `m` into a skipped item carrying `error`,
/// and adds one item for the file that is reported with no --entry.
void rejectFile(ast::Module &m, const Diagnostic &error);
/// Levenshtein distance, to recognize a misspelled decorator.
size_t editDistance(std::string_view a, std::string_view b);

//===--- Error kinds (Parser.cpp) -----------------------------------------===//
/// Whether a parser error is syntax Python rejects too, rather than valid
/// Python that kiln does not support.
bool isSyntaxError(std::string_view message);

} // namespace kiln::detail

#endif // KILN_FRONTEND_PARSERIMPL_H
