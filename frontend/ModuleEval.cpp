//===- ModuleEval.cpp - Evaluate nn.Module __init__ at compile time -------===//
//
// A small interpreter for the part of Python that __init__ methods use:
// numbers, strings, tuples and lists, arithmetic, `if` and `for` over
// constants, local variables, submodule construction, nn.Parameter and
// register_buffer. Tensors are only shapes and dtypes here: their values
// come from the weights file, so a tensor that is not a parameter or a
// buffer has no value at all and is rejected where it is stored.
//
// After __init__ runs, the tree is walked once in state_dict() order to
// name every weight ("layers.0.weight") exactly as PyTorch does.
//
//===----------------------------------------------------------------------===//

#include "frontend/LoweringImpl.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <set>

using namespace mlir;

namespace kiln {
namespace {

using CV = ConstValue;
using Keywords = std::vector<std::pair<std::string, CV>>;

CV makeInt(int64_t v) {
  CV c;
  c.kind = CV::Kind::Int;
  c.i = v;
  return c;
}
CV makeFloat(double v) {
  CV c;
  c.kind = CV::Kind::Float;
  c.f = v;
  return c;
}
CV makeBool(bool v) {
  CV c;
  c.kind = CV::Kind::Bool;
  c.i = v;
  return c;
}
CV makeStr(std::string s, CV::Kind kind = CV::Kind::Str) {
  CV c;
  c.kind = kind;
  c.str = std::move(s);
  return c;
}
CV makeSeq(CV::Kind kind, std::vector<CV> elems) {
  CV c;
  c.kind = kind;
  c.elems = std::move(elems);
  return c;
}
CV makeModule(std::shared_ptr<ModuleObject> m) {
  CV c;
  c.kind = CV::Kind::Module;
  c.module = std::move(m);
  return c;
}
CV makeTensor(Type elementType, std::vector<int64_t> shape, SourceRange where) {
  CV c;
  c.kind = CV::Kind::Tensor;
  c.elementType = elementType;
  c.shape = std::move(shape);
  c.where = where;
  return c;
}

double asDouble(const CV &v) { return v.kind == CV::Kind::Float ? v.f : v.i; }

std::string describeConst(const CV &v) {
  switch (v.kind) {
  case CV::Kind::None:
    return "None";
  case CV::Kind::Int:
    return "an int";
  case CV::Kind::Float:
    return "a float";
  case CV::Kind::Bool:
    return "a bool";
  case CV::Kind::Str:
    return "a str";
  case CV::Kind::Tuple:
    return "a tuple";
  case CV::Kind::List:
    return "a list";
  case CV::Kind::Module:
    return "a module ('" + v.module->typeName + "')";
  case CV::Kind::Tensor:
    return "a tensor";
  case CV::Kind::Global:
    return "'" + v.str + "'";
  }
  return "a value";
}

/// A builtin's parameter: required when it has no default.
struct Param {
  const char *name;
  std::optional<CV> defaultValue;
};

/// The arguments of one call, evaluated.
struct Args {
  std::vector<CV> positional;
  Keywords keywords;
  std::vector<SourceRange> positionalRanges;
  SourceRange range;
};

class InitEvaluator {
public:
  explicit InitEvaluator(ModuleLowering &m) : m(m), b(&m.context) {}

  std::shared_ptr<ModuleObject> instantiate(const ast::ClassDef &cls,
                                            const Args &args);
  bool error(SourceRange where, std::string message) {
    m.diags.error(where, std::move(message));
    return false;
  }

private:
  struct Frame {
    std::map<std::string, CV> locals;
    std::shared_ptr<ModuleObject> self;
  };

  bool exec(const ast::Block &block, Frame &frame);
  bool execStmt(const ast::Stmt &stmt, Frame &frame);
  bool assign(const ast::Expr &target, CV value, Frame &frame);
  std::optional<CV> eval(const ast::Expr &e, Frame &frame);
  std::optional<CV> evalBinOp(ast::BinOpKind op, const CV &l, const CV &r,
                              SourceRange where);
  std::optional<bool> evalCompare(const ast::CompareExpr &e, Frame &frame);
  std::optional<bool> truth(const CV &v, SourceRange where);
  std::optional<CV> evalCall(const ast::CallExpr &call, Frame &frame);
  std::optional<CV> callGlobal(const std::string &path, const Args &args);
  std::optional<CV> callSelfMethod(Frame &frame, const std::string &name,
                                   const Args &args);
  std::optional<CV> callTensorMethod(const CV &self, const std::string &name,
                                     const Args &args);
  std::optional<CV> createTensor(const std::string &name, const Args &args);
  std::optional<CV> constructNN(const std::string &name, const Args &args);
  std::optional<std::vector<CV>> bind(const std::string &fn,
                                      llvm::ArrayRef<Param> params,
                                      const Args &args);

  std::optional<int64_t> toInt(const CV &v, const char *what,
                               SourceRange where);
  std::optional<std::vector<int64_t>> toInts(const CV &v, const char *what,
                                             SourceRange where);
  std::optional<std::vector<int64_t>> toPair(const CV &v, const char *what,
                                             SourceRange where);
  std::optional<Type> toDtype(const CV &v, SourceRange where);
  std::optional<std::vector<int64_t>> sizesOf(const Args &args, size_t first);

  /// The dotted path an expression names through the imports, e.g.
  /// "torch.nn.Linear" for `nn.Linear`; empty if it is not a global.
  std::string globalPath(const ast::Expr &e, const Frame &frame);

