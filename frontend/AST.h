//===- AST.h - The syntax tree of kiln's Python subset --------------------===//
//
// The parser produces this tree; the lowering walks it to build kiln IR. Every
// node carries the source range it was parsed from so that any later error
// can point back at the user's text. Nodes are plain structs owned through
// unique_ptr; `kind` plus LLVM-style classof lets callers use isa/dyn_cast.
//
// The tree mirrors Python's own `ast` module where it can, so that people who
// know Python read it without a manual.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_AST_H
#define KILN_FRONTEND_AST_H

#include "frontend/Diagnostics.h"

#include "llvm/Support/Casting.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::ast {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

struct Expr {
  enum class Kind {
    Name,
    IntLit,
    FloatLit,
    BoolLit,
    NoneLit,
    StrLit,
    EllipsisLit,
    Tuple,
    List,
    ListComp,
    Dict,
    BinOp,
    UnaryOp,
    BoolOp,
    Compare,
    IfExp,
    Call,
    Attribute,
    Subscript,
    Slice,
    FString,
  };
  const Kind kind;
  /// The number of nodes on the longest path down to a leaf, set by the
  /// parser, which keeps it below a bound so that the recursive walks of the
  /// tree (lowering, printing, destruction) cannot overflow the stack.
  uint32_t height = 1;
  SourceRange range;
  Expr(Kind kind, SourceRange range) : kind(kind), range(range) {}
  virtual ~Expr() = default;
};
using ExprPtr = std::unique_ptr<Expr>;

struct NameExpr : Expr {
  std::string id;
  NameExpr(SourceRange r, std::string id)
      : Expr(Kind::Name, r), id(std::move(id)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::Name; }
};

struct IntLitExpr : Expr {
  int64_t value;
  IntLitExpr(SourceRange r, int64_t v) : Expr(Kind::IntLit, r), value(v) {}
  static bool classof(const Expr *e) { return e->kind == Kind::IntLit; }
};

struct FloatLitExpr : Expr {
  double value;
  FloatLitExpr(SourceRange r, double v) : Expr(Kind::FloatLit, r), value(v) {}
  static bool classof(const Expr *e) { return e->kind == Kind::FloatLit; }
};

struct BoolLitExpr : Expr {
  bool value;
  BoolLitExpr(SourceRange r, bool v) : Expr(Kind::BoolLit, r), value(v) {}
  static bool classof(const Expr *e) { return e->kind == Kind::BoolLit; }
};

struct NoneLitExpr : Expr {
  explicit NoneLitExpr(SourceRange r) : Expr(Kind::NoneLit, r) {}
  static bool classof(const Expr *e) { return e->kind == Kind::NoneLit; }
};

/// A string literal; adjacent literals are already concatenated and escapes
/// decoded.
struct StrLitExpr : Expr {
  std::string value;
  StrLitExpr(SourceRange r, std::string v)
      : Expr(Kind::StrLit, r), value(std::move(v)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::StrLit; }
};

/// An f-string (with any literals next to it): literal text and
/// replacement fields `{expr!conversion:spec}`, in order.
struct FStringExpr : Expr {
  struct Part {
    /// The literal text, escapes decoded, when `expr` is null.
    std::string text;
    ExprPtr expr;
    /// 'r', 's', 'a', or 0 for none.
    char conversion = 0;
    std::string spec;
  };
  std::vector<Part> parts;
  FStringExpr(SourceRange r, std::vector<Part> parts)
      : Expr(Kind::FString, r), parts(std::move(parts)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::FString; }
};

/// `...`, which only makes sense inside a subscript.
struct EllipsisLitExpr : Expr {
  explicit EllipsisLitExpr(SourceRange r) : Expr(Kind::EllipsisLit, r) {}
  static bool classof(const Expr *e) { return e->kind == Kind::EllipsisLit; }
};

struct TupleExpr : Expr {
  std::vector<ExprPtr> elts;
  TupleExpr(SourceRange r, std::vector<ExprPtr> e)
      : Expr(Kind::Tuple, r), elts(std::move(e)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::Tuple; }
};

struct ListExpr : Expr {
  std::vector<ExprPtr> elts;
  ListExpr(SourceRange r, std::vector<ExprPtr> e)
      : Expr(Kind::List, r), elts(std::move(e)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::List; }
};

/// One `for target in iter if c1 if c2` clause of a comprehension.
struct CompFor {
  ExprPtr target;
  ExprPtr iter;
  std::vector<ExprPtr> conds;
};

