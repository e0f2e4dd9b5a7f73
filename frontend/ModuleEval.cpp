//===- ModuleEval.cpp - Evaluate nn.Module __init__ at compile time -------===//
//
// A small interpreter for the part of Python that __init__ methods use:
// numbers, strings, tuples and lists, arithmetic, `if` and `for` over
// constants, local variables, `raise`, calls of the file's plain functions,
// submodule construction (with base classes of the file), nn.Parameter and
// register_buffer. Tensors are only shapes and dtypes here, even computed
// ones (arange, exp, slicing assignment): their values come from the
// weights file, which holds every parameter and persistent buffer, so a
// tensor that is not a parameter or a buffer has no value at all and is
// rejected where it is stored.
//
// ModuleInstantiate.cpp runs a class's __init__ with it and names the
// weights of the finished tree.
//
//===----------------------------------------------------------------------===//

#include "frontend/AstPrinter.h"
#include "frontend/ModuleEvalImpl.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;

namespace kiln::moduleeval {

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool InitEvaluator::exec(const ast::Block &block, Frame &frame) {
  for (const ast::StmtPtr &s : block) {
    if (!execStmt(*s, frame))
      return false;
    if (frame.returned)
      return true; // a plain function's return ends every enclosing block
  }
  return true;
}

bool InitEvaluator::charge(uint64_t units, SourceRange where) {
  if (units <= kInitBudget - spent) {
    spent += units;
    return true;
  }
  spent = kInitBudget;
  return error(where, "__init__ runs too long or builds too large a value "
                      "for kiln to evaluate at compile time (the limit is " +
                          std::to_string(kInitBudget) +
                          " statements and list elements in all)");
}

bool InitEvaluator::execStmt(const ast::Stmt &stmt, Frame &frame) {
  if (!charge(1, stmt.range))
    return false;
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
    for (const CV &e : iter->elems) {
      if (!assign(*f.target, e, frame) || !exec(f.body, frame))
        return false;
      if (frame.returned)
        break;
    }
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
  case ast::Stmt::Kind::Raise: {
    // Python would raise while building the module; kiln builds it while
    // compiling, so the exception is a compile error with its message.
    const auto &r = llvm::cast<ast::RaiseStmt>(stmt);
    std::string what = "an exception";
    if (r.exc) {
      const ast::Expr *cls = r.exc.get();
      auto *call = llvm::dyn_cast<ast::CallExpr>(cls);
      what = exprToString(call ? *call->func : *cls);
      if (call && call->args.size() == 1)
        if (std::optional<CV> msg = eval(*call->args[0], frame);
            msg && msg->kind == CV::Kind::Str)
          what += ": " + msg->str;
    }
    return error(stmt.range, "__init__ raised " + what);
  }
  case ast::Stmt::Kind::Return: {
    const auto &r = llvm::cast<ast::ReturnStmt>(stmt);
    if (!frame.isFunction)
      return error(stmt.range, "return in __init__ is not supported");
    std::optional<CV> v = r.value ? eval(*r.value, frame) : CV();
    if (!v)
      return false;
    frame.returned = std::move(*v);
    return true;
  }
  default:
    return error(stmt.range,
                 "this statement is not supported in __init__, which kiln "
                 "runs at compile time; use assignments, calls, if, for, "
                 "assert and raise");
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
                                     " into " + std::to_string(t->elts.size()) +
                                     " names");
    for (size_t i = 0; i < t->elts.size(); ++i)
      if (!assign(*t->elts[i], value.elems[i], frame))
        return false;
    return true;
  }
  if (auto *sub = llvm::dyn_cast<ast::SubscriptExpr>(&target))
    return assignSubscript(*sub, value, frame);
  auto *a = llvm::dyn_cast<ast::AttributeExpr>(&target);
  auto *base = a ? llvm::dyn_cast<ast::NameExpr>(a->value.get()) : nullptr;
  if (!base || base->id != "self" || !frame.self)
    return error(target.range, "__init__ may assign local names and "
                               "attributes of self only");
  if (value.kind == CV::Kind::Tensor && value.role == CV::TensorRole::Plain)
    return error(target.range,
                 "a tensor attribute needs a value at run time; wrap it in "
                 "nn.Parameter(...) or use self.register_buffer('" +
                     a->attr + "', ...) so that it comes from the weights");
  if (value.kind == CV::Kind::List || value.kind == CV::Kind::Tuple)
    for (const CV &x : value.elems)
      if (const CV &e = value.str == kDictMarker ? x.elems[1] : x;
          e.kind == CV::Kind::Module || e.kind == CV::Kind::Tensor)
        return error(target.range,
                     value.str == kDictMarker
                         ? "a plain dict of modules or tensors is not "
                           "registered with the module, so its weights would "
                           "be lost; use nn.ModuleDict({...})"
                         : "a plain list of modules or tensors is not "
                           "registered with the module, so its weights would "
                           "be lost; use nn.ModuleList([...])");
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
    if (m.functions.count(n->id))
      return "func." + n->id;
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
  DepthGuard guard(m, e.range);
  if (!guard.ok())
    return std::nullopt;
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
  case ast::Expr::Kind::Dict: {
    // As the list of (key, value) pairs that nn.ModuleDict also takes,
    // marked so that forward reads it as a dict (LowerModules.cpp).
    const auto &d = llvm::cast<ast::DictExpr>(e);
    std::vector<CV> pairs;
    for (size_t i = 0; i < d.keys.size(); ++i) {
      std::optional<CV> k = eval(*d.keys[i], frame);
      if (k && k->kind != CV::Kind::Str) {
        error(d.keys[i]->range, "a dict key must be a string");
        return std::nullopt;
      }
      std::optional<CV> v = k ? eval(*d.values[i], frame) : std::nullopt;
      if (!v)
        return std::nullopt;
      pairs.push_back(makeSeq(CV::Kind::Tuple, {*k, *v}));
    }
    CV dict = makeSeq(CV::Kind::List, std::move(pairs));
    dict.str = kDictMarker;
    return dict;
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
      bool keep = true;
      for (const ast::ExprPtr &cond : c.conds) {
        std::optional<CV> t = eval(*cond, frame);
        if (!t)
          return std::nullopt;
        std::optional<bool> holds = truth(*t, cond->range);
        if (!holds)
          return std::nullopt;
        keep = keep && *holds;
      }
      if (!keep)
        continue;
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
    if (std::optional<double> c = llvm::StringSwitch<std::optional<double>>(path)
                                      .Case("math.pi", M_PI)
                                      .Case("math.e", M_E)
                                      .Case("math.tau", 2 * M_PI)
                                      .Case("math.inf", HUGE_VAL)
                                      .Case("math.nan", NAN)
                                      .Default(std::nullopt))
      return makeFloat(*c);
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
  case ast::Expr::Kind::Subscript:
    return evalSubscript(llvm::cast<ast::SubscriptExpr>(e), frame);
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
    if (v->kind == CV::Kind::Tensor && u.op != ast::UnaryOpKind::Invert) {
      CV out = *v;
      out.role = CV::TensorRole::Plain;
      return out;
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

std::optional<CV> InitEvaluator::evalSubscript(const ast::SubscriptExpr &s,
                                               Frame &frame) {
  std::optional<CV> base = eval(*s.value, frame);
  if (!base)
    return std::nullopt;
  if (base->kind == CV::Kind::Tensor) {
    std::optional<std::vector<int64_t>> shape =
        subscriptShape(base->shape, s.indices, frame);
    if (!shape)
      return std::nullopt;
    return makeTensor(base->elementType, *shape, s.range);
  }
  std::optional<CV> index =
      s.indices.size() == 1 ? eval(*s.indices[0], frame) : std::nullopt;
  if (s.indices.size() == 1 && !index)
    return std::nullopt;
  if (!index || index->kind != CV::Kind::Int ||
      (base->kind != CV::Kind::List && base->kind != CV::Kind::Tuple)) {
    error(s.range, "__init__ can index lists and tuples with an int only");
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
    error(where,
          "the truth of " + describeConst(v) + " is not known at compile time");
    return std::nullopt;
  }
}

std::optional<CV> InitEvaluator::evalBinOp(ast::BinOpKind op, const CV &l,
                                           const CV &r, SourceRange where) {
  using K = ast::BinOpKind;
  bool seq = l.kind == CV::Kind::List || l.kind == CV::Kind::Tuple;
  if (seq && op == K::Add && r.kind == l.kind) {
    if (!charge(l.elems.size() + r.elems.size(), where))
      return std::nullopt;
    CV out = l;
    out.elems.insert(out.elems.end(), r.elems.begin(), r.elems.end());
    return out;
  }
  if (seq && op == K::Mul && r.kind == CV::Kind::Int) {
    uint64_t count = 0;
    if (r.i > 0 &&
        __builtin_mul_overflow(uint64_t(r.i), l.elems.size(), &count))
      count = UINT64_MAX;
    if (!charge(count, where))
      return std::nullopt;
    CV out = makeSeq(l.kind, {});
    for (int64_t i = 0; i < r.i; ++i)
      out.elems.insert(out.elems.end(), l.elems.begin(), l.elems.end());
    return out;
  }
  if ((l.kind == CV::Kind::Tensor && (r.isNumber() || r.kind == CV::Kind::Tensor)) ||
      (r.kind == CV::Kind::Tensor && l.isNumber()))
    return tensorBinOp(op, l, r, where);
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
  int64_t a = l.i, c = r.i, out = 0;
  // Python ints do not overflow; kiln's are int64 as TorchScript's are, and
  // a result that does not fit is an error rather than a wrapped value.
  auto overflow = [&]() -> std::optional<CV> {
    error(where, "integer overflow in __init__: the result does not fit in "
                 "64 bits");
    return std::nullopt;
  };
  switch (op) {
  case K::Add:
    return __builtin_add_overflow(a, c, &out) ? overflow() : makeInt(out);
  case K::Sub:
    return __builtin_sub_overflow(a, c, &out) ? overflow() : makeInt(out);
  case K::Mul:
    return __builtin_mul_overflow(a, c, &out) ? overflow() : makeInt(out);
  case K::FloorDiv:
  case K::Mod: {
    if (c == 0) {
      error(where, "division by zero in __init__");
      return std::nullopt;
    }
    if (c == -1) // x % -1 is 0; MIN // -1 is the one quotient that overflows
      return op == K::Mod ? makeInt(0)
             : a == INT64_MIN ? overflow()
                              : makeInt(-a);
    int64_t q = a / c;
    if ((a % c != 0) && ((a < 0) != (c < 0)))
      --q; // Python floors
    return makeInt(op == K::FloorDiv ? q : a - q * c);
  }
  case K::Pow: {
    if (c < 0)
      return makeFloat(std::pow(double(a), double(c)));
    // Square and multiply: c may be huge, the loop is 64 steps at most.
    int64_t p = 1, base = a;
    for (; c > 0; c >>= 1) {
      if ((c & 1) && __builtin_mul_overflow(p, base, &p))
        return overflow();
      if (c > 1 && __builtin_mul_overflow(base, base, &base))
        return overflow();
    }
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

} // namespace kiln::moduleeval