  ModuleLowering &m;
  Builder b;
  /// Classes being constructed, to reject a module that contains itself.
  std::set<const ast::ClassDef *> active;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool InitEvaluator::exec(const ast::Block &block, Frame &frame) {
  for (const ast::StmtPtr &s : block)
    if (!execStmt(*s, frame))
      return false;
  return true;
}

bool InitEvaluator::execStmt(const ast::Stmt &stmt, Frame &frame) {
  switch (stmt.kind) {
  case ast::Stmt::Kind::Pass:
    return true;
  case ast::Stmt::Kind::Expr: {
    const auto &e = *llvm::cast<ast::ExprStmt>(stmt).value;
    if (llvm::isa<ast::StrLitExpr>(e)) // a docstring
      return true;
    return eval(e, frame).has_value();
  }
  case ast::Stmt::Kind::Assign: {
    const auto &a = llvm::cast<ast::AssignStmt>(stmt);
    std::optional<CV> v = eval(*a.value, frame);
    if (!v)
      return false;
    for (const ast::ExprPtr &t : a.targets)
      if (!assign(*t, *v, frame))
        return false;
    return true;
  }
  case ast::Stmt::Kind::AnnAssign: {
    const auto &a = llvm::cast<ast::AnnAssignStmt>(stmt);
    if (!a.value)
      return true; // a declaration only
    std::optional<CV> v = eval(*a.value, frame);
    return v && assign(*a.target, *v, frame);
  }
  case ast::Stmt::Kind::AugAssign: {
    const auto &a = llvm::cast<ast::AugAssignStmt>(stmt);
    std::optional<CV> lhs = eval(*a.target, frame);
    std::optional<CV> rhs = lhs ? eval(*a.value, frame) : std::nullopt;
    if (!rhs)
      return false;
    std::optional<CV> v = evalBinOp(a.op, *lhs, *rhs, a.range);
    return v && assign(*a.target, *v, frame);
  }
  case ast::Stmt::Kind::If: {
    const auto &i = llvm::cast<ast::IfStmt>(stmt);
    std::optional<CV> c = eval(*i.test, frame);
    std::optional<bool> t = c ? truth(*c, i.test->range) : std::nullopt;
    if (!t)
      return false;
    return exec(*t ? i.body : i.orelse, frame);
  }
  case ast::Stmt::Kind::For: {
    const auto &f = llvm::cast<ast::ForStmt>(stmt);
    std::optional<CV> iter = eval(*f.iter, frame);
    if (!iter)
      return false;
    if (iter->kind != CV::Kind::List && iter->kind != CV::Kind::Tuple)
      return error(f.iter->range, "for loops in __init__ iterate over "
                                  "range(...), a list or a tuple, not " +
                                      describeConst(*iter));
    for (const CV &e : iter->elems)
      if (!assign(*f.target, e, frame) || !exec(f.body, frame))
        return false;
    return true;
  }
  case ast::Stmt::Kind::Assert: {
    const auto &a = llvm::cast<ast::AssertStmt>(stmt);
    std::optional<CV> c = eval(*a.test, frame);
    std::optional<bool> t = c ? truth(*c, a.test->range) : std::nullopt;
    if (!t)
      return false;
    if (!*t)
      return error(a.test->range, "assertion failed while running __init__");
    return true;
  }
  default:
    return error(stmt.range,
                 "this statement is not supported in __init__, which kiln "
                 "runs at compile time; use assignments, calls, if, for "
                 "and assert");
  }
}

bool InitEvaluator::assign(const ast::Expr &target, CV value, Frame &frame) {
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(&target)) {
    frame.locals[n->id] = std::move(value);
    return true;
  }
  if (auto *t = llvm::dyn_cast<ast::TupleExpr>(&target)) {
    if ((value.kind != CV::Kind::Tuple && value.kind != CV::Kind::List) ||
        value.elems.size() != t->elts.size())
      return error(target.range, "cannot unpack " + describeConst(value) +
                                     " into " +
                                     std::to_string(t->elts.size()) + " names");
    for (size_t i = 0; i < t->elts.size(); ++i)
      if (!assign(*t->elts[i], value.elems[i], frame))
        return false;
    return true;
  }
  auto *a = llvm::dyn_cast<ast::AttributeExpr>(&target);
  auto *base = a ? llvm::dyn_cast<ast::NameExpr>(a->value.get()) : nullptr;
  if (!base || base->id != "self" || !frame.self)
    return error(target.range, "__init__ may assign local names and "
                               "attributes of self only");
  if (value.kind == CV::Kind::Tensor && value.role == CV::TensorRole::Plain)
    return error(target.range,
                 "a tensor attribute needs a value at run time; wrap it in "
                 "nn.Parameter(...) or use self.register_buffer('" + a->attr +
                     "', ...) so that it comes from the weights");
  if (value.kind == CV::Kind::List || value.kind == CV::Kind::Tuple)
    for (const CV &e : value.elems)
      if (e.kind == CV::Kind::Module || e.kind == CV::Kind::Tensor)
        return error(target.range,
                     "a plain list of modules or tensors is not registered "
                     "with the module, so its weights would be lost; use "
                     "nn.ModuleList([...])");
  if (value.kind == CV::Kind::Tensor)
    value.where = target.range;
  frame.self->set(a->attr, std::move(value));
  return true;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

std::string InitEvaluator::globalPath(const ast::Expr &e, const Frame &frame) {
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(&e)) {
    if (frame.locals.count(n->id) || n->id == "self")
      return "";
    if (m.classes.count(n->id))
      return "class." + n->id;
    if (std::optional<PyValue> g = m.lookupGlobal(n->id))
      if (g->kind == PyValue::Kind::Global)
        return g->str;
    return "";
  }
  if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(&e)) {
    std::string base = globalPath(*a->value, frame);
    return base.empty() ? "" : base + "." + a->attr;
  }
  return "";
}

std::optional<CV> InitEvaluator::eval(const ast::Expr &e, Frame &frame) {
  switch (e.kind) {
  case ast::Expr::Kind::IntLit:
    return makeInt(llvm::cast<ast::IntLitExpr>(e).value);
  case ast::Expr::Kind::FloatLit:
    return makeFloat(llvm::cast<ast::FloatLitExpr>(e).value);
  case ast::Expr::Kind::BoolLit:
    return makeBool(llvm::cast<ast::BoolLitExpr>(e).value);
  case ast::Expr::Kind::NoneLit:
    return CV();
  case ast::Expr::Kind::StrLit:
    return makeStr(llvm::cast<ast::StrLitExpr>(e).value);
  case ast::Expr::Kind::Tuple:
  case ast::Expr::Kind::List: {
    const auto &elts = e.kind == ast::Expr::Kind::Tuple
                           ? llvm::cast<ast::TupleExpr>(e).elts
                           : llvm::cast<ast::ListExpr>(e).elts;
    std::vector<CV> out;
    for (const ast::ExprPtr &x : elts) {
      std::optional<CV> v = eval(*x, frame);
      if (!v)
        return std::nullopt;
      out.push_back(*v);
    }
    return makeSeq(e.kind == ast::Expr::Kind::Tuple ? CV::Kind::Tuple
                                                    : CV::Kind::List,
                   std::move(out));
  }
  case ast::Expr::Kind::ListComp: {
    const auto &c = llvm::cast<ast::ListCompExpr>(e);
    std::optional<CV> iter = eval(*c.iter, frame);
    if (!iter)
      return std::nullopt;
    if (iter->kind != CV::Kind::List && iter->kind != CV::Kind::Tuple) {
      error(c.iter->range, "cannot iterate over " + describeConst(*iter));
      return std::nullopt;
    }
    std::vector<CV> out;
    for (const CV &x : iter->elems) {
      if (!assign(*c.target, x, frame))
        return std::nullopt;
      std::optional<CV> v = eval(*c.elt, frame);
      if (!v)
        return std::nullopt;
      out.push_back(*v);
    }
    return makeSeq(CV::Kind::List, std::move(out));
  }
  case ast::Expr::Kind::Name: {
    const auto &n = llvm::cast<ast::NameExpr>(e);
    if (n.id == "self" && frame.self)
      return makeModule(frame.self);
    if (auto it = frame.locals.find(n.id); it != frame.locals.end())
      return it->second;
    std::string path = globalPath(e, frame);
    if (!path.empty())
      return makeStr(path, CV::Kind::Global);
    error(e.range, "name '" + n.id + "' is not defined in __init__");
    return std::nullopt;
  }
  case ast::Expr::Kind::Attribute: {
    const auto &a = llvm::cast<ast::AttributeExpr>(e);
    std::string path = globalPath(e, frame);
    if (!path.empty())
      return makeStr(path, CV::Kind::Global);
    std::optional<CV> base = eval(*a.value, frame);
    if (!base)
      return std::nullopt;
    if (base->kind == CV::Kind::Global)
      return makeStr(base->str + "." + a.attr, CV::Kind::Global);
    if (base->kind == CV::Kind::Module)
      if (const CV *v = base->module->lookup(a.attr))
        return *v;
    if (base->kind == CV::Kind::Tensor && a.attr == "shape") {
      std::vector<CV> dims;
      for (int64_t d : base->shape)
        dims.push_back(makeInt(d));
      return makeSeq(CV::Kind::Tuple, std::move(dims));
    }
    error(a.attrRange,
          describeConst(*base) + " has no attribute '" + a.attr + "'");
    return std::nullopt;
  }
  case ast::Expr::Kind::Subscript: {
    const auto &s = llvm::cast<ast::SubscriptExpr>(e);
    std::optional<CV> base = eval(*s.value, frame);
    if (!base)
      return std::nullopt;
    std::optional<CV> index =
        s.indices.size() == 1 ? eval(*s.indices[0], frame) : std::nullopt;
    if (s.indices.size() == 1 && !index)
      return std::nullopt;
    if (!index || index->kind != CV::Kind::Int ||
        (base->kind != CV::Kind::List && base->kind != CV::Kind::Tuple)) {
      error(e.range, "__init__ can index lists and tuples with an int only");
      return std::nullopt;
    }
    int64_t n = base->elems.size(), i = index->i < 0 ? index->i + n : index->i;
    if (i < 0 || i >= n) {
      error(s.indices[0]->range, "index " + std::to_string(index->i) +
                                     " is out of range for " +
                                     std::to_string(n) + " elements");
      return std::nullopt;
    }
    return base->elems[i];
  }
  case ast::Expr::Kind::BinOp: {
    const auto &o = llvm::cast<ast::BinOpExpr>(e);
    std::optional<CV> l = eval(*o.lhs, frame);
    std::optional<CV> r = l ? eval(*o.rhs, frame) : std::nullopt;
    if (!r)
      return std::nullopt;
    return evalBinOp(o.op, *l, *r, o.range);
  }
  case ast::Expr::Kind::UnaryOp: {
    const auto &u = llvm::cast<ast::UnaryOpExpr>(e);
    std::optional<CV> v = eval(*u.operand, frame);
    if (!v)
      return std::nullopt;
    if (u.op == ast::UnaryOpKind::Not) {
      std::optional<bool> t = truth(*v, u.operand->range);
      return t ? std::optional<CV>(makeBool(!*t)) : std::nullopt;
    }
    if (!v->isNumber() || u.op == ast::UnaryOpKind::Invert) {
      error(e.range, "this unary operator is not supported on " +
                         describeConst(*v) + " in __init__");
      return std::nullopt;
    }
    if (u.op == ast::UnaryOpKind::Pos)
      return v;
    return v->kind == CV::Kind::Float ? makeFloat(-v->f) : makeInt(-v->i);
  }
  case ast::Expr::Kind::BoolOp: {
    const auto &o = llvm::cast<ast::BoolOpExpr>(e);
    std::optional<CV> l = eval(*o.lhs, frame);
    std::optional<bool> t = l ? truth(*l, o.lhs->range) : std::nullopt;
    if (!t)
      return std::nullopt;
    if (*t == (o.op == ast::BoolOpKind::Or))
      return l;
    return eval(*o.rhs, frame);
  }
  case ast::Expr::Kind::Compare: {
    std::optional<bool> t = evalCompare(llvm::cast<ast::CompareExpr>(e), frame);
    return t ? std::optional<CV>(makeBool(*t)) : std::nullopt;
  }
  case ast::Expr::Kind::IfExp: {
    const auto &i = llvm::cast<ast::IfExpExpr>(e);
    std::optional<CV> c = eval(*i.test, frame);
    std::optional<bool> t = c ? truth(*c, i.test->range) : std::nullopt;
    if (!t)
      return std::nullopt;
    return eval(*t ? *i.body : *i.orelse, frame);
  }
  case ast::Expr::Kind::Call:
    return evalCall(llvm::cast<ast::CallExpr>(e), frame);
  default:
    error(e.range, "this expression is not supported in __init__, which kiln "
                   "runs at compile time");
    return std::nullopt;
  }
}

std::optional<bool> InitEvaluator::truth(const CV &v, SourceRange where) {
  switch (v.kind) {
  case CV::Kind::None:
    return false;
  case CV::Kind::Int:
  case CV::Kind::Bool:
    return v.i != 0;
  case CV::Kind::Float:
    return v.f != 0;
  case CV::Kind::Str:
    return !v.str.empty();
  case CV::Kind::Tuple:
  case CV::Kind::List:
    return !v.elems.empty();
  default:
    error(where, "the truth of " + describeConst(v) +
                     " is not known at compile time");
    return std::nullopt;
  }
}

std::optional<CV> InitEvaluator::evalBinOp(ast::BinOpKind op, const CV &l,
                                           const CV &r, SourceRange where) {
  using K = ast::BinOpKind;
  bool seq = l.kind == CV::Kind::List || l.kind == CV::Kind::Tuple;
  if (seq && op == K::Add && r.kind == l.kind) {
    CV out = l;
    out.elems.insert(out.elems.end(), r.elems.begin(), r.elems.end());
    return out;
  }
  if (seq && op == K::Mul && r.kind == CV::Kind::Int) {
    CV out = makeSeq(l.kind, {});
    for (int64_t i = 0; i < r.i; ++i)
      out.elems.insert(out.elems.end(), l.elems.begin(), l.elems.end());
    return out;
  }
  if (!l.isNumber() || !r.isNumber()) {
    error(where, "this operator is not supported on " + describeConst(l) +
                     " and " + describeConst(r) + " in __init__");
    return std::nullopt;
  }
  bool isFloat = l.kind == CV::Kind::Float || r.kind == CV::Kind::Float;
  if (op == K::Div || (isFloat && op != K::FloorDiv && op != K::Mod)) {
    double a = asDouble(l), c = asDouble(r);
    switch (op) {
    case K::Add:
      return makeFloat(a + c);
    case K::Sub:
      return makeFloat(a - c);
    case K::Mul:
      return makeFloat(a * c);
    case K::Div:
      if (c == 0)
        break;
      return makeFloat(a / c);
    case K::Pow:
      return makeFloat(std::pow(a, c));
    default:
      break;
    }
    error(where, "this float operation is not supported in __init__");
    return std::nullopt;
  }
  if (isFloat) {
    double a = asDouble(l), c = asDouble(r);
    if (c == 0) {
      error(where, "division by zero in __init__");
      return std::nullopt;
    }
    double q = std::floor(a / c);
    return makeFloat(op == K::FloorDiv ? q : a - q * c);
  }
  int64_t a = l.i, c = r.i;
  switch (op) {
  case K::Add:
    return makeInt(a + c);
  case K::Sub:
    return makeInt(a - c);
  case K::Mul:
    return makeInt(a * c);
  case K::FloorDiv:
  case K::Mod: {
    if (c == 0) {
      error(where, "division by zero in __init__");
      return std::nullopt;
    }
    int64_t q = a / c;
    if ((a % c != 0) && ((a < 0) != (c < 0)))
      --q; // Python floors
    return makeInt(op == K::FloorDiv ? q : a - q * c);
  }
  case K::Pow: {
    if (c < 0)
      return makeFloat(std::pow(double(a), double(c)));
    int64_t p = 1;
    for (int64_t i = 0; i < c; ++i)
      p *= a;
    return makeInt(p);
  }
  default:
    error(where, "this int operation is not supported in __init__");
    return std::nullopt;
  }
}

std::optional<bool> InitEvaluator::evalCompare(const ast::CompareExpr &e,
                                               Frame &frame) {
  std::optional<CV> lhs = eval(*e.operands[0], frame);
  if (!lhs)
    return std::nullopt;
  for (size_t i = 0; i < e.ops.size(); ++i) {
    std::optional<CV> rhs = eval(*e.operands[i + 1], frame);
    if (!rhs)
      return std::nullopt;
    ast::CmpOpKind op = e.ops[i];
    bool result;
    if (op == ast::CmpOpKind::Is || op == ast::CmpOpKind::IsNot) {
      if (rhs->kind != CV::Kind::None) {
        error(e.range, "'is' compares with None only");
        return std::nullopt;
      }
      result = (lhs->kind == CV::Kind::None) == (op == ast::CmpOpKind::Is);
    } else if (lhs->kind == CV::Kind::Str && rhs->kind == CV::Kind::Str &&
               (op == ast::CmpOpKind::Eq || op == ast::CmpOpKind::Ne)) {
      result = (lhs->str == rhs->str) == (op == ast::CmpOpKind::Eq);
    } else if (lhs->isNumber() && rhs->isNumber()) {
      double a = asDouble(*lhs), c = asDouble(*rhs);
      switch (op) {
      case ast::CmpOpKind::Lt:
        result = a < c;
        break;
      case ast::CmpOpKind::Le:
        result = a <= c;
        break;
      case ast::CmpOpKind::Gt:
        result = a > c;
        break;
      case ast::CmpOpKind::Ge:
        result = a >= c;
        break;
      case ast::CmpOpKind::Eq:
        result = a == c;
        break;
      case ast::CmpOpKind::Ne:
        result = a != c;
        break;
      default:
        error(e.range, "this comparison is not supported in __init__");
        return std::nullopt;
      }
    } else {
      error(e.range, "cannot compare " + describeConst(*lhs) + " and " +
                         describeConst(*rhs) + " in __init__");
      return std::nullopt;
    }
    if (!result)
      return false;
    lhs = rhs;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

std::optional<CV> InitEvaluator::evalCall(const ast::CallExpr &call,
                                          Frame &frame) {
  // super().__init__() and nn.Module.__init__(self): nothing to do, since
  // the module object exists already.
  if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(call.func.get()))
    if (a->attr == "__init__") {
      auto *inner = llvm::dyn_cast<ast::CallExpr>(a->value.get());
      auto *name =
          inner ? llvm::dyn_cast<ast::NameExpr>(inner->func.get()) : nullptr;
      if ((name && name->id == "super") ||
          globalPath(*a->value, frame) == "torch.nn.Module")
        return CV();
    }

  Args args;
  args.range = call.range;
  for (const ast::ExprPtr &x : call.args) {
    std::optional<CV> v = eval(*x, frame);
    if (!v)
      return std::nullopt;
    args.positional.push_back(*v);
    args.positionalRanges.push_back(x->range);
  }
  for (const ast::Keyword &k : call.keywords) {
    std::optional<CV> v = eval(*k.value, frame);
    if (!v)
      return std::nullopt;
    args.keywords.emplace_back(k.name, *v);
  }

  if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(call.func.get())) {
    std::string path = globalPath(*a, frame);
    if (path.empty()) {
      auto *base = llvm::dyn_cast<ast::NameExpr>(a->value.get());
      if (base && base->id == "self" && frame.self)
        return callSelfMethod(frame, a->attr, args);
      std::optional<CV> self = eval(*a->value, frame);
      if (!self)
        return std::nullopt;
      if (self->kind == CV::Kind::Tensor)
        return callTensorMethod(*self, a->attr, args);
      error(call.func->range, "calling '" + a->attr + "' on " +
                                  describeConst(*self) +
                                  " is not supported in __init__");
      return std::nullopt;
    }
    return callGlobal(path, args);
  }
  std::string path = globalPath(*call.func, frame);
  if (path.empty()) {
    error(call.func->range, "this call is not supported in __init__");
    return std::nullopt;
  }
  return callGlobal(path, args);
}

std::optional<std::vector<CV>> InitEvaluator::bind(const std::string &fn,
                                                   llvm::ArrayRef<Param> params,
                                                   const Args &args) {
  std::vector<std::optional<CV>> bound(params.size());
  if (args.positional.size() > params.size()) {
    error(args.range, fn + "() takes at most " +
                          std::to_string(params.size()) + " arguments (" +
                          std::to_string(args.positional.size()) + " given)");
    return std::nullopt;
  }
  for (size_t i = 0; i < args.positional.size(); ++i)
    bound[i] = args.positional[i];
  for (const auto &[name, value] : args.keywords) {
    auto it = llvm::find_if(params, [&](const Param &p) { return name == p.name; });
    if (it == params.end()) {
      error(args.range,
            fn + "() got an unexpected keyword argument '" + name + "'");
      return std::nullopt;
    }
    if (bound[it - params.begin()]) {
      error(args.range, fn + "() got multiple values for argument '" + name + "'");
      return std::nullopt;
    }
    bound[it - params.begin()] = value;
  }
  std::vector<CV> out;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!bound[i] && !params[i].defaultValue) {
      error(args.range, fn + "() missing required argument '" +
                            std::string(params[i].name) + "'");
      return std::nullopt;
    }
    out.push_back(bound[i] ? *bound[i] : *params[i].defaultValue);
  }
  return out;
}