/// `[elt for a in xs if c1 for b in ys if c2]`: one or more `for` clauses,
/// each nested in the one before, with their filters. A generator
/// expression (`sum(d for d in s)`) is one too: every consumer kiln
/// supports reads it as it would the list.
struct ListCompExpr : Expr {
  ExprPtr elt;
  std::vector<CompFor> fors; // never empty
  ListCompExpr(SourceRange r, ExprPtr elt, std::vector<CompFor> fors)
      : Expr(Kind::ListComp, r), elt(std::move(elt)), fors(std::move(fors)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::ListComp; }
};

/// `{k1: v1, k2: v2}`: a dict display. `keys[i]` maps to `values[i]`.
struct DictExpr : Expr {
  std::vector<ExprPtr> keys;
  std::vector<ExprPtr> values;
  DictExpr(SourceRange r, std::vector<ExprPtr> k, std::vector<ExprPtr> v)
      : Expr(Kind::Dict, r), keys(std::move(k)), values(std::move(v)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::Dict; }
};

enum class BinOpKind {
  Add,
  Sub,
  Mul,
  Div,      // true division `/`
  FloorDiv, // `//`
  Mod,      // `%`, with Python's sign rule
  Pow,      // `**`
  MatMul,   // `@`
  BitAnd,
  BitOr,
  BitXor,
  LShift,
  RShift,
};
/// The operator's spelling, e.g. "+" or "//".
const char *spell(BinOpKind kind);

struct BinOpExpr : Expr {
  BinOpKind op;
  ExprPtr lhs, rhs;
  /// The range of the operator token itself.
  SourceRange opRange;
  BinOpExpr(SourceRange r, BinOpKind op, ExprPtr l, ExprPtr rr, SourceRange o)
      : Expr(Kind::BinOp, r), op(op), lhs(std::move(l)), rhs(std::move(rr)),
        opRange(o) {}
  static bool classof(const Expr *e) { return e->kind == Kind::BinOp; }
};

enum class UnaryOpKind { Neg, Pos, Not, Invert };
const char *spell(UnaryOpKind kind);

struct UnaryOpExpr : Expr {
  UnaryOpKind op;
  ExprPtr operand;
  UnaryOpExpr(SourceRange r, UnaryOpKind op, ExprPtr operand)
      : Expr(Kind::UnaryOp, r), op(op), operand(std::move(operand)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::UnaryOp; }
};

enum class BoolOpKind { And, Or };
const char *spell(BoolOpKind kind);

/// `a and b` / `a or b`; chains nest to the left.
struct BoolOpExpr : Expr {
  BoolOpKind op;
  ExprPtr lhs, rhs;
  BoolOpExpr(SourceRange r, BoolOpKind op, ExprPtr l, ExprPtr rr)
      : Expr(Kind::BoolOp, r), op(op), lhs(std::move(l)), rhs(std::move(rr)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::BoolOp; }
};

enum class CmpOpKind { Lt, Le, Gt, Ge, Eq, Ne, Is, IsNot, In, NotIn };
const char *spell(CmpOpKind kind);

/// `a < b <= c`: operands.size() == ops.size() + 1, as in Python's ast.
struct CompareExpr : Expr {
  std::vector<CmpOpKind> ops;
  std::vector<ExprPtr> operands;
  CompareExpr(SourceRange r, std::vector<CmpOpKind> ops,
              std::vector<ExprPtr> operands)
      : Expr(Kind::Compare, r), ops(std::move(ops)),
        operands(std::move(operands)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::Compare; }
};

/// `body if test else orelse`
struct IfExpExpr : Expr {
  ExprPtr test, body, orelse;
  IfExpExpr(SourceRange r, ExprPtr t, ExprPtr b, ExprPtr o)
      : Expr(Kind::IfExp, r), test(std::move(t)), body(std::move(b)),
        orelse(std::move(o)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::IfExp; }
};

struct Keyword {
  std::string name;
  ExprPtr value;
  SourceRange range; // covers `name=value`
};

struct CallExpr : Expr {
  ExprPtr func;
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
  CallExpr(SourceRange r, ExprPtr f, std::vector<ExprPtr> a,
           std::vector<Keyword> k)
      : Expr(Kind::Call, r), func(std::move(f)), args(std::move(a)),
        keywords(std::move(k)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::Call; }
};

