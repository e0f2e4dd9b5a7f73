//===- PreludeRows.cpp - Op-table rows declared in the Python prelude -----===//
//
// A prelude function decorated with `@op(schema, spellings, samples=...)`
// (frontend/prelude/kiln_table.py) is an op-table row whose lowering is
// that function. The decorator's arguments are read here from kiln's own
// AST of the prelude, so the row, its samples and its decomposition are
// written once, in Python, and the eager tests read the same decorators.
// The function need not be named after the op: torch.softmax and
// F.softmax share a name but not a signature, so each row decorates its own.
// A row whose lowering is a kiln op (`kiln='kiln.exp'`) or a C++ builder
// (`build='clamp'`, one of allBuilders()) decorates a stub instead. Only
// literals are read: strings, numbers, the spelling and flag names of
// kiln_table.py joined by `|`, tuples, lists and `unary(lo, hi)`. Rows are
// written by hand and every one is parsed by `kiln ops --json` in the
// suite, so a malformed decorator is a fatal error naming its line.
//
//===----------------------------------------------------------------------===//
#include "frontend/OpFamilies.h"
#include "frontend/OpTable.h"
#include "frontend/Prelude.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

#include <deque>

namespace kiln::ops {

namespace {

/// kiln_table.py's names; test/prelude checks that both files agree.
const llvm::StringMap<unsigned> &tableNames() {
  static const llvm::StringMap<unsigned> names = {
      {"TORCH", Torch},
      {"METHOD", Method},
      {"FUNCTIONAL", Functional},
      {"INPLACE", InPlace},
      {"F_INPLACE_ARG", FInplaceArg},
      {"MATH", Math},
      {"TENSOR_OP", Torch | Method | InPlace},
      {"ACTIVATION", Functional | FInplaceArg},
      {"FLOAT_MATH", FloatMath},
      {"NO_BOOL", NoBool},
      {"FLOAT_ONLY", FloatOnly},
  };
  return names;
}

class Reader {
public:
  explicit Reader(llvm::StringRef file) : file(file) {}

  [[noreturn]] void fail(const ast::Expr &at, const llvm::Twine &message) {
    llvm::report_fatal_error("frontend/prelude/" + file + ":" +
                             llvm::Twine(at.range.begin.line) + ": " + message);
  }

  const char *str(const ast::Expr &e) {
    if (auto *s = llvm::dyn_cast<ast::StrLitExpr>(&e))
      return s->value.c_str(); // the prelude's AST lives for the process
    fail(e, "expected a string literal");
  }

  double number(const ast::Expr &e) {
    if (auto *u = llvm::dyn_cast<ast::UnaryOpExpr>(&e);
        u && u->op == ast::UnaryOpKind::Neg)
      return -number(*u->operand);
    if (auto *i = llvm::dyn_cast<ast::IntLitExpr>(&e))
      return double(i->value);
    if (auto *f = llvm::dyn_cast<ast::FloatLitExpr>(&e))
      return f->value;
    fail(e, "expected a number");
  }

  /// Spelling and flag names joined by `|`, or 0.
  unsigned bits(const ast::Expr &e) {
    if (auto *b = llvm::dyn_cast<ast::BinOpExpr>(&e);
        b && b->op == ast::BinOpKind::BitOr)
      return bits(*b->lhs) | bits(*b->rhs);
    if (auto *i = llvm::dyn_cast<ast::IntLitExpr>(&e); i && i->value == 0)
      return 0;
    if (auto *n = llvm::dyn_cast<ast::NameExpr>(&e)) {
      auto it = tableNames().find(n->id);
      if (it != tableNames().end())
        return it->second;
    }
    fail(e, "expected names of kiln_table.py joined by |");
  }

  const std::vector<ast::ExprPtr> &items(const ast::Expr &e) {
    if (auto *l = llvm::dyn_cast<ast::ListExpr>(&e))
      return l->elts;
    if (auto *t = llvm::dyn_cast<ast::TupleExpr>(&e))
      return t->elts;
    fail(e, "expected a list");
  }

  Sample sample(const ast::Expr &e) {
    if (llvm::isa<ast::StrLitExpr>(e))
      return {str(e)};
    const std::vector<ast::ExprPtr> &parts = items(e);
    if (parts.empty() || parts.size() > 4)
      fail(e, "a sample is (inputs, args, lo, hi) or its first items");
    Sample s{str(*parts[0])};
    if (parts.size() > 1)
      s.args = str(*parts[1]);
    if (parts.size() > 2)
      s.lo = number(*parts[2]);
    if (parts.size() > 3)
      s.hi = number(*parts[3]);
    return s;
  }