std::optional<int64_t> InitEvaluator::toInt(const CV &v, const char *what,
                                            SourceRange where) {
  if (v.kind == CV::Kind::Int)
    return v.i;
  error(where, std::string(what) + " must be an int, got " + describeConst(v));
  return std::nullopt;
}

std::optional<std::vector<int64_t>>
InitEvaluator::toInts(const CV &v, const char *what, SourceRange where) {
  if (v.kind == CV::Kind::Int)
    return std::vector<int64_t>{v.i};
  std::vector<int64_t> out;
  if (v.kind == CV::Kind::Tuple || v.kind == CV::Kind::List) {
    for (const CV &e : v.elems) {
      std::optional<int64_t> i = toInt(e, what, where);
      if (!i)
        return std::nullopt;
      out.push_back(*i);
    }
    return out;
  }
  error(where, std::string(what) + " must be an int or a tuple of ints, got " +
                   describeConst(v));
  return std::nullopt;
}

std::optional<std::vector<int64_t>>
InitEvaluator::toPair(const CV &v, const char *what, SourceRange where) {
  std::optional<std::vector<int64_t>> ints = toInts(v, what, where);
  if (!ints)
    return std::nullopt;
  if (v.kind == CV::Kind::Int)
    ints->push_back(ints->front());
  if (ints->size() != 2) {
    error(where, std::string(what) + " must be an int or a pair of ints");
    return std::nullopt;
  }
  return ints;
}