/// `value.attr`
struct AttributeExpr : Expr {
  ExprPtr value;
  std::string attr;
  SourceRange attrRange;
  AttributeExpr(SourceRange r, ExprPtr v, std::string a, SourceRange ar)
      : Expr(Kind::Attribute, r), value(std::move(v)), attr(std::move(a)),
        attrRange(ar) {}
  static bool classof(const Expr *e) { return e->kind == Kind::Attribute; }
};

/// `lower:upper:step`, only inside a subscript; missing parts are null.
struct SliceExpr : Expr {
  ExprPtr lower, upper, step;
  SliceExpr(SourceRange r, ExprPtr l, ExprPtr u, ExprPtr s)
      : Expr(Kind::Slice, r), lower(std::move(l)), upper(std::move(u)),
        step(std::move(s)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::Slice; }
};

/// `value[i, j:k, None, ...]`. Each index is an expression, a SliceExpr, a
/// NoneLitExpr or an EllipsisLitExpr; `x[a, b]` has two indices, never a
/// tuple index.
struct SubscriptExpr : Expr {
  ExprPtr value;
  std::vector<ExprPtr> indices;
  SubscriptExpr(SourceRange r, ExprPtr v, std::vector<ExprPtr> i)
      : Expr(Kind::Subscript, r), value(std::move(v)), indices(std::move(i)) {}
  static bool classof(const Expr *e) { return e->kind == Kind::Subscript; }
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

struct Stmt {
  enum class Kind {
    Expr,
    Assign,
    AnnAssign,
    AugAssign,
    If,
    For,
    While,
    Break,
    Continue,
    Pass,
    Return,
    Assert,
    Raise,
    FunctionDef,
    ClassDef,
    Import,
  };
  const Kind kind;
  SourceRange range;
  Stmt(Kind kind, SourceRange range) : kind(kind), range(range) {}
  virtual ~Stmt() = default;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

struct ExprStmt : Stmt {
  ExprPtr value;
  ExprStmt(SourceRange r, ExprPtr v) : Stmt(Kind::Expr, r), value(std::move(v)) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::Expr; }
};

/// `t1 = t2 = value`. Targets are NameExpr, TupleExpr/ListExpr of targets,
/// SubscriptExpr or AttributeExpr.
struct AssignStmt : Stmt {
  std::vector<ExprPtr> targets;
  ExprPtr value;
  AssignStmt(SourceRange r, std::vector<ExprPtr> t, ExprPtr v)
      : Stmt(Kind::Assign, r), targets(std::move(t)), value(std::move(v)) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::Assign; }
};

/// `target: annotation = value`; value may be null.
struct AnnAssignStmt : Stmt {
  ExprPtr target;
  ExprPtr annotation;
  ExprPtr value;
  AnnAssignStmt(SourceRange r, ExprPtr t, ExprPtr a, ExprPtr v)
      : Stmt(Kind::AnnAssign, r), target(std::move(t)), annotation(std::move(a)),
        value(std::move(v)) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::AnnAssign; }
};

/// `target op= value`
struct AugAssignStmt : Stmt {
  ExprPtr target;
  BinOpKind op;
  ExprPtr value;
  SourceRange opRange;
  AugAssignStmt(SourceRange r, ExprPtr t, BinOpKind op, ExprPtr v,
                SourceRange o)
      : Stmt(Kind::AugAssign, r), target(std::move(t)), op(op),
        value(std::move(v)), opRange(o) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::AugAssign; }
};

/// `if`/`elif`/`else`; an `elif` is an IfStmt alone in `orelse`.
struct IfStmt : Stmt {
  ExprPtr test;
  Block body;
  Block orelse;
  IfStmt(SourceRange r, ExprPtr t, Block b, Block o)
      : Stmt(Kind::If, r), test(std::move(t)), body(std::move(b)),
        orelse(std::move(o)) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::If; }
};

struct ForStmt : Stmt {
  ExprPtr target;
  ExprPtr iter;
  Block body;
  ForStmt(SourceRange r, ExprPtr t, ExprPtr i, Block b)
      : Stmt(Kind::For, r), target(std::move(t)), iter(std::move(i)),
        body(std::move(b)) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::For; }
};

struct WhileStmt : Stmt {
  ExprPtr test;
  Block body;
  WhileStmt(SourceRange r, ExprPtr t, Block b)
      : Stmt(Kind::While, r), test(std::move(t)), body(std::move(b)) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::While; }
};

struct BreakStmt : Stmt {
  explicit BreakStmt(SourceRange r) : Stmt(Kind::Break, r) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::Break; }
};