  std::vector<Sample> samples(const ast::Expr &e) {
    // unary(lo, hi): kiln_table.py's samples of elementwise ops.
    if (auto *c = llvm::dyn_cast<ast::CallExpr>(&e)) {
      auto *callee = llvm::dyn_cast<ast::NameExpr>(c->func.get());
      if (!callee || callee->id != "unary" || c->args.size() != 2)
        fail(e, "expected a list of samples or unary(lo, hi)");
      double lo = number(*c->args[0]), hi = number(*c->args[1]);
      return {{"x=f32[B,5]", "", lo, hi},
              {"x=f64[3]", "", lo, hi},
              {"x=f32[0,3]", "", lo, hi}};
    }
    std::vector<Sample> out;
    for (const ast::ExprPtr &s : items(e))
      out.push_back(sample(*s));
    return out;
  }

  /// The row `@op(...)` declares for `def`.
  Row row(const ast::CallExpr &call, const ast::FunctionDef &def) {
    if (call.args.size() != 2)
      fail(call, "op() takes the schema and the spellings, then keywords");
    Row r{parseSchema(str(*call.args[0])), bits(*call.args[1])};
    std::string note;
    for (const ast::Keyword &k : call.keywords) {
      const ast::Expr &v = *k.value;
      if (k.name == "kiln")
        r.kilnOp = str(v);
      else if (k.name == "build")
        r.build = builder(v);
      else if (k.name == "samples")
        r.samples = samples(v);
      else if (k.name == "aliases")
        for (const ast::ExprPtr &a : items(v))
          r.aliases.push_back(str(*a));
      else if (k.name == "rtol")
        r.rtol = number(v);
      else if (k.name == "atol")
        r.atol = number(v);
      else if (k.name == "flags")
        r.flags = bits(v);
      else if (k.name == "note")
        note = str(v);
      else if (k.name == "random")
        r.random = randomKind(v);
      else
        fail(v, "op() has no keyword '" + k.name + "'");
    }
    if (r.kilnOp && r.build)
      fail(call, "a row lowers through kiln= or build=, not both");
    if (r.kilnOp || r.build) {
      r.note = keep(std::move(note));
      return r;
    }
    // Lowered by the decorated function.
    r.build = lowerViaPrelude;
    r.note = keep("prelude (" + file.str() + ")" +
                  (note.empty() ? "" : "; " + note));
    r.impl = &def;
    return r;
  }

private:
  Builder builder(const ast::Expr &e) {
    const char *name = str(e);
    for (const NamedBuilder &b : allBuilders())
      if (llvm::StringRef(b.name) == name)
        return b.build;
    fail(e, llvm::Twine("no C++ builder is named '") + name + "'");
  }

  const char *randomKind(const ast::Expr &e) {
    const char *kind = str(e);
    for (const char *known : {"uniform", "normal", "any"})
      if (llvm::StringRef(kind) == known)
        return kind;
    fail(e, "random= is 'uniform', 'normal' or 'any'");
  }

  const char *keep(std::string s) {
    static std::deque<std::string> kept; // rows are built once, under a lock
    return kept.emplace_back(std::move(s)).c_str();
  }

  llvm::StringRef file;
};

} // namespace

std::vector<Row> preludeRows(llvm::StringRef file) {
  const ast::Module *m = preludeModule(file);
  if (!m)
    llvm::report_fatal_error("no prelude file " + file);
  // A def that does not parse would take its rows with it, unnoticed.
  for (const ast::SkippedItem &s : m->skipped)
    llvm::report_fatal_error("frontend/prelude/" + file + ":" +
                             llvm::Twine(s.error.range.begin.line) + ": '" +
                             s.name + "' does not parse: " + s.error.message);
  Reader reader(file);
  std::vector<Row> rows;
  for (const ast::StmtPtr &item : m->items) {
    auto *def = llvm::dyn_cast<ast::FunctionDef>(item.get());
    if (!def)
      continue;
    for (const ast::ExprPtr &d : def->decorators) {
      auto *call = llvm::dyn_cast<ast::CallExpr>(d.get());
      auto *name =
          call ? llvm::dyn_cast<ast::NameExpr>(call->func.get()) : nullptr;
      if (name && name->id == "op")
        rows.push_back(reader.row(*call, *def));
    }
  }
  return rows;
}

} // namespace kiln::ops