std::optional<Type> InitEvaluator::toDtype(const CV &v, SourceRange where) {
  if (v.kind == CV::Kind::None)
    return Type(b.getF32Type());
  if (v.kind == CV::Kind::Global) {
    OpBuilder ob(&m.context);
    if (Type t = dtypeFromGlobal(ob, PyValue::global(v.str)))
      return t;
  }
  error(where, "dtype must be a torch dtype such as torch.float32, got " +
                   describeConst(v));
  return std::nullopt;
}

/// Sizes given as varargs (`zeros(2, 3)`) or as one tuple (`zeros((2, 3))`),
/// starting at positional argument `first`.
std::optional<std::vector<int64_t>> InitEvaluator::sizesOf(const Args &args,
                                                           size_t first) {
  std::vector<int64_t> shape;
  if (args.positional.size() == first + 1 &&
      args.positional[first].kind != CV::Kind::Int)
    return toInts(args.positional[first], "size", args.range);
  for (size_t i = first; i < args.positional.size(); ++i) {
    std::optional<int64_t> d = toInt(args.positional[i], "size", args.range);
    if (!d)
      return std::nullopt;
    if (*d < 0) {
      error(args.positionalRanges[i], "sizes must be non-negative");
      return std::nullopt;
    }
    shape.push_back(*d);
  }
  return shape;
}

