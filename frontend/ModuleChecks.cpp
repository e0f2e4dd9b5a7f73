//===- ModuleChecks.cpp - Errors that make a whole file invalid -----------===//
//
// The module parser skips what it does not need, but some errors are not
// confined to one statement: Python refuses to run the whole file. kiln must
// not compile part of such a file as if nothing were wrong.
//
// - Text CPython's tokenizer rejects (a fatal lexer token), wherever it is.
// - A decorator that cannot exist when the file is imported: its first name
//   is bound nowhere in the file (`@tor3h.jit.script`, a NameError), or it is
//   a near miss of a torch.jit decorator (`@torch.jit.scrip`, an
//   AttributeError). Either would otherwise drop a script function silently.
//
//===----------------------------------------------------------------------===//
#include "frontend/ParserImpl.h"

#include <algorithm>
#include <map>
#include <set>

namespace kiln::detail {

using namespace ast;

namespace {

/// Python's builtins that are plain names (`property`, `staticmethod`...).
bool isBuiltinName(std::string_view name) {
  static const std::set<std::string_view> builtins = {
      "abs",        "aiter",     "all",          "anext",       "any",
      "ascii",      "bin",       "bool",         "breakpoint",  "bytearray",
      "bytes",      "callable",  "chr",          "classmethod", "compile",
      "complex",    "copyright", "credits",      "delattr",     "dict",
      "dir",        "divmod",    "enumerate",    "eval",        "exec",
      "exit",       "filter",    "float",        "format",      "frozenset",
      "getattr",    "globals",   "hasattr",      "hash",        "help",
      "hex",        "id",        "input",        "int",         "isinstance",
      "issubclass", "iter",      "len",          "license",     "list",
      "locals",     "map",       "max",          "memoryview",  "min",
      "next",       "object",    "oct",          "open",        "ord",
      "pow",        "print",     "property",     "quit",        "range",
      "repr",       "reversed",  "round",        "set",         "setattr",
      "slice",      "sorted",    "staticmethod", "str",         "sum",
      "super",      "tuple",     "type",         "vars",        "zip"};
  return builtins.count(name) != 0;
}

/// The torch.jit decorators kiln gives a meaning to.
const char *const kJitDecorators[] = {"torch.jit.script", "torch.jit.export",
                                      "torch.jit.ignore", "torch.jit.unused"};

/// The name a decorator starts with (`torch` in `@torch.jit.script()`).
const NameExpr *rootName(const Expr &e) {
  if (auto *n = llvm::dyn_cast<NameExpr>(&e))
    return n;
  if (auto *a = llvm::dyn_cast<AttributeExpr>(&e))
    return rootName(*a->value);
  if (auto *c = llvm::dyn_cast<CallExpr>(&e))
    return rootName(*c->func);
  if (auto *s = llvm::dyn_cast<SubscriptExpr>(&e))
    return rootName(*s->value);
  return nullptr;
}

/// `a.b.c` of a decorator, without its call; empty if it is not dotted.
std::string dottedPath(const Expr &e) {
  if (auto *n = llvm::dyn_cast<NameExpr>(&e))
    return n->id;
  if (auto *a = llvm::dyn_cast<AttributeExpr>(&e)) {
    std::string base = dottedPath(*a->value);
    return base.empty() ? base : base + "." + a->attr;
  }
  if (auto *c = llvm::dyn_cast<CallExpr>(&e))
    return dottedPath(*c->func);
  return {};
}

class DecoratorChecker {
public:
  DecoratorChecker(const Module &m, const std::vector<Token> &toks);
  std::optional<Diagnostic> check(const Module &m);

private:
  std::optional<Diagnostic> checkOne(const Expr &d,
                                     const std::set<std::string> &local);
  /// Module names bound by imports, to the dotted path they stand for.
  std::map<std::string, std::string> imports;
  /// Names bound by a def or class, and every name used outside a
  /// decorator: kiln skips top-level statements unparsed, so any of those
  /// may bind it.
  std::set<std::string> bound;
  bool starImport = false;
};

DecoratorChecker::DecoratorChecker(const Module &m,
                                   const std::vector<Token> &toks) {
  for (const StmtPtr &s : m.items) {
    if (auto *imp = llvm::dyn_cast<ImportStmt>(s.get())) {
      for (const ImportAlias &a : imp->names) {
        if (!imp->module.empty()) {
          std::string name = a.asname.empty() ? a.name : a.asname;
          imports[name] = imp->module + "." + a.name;
        } else if (!a.asname.empty()) {
          imports[a.asname] = a.name;
        } else {
          std::string head = a.name.substr(0, a.name.find('.'));
          imports[head] = head;
        }
      }
    } else if (auto *f = llvm::dyn_cast<FunctionDef>(s.get())) {
      bound.insert(f->name);
    } else if (auto *c = llvm::dyn_cast<ClassDef>(s.get())) {
      bound.insert(c->name);
    }
  }
  for (const SkippedItem &item : m.skipped)
    bound.insert(item.name);
  // A name is bound somewhere if it occurs anywhere but right after `@`.
  for (size_t i = 0; i < toks.size(); ++i) {
    if (toks[i].isName("import") && i + 1 < toks.size() &&
        toks[i + 1].isOp("*"))
      starImport = true;
    if (toks[i].is(TokenKind::Name) && !(i > 0 && toks[i - 1].isOp("@")))
      bound.insert(toks[i].text);
  }
}

std::optional<Diagnostic>
DecoratorChecker::checkOne(const Expr &d, const std::set<std::string> &local) {
  const NameExpr *root = rootName(d);
  if (!root)
    return std::nullopt;
  if (!starImport && !imports.count(root->id) && !bound.count(root->id) &&
      !local.count(root->id) && !isBuiltinName(root->id))
    return Diagnostic{
        root->range, "name '" + root->id + "' is not defined", {}};
  std::string path = dottedPath(d);
  if (path.empty())
    return std::nullopt;
  if (auto it = imports.find(root->id); it != imports.end())
    path = it->second + path.substr(root->id.size());
  for (const char *known : kJitDecorators)
    if (path == known)
      return std::nullopt;
  for (const char *known : kJitDecorators)
    if (editDistance(path, known) <= 2)
      return Diagnostic{d.range,
                        "unknown decorator '@" + path + "'; did you mean '@" +
                            known + "'?",
                        {}};
  return std::nullopt;
}

std::optional<Diagnostic> DecoratorChecker::check(const Module &m) {
  for (const StmtPtr &s : m.items) {
    if (auto *f = llvm::dyn_cast<FunctionDef>(s.get())) {
      for (const ExprPtr &d : f->decorators)
        if (auto err = checkOne(*d, {}))
          return err;
      continue;
    }
    auto *c = llvm::dyn_cast<ClassDef>(s.get());
    if (!c)
      continue;
    for (const ExprPtr &d : c->decorators)
      if (auto err = checkOne(*d, {}))
        return err;
    // Method decorators may name the class body's own methods
    // (`@value.setter`).
    std::set<std::string> local;
    for (const StmtPtr &member : c->body)
      if (auto *method = llvm::dyn_cast<FunctionDef>(member.get()))
        local.insert(method->name);
    for (const StmtPtr &member : c->body)
      if (auto *method = llvm::dyn_cast<FunctionDef>(member.get()))
        for (const ExprPtr &d : method->decorators)
          if (auto err = checkOne(*d, local))
            return err;
  }
  return std::nullopt;
}

bool before(SourceLoc a, SourceLoc b) {
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/// Whether the logical line holding token `i` starts with a keyword that
/// opens a block.
bool opensBlock(const std::vector<Token> &toks, size_t i) {
  while (i > 0 && !toks[i - 1].is(TokenKind::Newline) &&
         !toks[i - 1].is(TokenKind::Indent) &&
         !toks[i - 1].is(TokenKind::Dedent))
    --i;
  static const char *const keywords[] = {
      "if",     "elif",    "else", "for",   "while", "with",  "try",
      "except", "finally", "def",  "class", "async", "match", "case"};
  for (const char *kw : keywords)
    if (toks[i].isName(kw))
      return true;
  return false;
}

/// Block structure checked on the tokens, so that it holds in the top-level
/// code the parser skips too: an indented line must follow a line that
/// opens a block with a keyword and ends with `:`, and such a line must be
/// followed by one.
std::optional<Diagnostic> layoutError(const std::vector<Token> &toks) {
  for (size_t i = 1; i < toks.size(); ++i) {
    bool afterHeader =
        toks[i - 1].is(TokenKind::Newline) && i >= 2 && toks[i - 2].isOp(":");
    if (toks[i].is(TokenKind::Indent) && !afterHeader)
      return Diagnostic{toks[i].range, "unexpected indent", {}};
    if (toks[i].is(TokenKind::Indent) && !opensBlock(toks, i - 2))
      return Diagnostic{toks[i - 2].range, "invalid syntax", {}};
    if (afterHeader && !toks[i].is(TokenKind::Indent))
      return Diagnostic{toks[i].range, "expected an indented block", {}};
  }
  return std::nullopt;
}

} // namespace

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min(
          {row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::optional<Diagnostic>
fileError(const Module &m, const std::vector<Token> &toks,
          const std::optional<Diagnostic> &syntaxError) {
  // The earliest error wins; on a tie, the lexer's, which explains the rest.
  std::optional<Diagnostic> first;
  auto consider = [&](const std::optional<Diagnostic> &d) {
    if (d && (!first || before(d->range.begin, first->range.begin)))
      first = d;
  };
  for (const Token &t : toks)
    if (t.is(TokenKind::Error) && t.fatal) {
      first = Diagnostic{t.range, t.text, {}};
      break;
    }
  consider(layoutError(toks));
  consider(syntaxError);
  if (first)
    return first;
  return DecoratorChecker(m, toks).check(m);
}

void rejectFile(Module &m, const Diagnostic &error) {
  // Every def and class becomes a skipped item carrying the file's error, so
  // that an --entry naming one, or a call reaching one, reports it.
  Block kept;
  for (StmtPtr &s : m.items) {
    SkippedItem item;
    if (auto *f = llvm::dyn_cast<FunctionDef>(s.get())) {
      item.kind = SkippedItem::Kind::Function;
      item.name = f->name;
    } else if (auto *c = llvm::dyn_cast<ClassDef>(s.get())) {
      item.kind = SkippedItem::Kind::Class;
      item.name = c->name;
    } else {
      kept.push_back(std::move(s));
      continue;
    }
    item.range = s->range;
    item.error = error;
    m.skipped.push_back(std::move(item));
  }
  m.items = std::move(kept);
  // One item stands for the file and is reported even with no entry point;
  // as in CPython, only the first error is, the others often follow from it.
  for (SkippedItem &item : m.skipped)
    item.isScript = false;
  SkippedItem file;
  file.range = error.range;
  file.error = error;
  file.isScript = true;
  m.skipped.push_back(std::move(file));
}

} // namespace kiln::detail