struct ContinueStmt : Stmt {
  explicit ContinueStmt(SourceRange r) : Stmt(Kind::Continue, r) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::Continue; }
};

struct PassStmt : Stmt {
  explicit PassStmt(SourceRange r) : Stmt(Kind::Pass, r) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::Pass; }
};

/// `return` or `return value`; `return a, b` has a TupleExpr value.
struct ReturnStmt : Stmt {
  ExprPtr value;
  ReturnStmt(SourceRange r, ExprPtr v) : Stmt(Kind::Return, r), value(std::move(v)) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::Return; }
};

struct AssertStmt : Stmt {
  ExprPtr test;
  ExprPtr msg; // may be null
  AssertStmt(SourceRange r, ExprPtr t, ExprPtr m)
      : Stmt(Kind::Assert, r), test(std::move(t)), msg(std::move(m)) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::Assert; }
};

/// `raise`, `raise exc` or `raise exc from cause`. `exc` is an exception
/// class (`ValueError`) or a call of one (`ValueError("msg")`).
struct RaiseStmt : Stmt {
  ExprPtr exc;   // may be null (a bare re-raise)
  ExprPtr cause; // may be null
  RaiseStmt(SourceRange r, ExprPtr e, ExprPtr c)
      : Stmt(Kind::Raise, r), exc(std::move(e)), cause(std::move(c)) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::Raise; }
};

struct Param {
  std::string name;
  ExprPtr annotation; // may be null
  ExprPtr defaultValue; // may be null
  SourceRange range;
};

/// One `# kiln: x=f32[B,784], h=f32[B,20]` comment. PyTorch ignores it; kiln
/// reads argument shapes from it.
struct SpecComment {
  std::string text; // everything after "kiln:", trimmed
  SourceRange range; // the text's range
};

struct FunctionDef : Stmt {
  std::string name;
  SourceRange nameRange;
  std::vector<Param> params;
  ExprPtr returns; // the `->` annotation; may be null
  Block body;
  /// Decorator expressions, e.g. `torch.jit.script`, without the `@`.
  std::vector<ExprPtr> decorators;
  /// `# kiln:` comments on the lines directly above the def (or its
  /// decorators), in source order.
  std::vector<SpecComment> specs;
  /// For a method whose body uses Python outside kiln's subset: the error,
  /// reported only if an entry point reaches the method (the body is
  /// empty). An `extra_repr` no entry point calls leaves its class usable.
  std::optional<Diagnostic> unsupported;
  FunctionDef(SourceRange r) : Stmt(Kind::FunctionDef, r) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::FunctionDef; }
};

struct ClassDef : Stmt {
  std::string name;
  SourceRange nameRange;
  std::vector<ExprPtr> bases;
  /// Methods (FunctionDef), class-level annotations and assignments (e.g.
  /// `__constants__`), docstrings and `pass`.
  Block body;
  std::vector<ExprPtr> decorators;
  ClassDef(SourceRange r) : Stmt(Kind::ClassDef, r) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::ClassDef; }
};

struct ImportAlias {
  std::string name;   // dotted, e.g. "torch.nn.functional"
  std::string asname; // empty if none
  SourceRange range;
};

/// `import a.b as c` (module empty) or `from a.b import c as d`.
struct ImportStmt : Stmt {
  std::string module; // the `from` module; empty for plain `import`
  std::vector<ImportAlias> names;
  ImportStmt(SourceRange r) : Stmt(Kind::Import, r) {}
  static bool classof(const Stmt *s) { return s->kind == Kind::Import; }
};

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

/// A top-level statement the parser could not parse. It is kept, not
/// reported: only what an entry point reaches is compiled, so a training
/// loop or a helper outside the subset must not stop compilation. If the
/// lowering reaches a skipped function or class, it reports `error`.
struct SkippedItem {
  enum class Kind { Function, Class, Other };
  Kind kind = Kind::Other;
  std::string name;         // for functions and classes, if it was parsed
  bool isScript = false;    // decorated with @torch.jit.script
  SourceRange range;        // the whole statement
  Diagnostic error;         // why it could not be parsed
};

struct Module {
  /// Imports, functions and classes, in source order. Other top-level
  /// statements (a training loop, `if __name__ == "__main__":`, globals) are
  /// not compiled and are left out.
  Block items;
  std::vector<SkippedItem> skipped;
};

} // namespace kiln::ast

#endif // KILN_FRONTEND_AST_H