std::optional<CV> InitEvaluator::createTensor(const std::string &name,
                                              const Args &args) {
  Args sizeArgs = args;
  Type dtype = b.getF32Type();
  sizeArgs.keywords.clear();
  for (const auto &[k, v] : args.keywords) {
    if (k == "dtype") {
      std::optional<Type> t = toDtype(v, args.range);
      if (!t)
        return std::nullopt;
      dtype = *t;
    } else if (k != "device" && k != "requires_grad" && k != "generator" &&
               !(name == "full" && k == "fill_value")) {
      error(args.range, "torch." + name + "() got an unsupported keyword "
                                          "argument '" + k + "' in __init__");
      return std::nullopt;
    }
  }
  if (name == "full" && !sizeArgs.positional.empty() &&
      !llvm::any_of(args.keywords, [](auto &k) { return k.first == "fill_value"; }))
    sizeArgs.positional.pop_back();
  if (name == "eye") {
    std::optional<int64_t> n =
        args.positional.empty() ? std::nullopt
                                : toInt(args.positional[0], "n", args.range);
    if (!n)
      return std::nullopt;
    int64_t cols = *n;
    if (args.positional.size() > 1) {
      std::optional<int64_t> c = toInt(args.positional[1], "m", args.range);
      if (!c)
        return std::nullopt;
      cols = *c;
    }
    return makeTensor(dtype, {*n, cols}, args.range);
  }
  std::optional<std::vector<int64_t>> shape = sizesOf(sizeArgs, 0);
  if (!shape)
    return std::nullopt;
  return makeTensor(dtype, *shape, args.range);
}

std::optional<CV> InitEvaluator::callTensorMethod(const CV &self,
                                                  const std::string &name,
                                                  const Args &args) {
  OpBuilder ob(&m.context);
  Type cast = llvm::StringSwitch<Type>(name)
                  .Case("float", b.getF32Type())
                  .Case("double", b.getF64Type())
                  .Case("half", b.getF16Type())
                  .Case("bfloat16", b.getBF16Type())
                  .Case("long", b.getI64Type())
                  .Case("int", b.getI32Type())
                  .Case("bool", b.getI1Type())
                  .Default(Type());
  CV out = self;
  out.role = CV::TensorRole::Plain;
  out.where = args.range;
  if (cast) {
    out.elementType = cast;
    return out;
  }
  if (name == "to" && args.positional.size() + args.keywords.size() == 1) {
    const CV &d = args.positional.empty() ? args.keywords[0].second
                                          : args.positional[0];
    std::optional<Type> t = toDtype(d, args.range);
    if (!t)
      return std::nullopt;
    out.elementType = *t;
    return out;
  }
  if (name == "tril" || name == "triu" || name == "clone" ||
      name == "detach" || name == "contiguous")
    return out;
  if (name == "view" || name == "reshape") {
    std::optional<std::vector<int64_t>> shape = sizesOf(args, 0);
    if (!shape)
      return std::nullopt;
    int64_t numel = 1, known = 1, infer = -1;
    for (int64_t d : self.shape)
      numel *= d;
    for (size_t i = 0; i < shape->size(); ++i) {
      if ((*shape)[i] == -1 && infer < 0)
        infer = i;
      else
        known *= (*shape)[i];
    }
    if (infer >= 0 && known > 0)
      (*shape)[infer] = numel / known;
    int64_t product = 1;
    for (int64_t d : *shape)
      product *= d;
    if (product != numel) {
      error(args.range, "cannot " + name + " a tensor of " +
                            std::to_string(numel) + " elements to that shape");
      return std::nullopt;
    }
    out.shape = *shape;
    return out;
  }
  if (name == "unsqueeze" && args.positional.size() == 1) {
    std::optional<int64_t> d = toInt(args.positional[0], "dim", args.range);
    if (!d)
      return std::nullopt;
    int64_t rank = self.shape.size();
    int64_t dim = *d < 0 ? *d + rank + 1 : *d;
    if (dim < 0 || dim > rank) {
      error(args.range, "dim " + std::to_string(*d) + " is out of range");
      return std::nullopt;
    }
    out.shape.insert(out.shape.begin() + dim, 1);
    return out;
  }
  error(args.range, "the tensor method '" + name +
                        "' is not supported in __init__");
  return std::nullopt;
}

std::optional<CV> InitEvaluator::callSelfMethod(Frame &frame,
                                                const std::string &name,
                                                const Args &args) {
  if (name == "register_buffer" || name == "register_parameter") {
    bool buffer = name == "register_buffer";
    std::vector<Param> params = {{"name", std::nullopt},
                                 {buffer ? "tensor" : "param", std::nullopt}};
    if (buffer)
      params.push_back({"persistent", makeBool(true)});
    std::optional<std::vector<CV>> bound = bind(name, params, args);
    if (!bound)
      return std::nullopt;
    const CV &attr = (*bound)[0];
    CV value = (*bound)[1];
    if (attr.kind != CV::Kind::Str) {
      error(args.range, name + "() needs the attribute name as a string");
      return std::nullopt;
    }
    if (buffer && !(*bound)[2].i) {
      error(args.range, "non-persistent buffers are not in state_dict(), so "
                        "their values cannot come from the weights; register "
                        "'" + attr.str + "' as persistent");
      return std::nullopt;
    }
    if (value.kind == CV::Kind::Tensor) {
      if (!buffer && value.role != CV::TensorRole::Parameter) {
        error(args.range, "register_parameter() needs an nn.Parameter");
        return std::nullopt;
      }
      value.role = buffer ? CV::TensorRole::Buffer : CV::TensorRole::Parameter;
      value.where = args.range;
    } else if (value.kind != CV::Kind::None) {
      error(args.range, name + "() needs a tensor or None, got " +
                            describeConst(value));
      return std::nullopt;
    }
    frame.self->set(attr.str, value);
    return CV();
  }
  const CV *attr = frame.self->lookup(name);
  if (attr && attr->kind == CV::Kind::Module &&
      attr->module->typeName == "ModuleList" && args.positional.size() == 1) {
    error(args.range, "calling a ModuleList is not supported");
    return std::nullopt;
  }
  error(args.range, "calling self." + name +
                        "() is not supported in __init__; kiln runs __init__ "
                        "at compile time");
  return std::nullopt;
}

std::optional<CV> InitEvaluator::callGlobal(const std::string &path,
                                            const Args &args) {
  llvm::StringRef p(path);
  if (p.consume_front("class.")) {
    const ast::ClassDef *cls = m.classes.at(p.str());
    std::shared_ptr<ModuleObject> obj = instantiate(*cls, args);
    if (!obj)
      return std::nullopt;
    return makeModule(obj);
  }
  if (p == "torch.nn.Parameter" || p == "torch.nn.parameter.Parameter") {
    std::optional<std::vector<CV>> bound =
        bind("nn.Parameter",
             {{"data", std::nullopt}, {"requires_grad", makeBool(true)}}, args);
    if (!bound)
      return std::nullopt;
    CV t = (*bound)[0];
    if (t.kind != CV::Kind::Tensor) {
      error(args.range, "nn.Parameter() needs a tensor, got " +
                            describeConst(t));
      return std::nullopt;
    }
    t.role = CV::TensorRole::Parameter;
    return t;
  }
  if (p.consume_front("torch.nn."))
    return constructNN(p.str(), args);
  if (p.consume_front("torch.")) {
    if (llvm::is_contained({"zeros", "ones", "empty", "randn", "rand", "full",
                            "eye"},
                           p))
      return createTensor(p.str(), args);
    if ((p == "tril" || p == "triu") && !args.positional.empty() &&
        args.positional[0].kind == CV::Kind::Tensor) {
      Args rest = args;
      rest.positional.erase(rest.positional.begin());
      return callTensorMethod(args.positional[0], p.str(), rest);
    }
  }
  if (p == "builtins.range") {
    std::vector<int64_t> bounds;
    for (const CV &v : args.positional) {
      std::optional<int64_t> i = toInt(v, "range() argument", args.range);
      if (!i)
        return std::nullopt;
      bounds.push_back(*i);
    }
    if (bounds.empty() || bounds.size() > 3 || !args.keywords.empty() ||
        (bounds.size() == 3 && bounds[2] == 0)) {
      error(args.range, "range() takes 1 to 3 ints and a non-zero step");
      return std::nullopt;
    }
    int64_t start = bounds.size() > 1 ? bounds[0] : 0;
    int64_t stop = bounds.size() > 1 ? bounds[1] : bounds[0];
    int64_t step = bounds.size() > 2 ? bounds[2] : 1;
    std::vector<CV> out;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
      out.push_back(makeInt(i));
    return makeSeq(CV::Kind::List, std::move(out));
  }
  if (p == "builtins.len" && args.positional.size() == 1 &&
      (args.positional[0].kind == CV::Kind::List ||
       args.positional[0].kind == CV::Kind::Tuple))
    return makeInt(args.positional[0].elems.size());
  if ((p == "builtins.int" || p == "builtins.float") &&
      args.positional.size() == 1 && args.positional[0].isNumber()) {
    double v = asDouble(args.positional[0]);
    return p == "builtins.int" ? makeInt(static_cast<int64_t>(v))
                               : makeFloat(v);
  }
  error(args.range, "'" + path + "' cannot be called in __init__, which kiln "
                                 "runs at compile time");
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// torch.nn modules
//===----------------------------------------------------------------------===//

std::optional<CV> InitEvaluator::constructNN(const std::string &name,
                                             const Args &args) {
  auto obj = std::make_shared<ModuleObject>();
  obj->typeName = name;
  obj->createdAt = args.range;
  SourceRange where = args.range;
  CV none;
  auto param = [&](const char *attr, Type dtype, std::vector<int64_t> shape,
                   CV::TensorRole role = CV::TensorRole::Parameter) {
    CV t = makeTensor(dtype, std::move(shape), where);
    t.role = role;
    obj->set(attr, t);
  };
  auto dtypeOf = [&](const CV &v) { return toDtype(v, where); };
  auto done = [&]() -> std::optional<CV> { return makeModule(obj); };

  if (name == "Linear") {
    auto a = bind("nn.Linear",
                  {{"in_features", std::nullopt}, {"out_features", std::nullopt},
                   {"bias", makeBool(true)}, {"device", none}, {"dtype", none}},
                  args);
    if (!a)
      return std::nullopt;
    std::optional<int64_t> in = toInt((*a)[0], "in_features", where);
    std::optional<int64_t> out = in ? toInt((*a)[1], "out_features", where)
                                    : std::nullopt;
    std::optional<Type> dtype = out ? dtypeOf((*a)[4]) : std::nullopt;
    if (!dtype)
      return std::nullopt;
    obj->set("in_features", makeInt(*in));
    obj->set("out_features", makeInt(*out));
    param("weight", *dtype, {*out, *in});
    if ((*a)[2].i)
      param("bias", *dtype, {*out});
    else
      obj->set("bias", none);
    return done();
  }
  if (name == "Conv2d") {
    auto a = bind("nn.Conv2d",
                  {{"in_channels", std::nullopt}, {"out_channels", std::nullopt},
                   {"kernel_size", std::nullopt}, {"stride", makeInt(1)},
                   {"padding", makeInt(0)}, {"dilation", makeInt(1)},
                   {"groups", makeInt(1)}, {"bias", makeBool(true)},
                   {"padding_mode", makeStr("zeros")}, {"device", none},
                   {"dtype", none}},
                  args);
    if (!a)
      return std::nullopt;
    std::optional<int64_t> in = toInt((*a)[0], "in_channels", where);
    std::optional<int64_t> out =
        in ? toInt((*a)[1], "out_channels", where) : std::nullopt;
    std::optional<std::vector<int64_t>> kernel =
        out ? toPair((*a)[2], "kernel_size", where) : std::nullopt;
    std::optional<std::vector<int64_t>> stride =
        kernel ? toPair((*a)[3], "stride", where) : std::nullopt;
    std::optional<std::vector<int64_t>> dilation =
        stride ? toPair((*a)[5], "dilation", where) : std::nullopt;
    std::optional<int64_t> groups =
        dilation ? toInt((*a)[6], "groups", where) : std::nullopt;
    std::optional<Type> dtype = groups ? dtypeOf((*a)[10]) : std::nullopt;
    if (!dtype)
      return std::nullopt;
    std::vector<int64_t> padding;
    if ((*a)[4].kind == CV::Kind::Str) {
      if ((*a)[4].str == "valid") {
        padding = {0, 0};
      } else if ((*a)[4].str == "same") {
        for (int i = 0; i < 2; ++i) {
          int64_t total = (*dilation)[i] * ((*kernel)[i] - 1);
          if (total % 2 != 0 || (*stride)[i] != 1) {
            error(where, "padding='same' needs stride 1 and an odd "
                         "(dilated) kernel size; pass the padding explicitly");
            return std::nullopt;
          }
          padding.push_back(total / 2);
        }
      } else {
        error(where, "padding must be 'valid', 'same' or ints, got '" +
                         (*a)[4].str + "'");
        return std::nullopt;
      }
    } else {
      std::optional<std::vector<int64_t>> pad =
          toPair((*a)[4], "padding", where);
      if (!pad)
        return std::nullopt;
      padding = *pad;
    }
    if ((*a)[8].kind != CV::Kind::Str || (*a)[8].str != "zeros") {
      error(where, "only padding_mode='zeros' is supported");
      return std::nullopt;
    }
    if (*groups < 1 || *in % *groups != 0 || *out % *groups != 0) {
      error(where, "in_channels (" + std::to_string(*in) +
                       ") and out_channels (" + std::to_string(*out) +
                       ") must be divisible by groups (" +
                       std::to_string(*groups) + ")");
      return std::nullopt;
    }
    auto pair = [&](const std::vector<int64_t> &v) {
      return makeSeq(CV::Kind::Tuple, {makeInt(v[0]), makeInt(v[1])});
    };
    obj->set("in_channels", makeInt(*in));
    obj->set("out_channels", makeInt(*out));
    obj->set("kernel_size", pair(*kernel));
    obj->set("stride", pair(*stride));
    obj->set("padding", pair(padding));
    obj->set("dilation", pair(*dilation));
    obj->set("groups", makeInt(*groups));
    param("weight", *dtype, {*out, *in / *groups, (*kernel)[0], (*kernel)[1]});
    if ((*a)[7].i)
      param("bias", *dtype, {*out});
    else
      obj->set("bias", none);
    return done();
  }
  if (name == "MaxPool2d" || name == "AvgPool2d") {
    bool isMax = name == "MaxPool2d";
    std::vector<Param> params = {{"kernel_size", std::nullopt},
                                 {"stride", none},
                                 {"padding", makeInt(0)}};
    if (isMax)
      params.insert(params.end(), {{"dilation", makeInt(1)},
                                   {"return_indices", makeBool(false)},
                                   {"ceil_mode", makeBool(false)}});
    else
      params.insert(params.end(), {{"ceil_mode", makeBool(false)},
                                   {"count_include_pad", makeBool(true)},
                                   {"divisor_override", none}});
    auto a = bind("nn." + name, params, args);
    if (!a)
      return std::nullopt;
    for (const char *attr : {"kernel_size", "stride", "padding"}) {
      size_t i = std::string(attr) == "kernel_size" ? 0
                 : std::string(attr) == "stride"    ? 1
                                                    : 2;
      const CV &v = i == 1 && (*a)[1].kind == CV::Kind::None ? (*a)[0] : (*a)[i];
      std::optional<std::vector<int64_t>> pair = toPair(v, attr, where);
      if (!pair)
        return std::nullopt;
      obj->set(attr, makeSeq(CV::Kind::Tuple,
                             {makeInt((*pair)[0]), makeInt((*pair)[1])}));
    }
    if (isMax) {
      std::optional<std::vector<int64_t>> d =
          toPair((*a)[3], "dilation", where);
      if (!d)
        return std::nullopt;
      if ((*a)[4].i) {
        error(where, "return_indices=True is not supported");
        return std::nullopt;
      }
      obj->set("dilation",
               makeSeq(CV::Kind::Tuple, {makeInt((*d)[0]), makeInt((*d)[1])}));
      obj->set("ceil_mode", makeBool((*a)[5].i));
    } else {
      if ((*a)[5].kind != CV::Kind::None) {
        error(where, "divisor_override is not supported");
        return std::nullopt;
      }
      obj->set("ceil_mode", makeBool((*a)[3].i));
      obj->set("count_include_pad", makeBool((*a)[4].i));
    }
    return done();
  }
  if (name == "AdaptiveAvgPool2d") {
    auto a = bind("nn.AdaptiveAvgPool2d", {{"output_size", std::nullopt}}, args);
    std::optional<std::vector<int64_t>> size =
        a ? toPair((*a)[0], "output_size", where) : std::nullopt;
    if (!size)
      return std::nullopt;
    obj->set("output_size", makeSeq(CV::Kind::Tuple, {makeInt((*size)[0]),
                                                      makeInt((*size)[1])}));
    return done();
  }
  if (name == "BatchNorm2d") {
    auto a = bind("nn.BatchNorm2d",
                  {{"num_features", std::nullopt}, {"eps", makeFloat(1e-5)},
                   {"momentum", makeFloat(0.1)}, {"affine", makeBool(true)},
                   {"track_running_stats", makeBool(true)}, {"device", none},
                   {"dtype", none}},
                  args);
    if (!a)
      return std::nullopt;
    std::optional<int64_t> c = toInt((*a)[0], "num_features", where);
    std::optional<Type> dtype = c ? dtypeOf((*a)[6]) : std::nullopt;
    if (!dtype)
      return std::nullopt;
    if (!(*a)[4].i) {
      error(where, "track_running_stats=False normalizes with batch "
                   "statistics even in eval mode, which is not supported");
      return std::nullopt;
    }
    if (!(*a)[1].isNumber()) {
      error(where, "eps must be a number");
      return std::nullopt;
    }
    obj->set("num_features", makeInt(*c));
    obj->set("eps", makeFloat(asDouble((*a)[1])));
    if ((*a)[3].i) {
      param("weight", *dtype, {*c});
      param("bias", *dtype, {*c});
    } else {
      obj->set("weight", none);
      obj->set("bias", none);
    }
    param("running_mean", *dtype, {*c}, CV::TensorRole::Buffer);
    param("running_var", *dtype, {*c}, CV::TensorRole::Buffer);
    param("num_batches_tracked", b.getI64Type(), {}, CV::TensorRole::Buffer);
    return done();
  }
  if (name == "LayerNorm") {
    auto a = bind("nn.LayerNorm",
                  {{"normalized_shape", std::nullopt}, {"eps", makeFloat(1e-5)},
                   {"elementwise_affine", makeBool(true)}, {"device", none},
                   {"dtype", none}},
                  args);
    std::optional<std::vector<int64_t>> shape =
        a ? toInts((*a)[0], "normalized_shape", where) : std::nullopt;
    std::optional<Type> dtype = shape ? dtypeOf((*a)[4]) : std::nullopt;
    if (!dtype)
      return std::nullopt;
    if (!(*a)[1].isNumber()) {
      error(where, "eps must be a number");
      return std::nullopt;
    }
    std::vector<CV> dims;
    for (int64_t d : *shape)
      dims.push_back(makeInt(d));
    obj->set("normalized_shape", makeSeq(CV::Kind::Tuple, dims));
    obj->set("eps", makeFloat(asDouble((*a)[1])));
    if ((*a)[2].i) {
      param("weight", *dtype, *shape);
      param("bias", *dtype, *shape);
    } else {
      obj->set("weight", none);
      obj->set("bias", none);
    }
    return done();
  }
  if (name == "Embedding") {
    auto a = bind("nn.Embedding",
                  {{"num_embeddings", std::nullopt},
                   {"embedding_dim", std::nullopt}, {"padding_idx", none},
                   {"max_norm", none}, {"norm_type", makeFloat(2)},
                   {"scale_grad_by_freq", makeBool(false)},
                   {"sparse", makeBool(false)}, {"_weight", none},
                   {"device", none}, {"dtype", none}},
                  args);
    if (!a)
      return std::nullopt;
    std::optional<int64_t> n = toInt((*a)[0], "num_embeddings", where);
    std::optional<int64_t> d =
        n ? toInt((*a)[1], "embedding_dim", where) : std::nullopt;
    std::optional<Type> dtype = d ? dtypeOf((*a)[9]) : std::nullopt;
    if (!dtype)
      return std::nullopt;
    if ((*a)[3].kind != CV::Kind::None || (*a)[7].kind != CV::Kind::None) {
      error(where, "max_norm and _weight are not supported");
      return std::nullopt;
    }
    obj->set("num_embeddings", makeInt(*n));
    obj->set("embedding_dim", makeInt(*d));
    param("weight", *dtype, {*n, *d});
    return done();
  }
  if (name == "Dropout" || name == "ReLU" || name == "SiLU" ||
      name == "Tanh" || name == "Sigmoid" || name == "Identity" ||
      name == "GELU") {
    std::vector<Param> params;
    if (name == "Dropout")
      params = {{"p", makeFloat(0.5)}, {"inplace", makeBool(false)}};
    else if (name == "ReLU" || name == "SiLU")
      params = {{"inplace", makeBool(false)}};
    else if (name == "GELU")
      params = {{"approximate", makeStr("none")}};
    Args checked = args;
    if (name == "Identity") // nn.Identity ignores every argument
      checked = Args{{}, {}, {}, args.range};
    auto a = bind("nn." + name, params, checked);
    if (!a)
      return std::nullopt;
    if (name == "GELU") {
      if ((*a)[0].kind != CV::Kind::Str ||
          ((*a)[0].str != "none" && (*a)[0].str != "tanh")) {
        error(where, "approximate must be 'none' or 'tanh'");
        return std::nullopt;
      }
      obj->set("approximate", (*a)[0]);
    }
    return done();
  }
  if (name == "Sequential" || name == "ModuleList") {
    std::vector<CV> children = args.positional;
    if (name == "ModuleList") {
      auto a = bind("nn.ModuleList", {{"modules", none}}, args);
      if (!a)
        return std::nullopt;
      children = (*a)[0].elems;
      if ((*a)[0].kind != CV::Kind::None && (*a)[0].kind != CV::Kind::List &&
          (*a)[0].kind != CV::Kind::Tuple) {
        error(where, "nn.ModuleList() takes a list of modules");
        return std::nullopt;
      }
    } else if (!args.keywords.empty()) {
      error(where, "nn.Sequential() takes modules as positional arguments");
      return std::nullopt;
    }
    for (size_t i = 0; i < children.size(); ++i) {
      if (children[i].kind != CV::Kind::Module) {
        error(where, "nn." + name + "() takes modules, got " +
                         describeConst(children[i]) + " at position " +
                         std::to_string(i));
        return std::nullopt;
      }
      obj->set(std::to_string(i), children[i]);
    }
    return done();
  }
  error(where, "torch.nn." + name +
                   " is not supported; kiln compiles Linear, Conv2d, "
                   "MaxPool2d, AvgPool2d, AdaptiveAvgPool2d, BatchNorm2d, "
                   "LayerNorm, Embedding, Dropout, ReLU, GELU, SiLU, Tanh, "
                   "Sigmoid, Identity, Sequential and ModuleList");
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// User classes
//===----------------------------------------------------------------------===//

std::shared_ptr<ModuleObject>
InitEvaluator::instantiate(const ast::ClassDef &cls, const Args &args) {
  Frame empty;
  for (const ast::ExprPtr &base : cls.bases) {
    std::string path = globalPath(*base, empty);
    if (path != "torch.nn.Module" && path != "torch.jit.ScriptModule") {
      error(base->range, "'" + cls.name +
                             "' must derive from nn.Module (or "
                             "torch.jit.ScriptModule) directly to be "
                             "compiled");
      return nullptr;
    }
  }
  if (cls.bases.empty()) {
    error(cls.nameRange, "'" + cls.name + "' is not an nn.Module");
    return nullptr;
  }
  if (active.count(&cls)) {
    error(args.range, "'" + cls.name + "' contains itself");
    return nullptr;
  }
  auto obj = std::make_shared<ModuleObject>();
  obj->typeName = cls.name;
  obj->userClass = &cls;
  obj->createdAt = args.range;

  const ast::FunctionDef *init = nullptr;
  for (const ast::StmtPtr &s : cls.body)
    if (auto *f = llvm::dyn_cast<ast::FunctionDef>(s.get()))
      if (f->name == "__init__")
        init = f;
  if (!init) {
    if (!args.positional.empty() || !args.keywords.empty()) {
      error(args.range, "'" + cls.name + "' takes no arguments");
      return nullptr;
    }
    return obj;
  }
  if (init->params.empty() || init->params[0].name != "self") {
    error(init->nameRange, "__init__ must take self first");
    return nullptr;
  }
  // Bind the arguments; defaults are evaluated as Python does, once, in the
  // scope of the class (here: with no locals).
  std::vector<Param> params;
  for (size_t i = 1; i < init->params.size(); ++i) {
    const ast::Param &p = init->params[i];
    std::optional<CV> def;
    if (p.defaultValue) {
      def = eval(*p.defaultValue, empty);
      if (!def)
        return nullptr;
    }
    params.push_back({p.name.c_str(), def});
  }
  if (args.positional.empty() && args.keywords.empty())
    for (size_t i = 1; i < init->params.size(); ++i)
      if (!init->params[i].defaultValue) {
        error(init->params[i].range,
              "'" + cls.name + "' is constructed with no arguments, so "
              "parameter '" + init->params[i].name +
                  "' of __init__ needs a default value");
        return nullptr;
      }
  std::optional<std::vector<CV>> bound = bind(cls.name, params, args);
  if (!bound)
    return nullptr;
  Frame frame;
  frame.self = obj;
  for (size_t i = 0; i < params.size(); ++i)
    frame.locals[params[i].name] = (*bound)[i];
  active.insert(&cls);
  bool ok = exec(init->body, frame);
  active.erase(&cls);
  return ok ? obj : nullptr;
}

/// Names every weight below `obj` as state_dict() does: a module's own
/// parameters, then its buffers, then its children, depth first.
bool nameWeights(InitEvaluator &eval, ModuleObject &obj,
                 const std::string &prefix,
                 std::map<const ModuleObject *, std::string> &seen,
                 std::vector<DeclaredWeight> &out) {
  auto [it, fresh] = seen.emplace(&obj, prefix);
  if (!fresh) {
    auto name = [](const std::string &p) { return p.substr(0, p.size() - 1); };
    return eval.error(obj.createdAt, "this module is both '" +
                                         name(it->second) + "' and '" +
                                         name(prefix) +
                                         "'; shared submodules are not "
                                         "supported");
  }
  obj.prefix = prefix;
  for (CV::TensorRole role :
       {CV::TensorRole::Parameter, CV::TensorRole::Buffer})
    for (auto &[name, value] : obj.attrs)
      if (value.kind == CV::Kind::Tensor && value.role == role) {
        value.weightName = prefix + name;
        out.push_back({value.weightName,
                       RankedTensorType::get(value.shape, value.elementType),
                       value.where});
      }
  for (auto &[name, value] : obj.attrs)
    if (value.kind == CV::Kind::Module &&
        !nameWeights(eval, *value.module, prefix + name + ".", seen, out))
      return false;
  return true;
}

} // namespace

std::shared_ptr<ModuleObject>
ModuleLowering::instantiateModule(const ast::ClassDef &cls, SourceRange where) {
  InitEvaluator eval(*this);
  Args none;
  none.range = where;
  std::shared_ptr<ModuleObject> root = eval.instantiate(cls, none);
  if (!root)
    return nullptr;
  std::map<const ModuleObject *, std::string> seen;
  std::vector<DeclaredWeight> declared;
  if (!nameWeights(eval, *root, "", seen, declared))
    return nullptr;
  for (DeclaredWeight &w : declared) {
    if (llvm::any_of(weights, [&](const DeclaredWeight &o) {
          return o.name == w.name;
        })) {
      diags.error(w.where, "weight '" + w.name +
                               "' is declared by two compiled modules");
      return nullptr;
    }
    weights.push_back(std::move(w));
  }
  return root;
}

} // namespace kiln
