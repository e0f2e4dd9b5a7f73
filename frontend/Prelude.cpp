//===- Prelude.cpp - The Python prelude: parsing, specializing, lowering --===//
//
// The prelude's files are embedded at build time (PreludeSource.inc, made
// by prelude/EmbedPrelude.cmake) and parsed once per process. A call to a
// prelude function, from an op-table row or from other prelude code, is
// specialized on
//   - the types of its tensor and run-time scalar arguments, as helpers
//     are, and
//   - the values of its constant arguments: Python ints, floats and bools
//     that are arith.constants, None, strings, dtypes, and tuples or
//     literal lists of them,
// so that inside it `dim` is a compile-time int and `if weight is None:` or
// `if reduction == 'mean':` is decided while lowering (lowerPreludeBody
// folds every `if` whose condition folds to a constant). Constant
// arguments are still passed, as callUserFunction passes every argument,
// and bound to fresh constants inside; the inliner drops them.
//
// A specialization is also keyed by the user's call site: the prelude's
// ops are located there (FunctionLowering::loc), so each call gets its own
// copy and a failed run-time check names the user's line. Errors inside
// are reported there too, with a note naming the prelude function
// (FunctionLowering::error).
//
//===----------------------------------------------------------------------===//
#include "frontend/Prelude.h"

#include "frontend/LoweringImpl.h"
#include "frontend/LowerConstructs.h"
#include "frontend/OpTable.h"
#include "frontend/Parser.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <memory>

using namespace mlir;

namespace kiln {

namespace {
struct PreludeFileText {
  const char *name;
  const char *text;
};

// Generated: { "nn.py", R"kiln_prelude(...)kiln_prelude" }, ...
constexpr PreludeFileText kPreludeFiles[] = {
#include "PreludeSource.inc"
};

/// The prelude, parsed once. Sources and ASTs live for the process.
struct ParsedPrelude {
  std::vector<std::unique_ptr<SourceFile>> files;
  std::vector<std::unique_ptr<ast::Module>> modules;
  Globals globals;
  std::map<std::string, const ast::SkippedItem *> skipped;
  std::map<const ast::FunctionDef *, std::string> fileOf;
};

const ParsedPrelude &parsed() {
  static const ParsedPrelude prelude = [] {
    ParsedPrelude p;
    for (const PreludeFileText &f : kPreludeFiles) {
      p.files.push_back(std::make_unique<SourceFile>(f.name, f.text));
      p.modules.push_back(
          std::make_unique<ast::Module>(parseModule(*p.files.back())));
      const ast::Module &m = *p.modules.back();
      collectGlobals(m, p.globals);
      for (const ast::StmtPtr &item : m.items) {
        if (auto *def = llvm::dyn_cast<ast::FunctionDef>(item.get()))
          p.fileOf[def] = f.name;
        if (auto *cls = llvm::dyn_cast<ast::ClassDef>(item.get()))
          for (const ast::StmtPtr &s : cls->body)
            if (auto *def = llvm::dyn_cast<ast::FunctionDef>(s.get()))
              p.fileOf[def] = f.name;
      }
      for (const ast::SkippedItem &s : m.skipped)
        if (!s.name.empty())
          p.skipped[s.name] = &s;
    }
    return p;
  }();
  return prelude;
}
} // namespace

/// The prelude's names, which replace the user's file's while prelude code
/// is lowered: inside it, `F` and `torch` are the prelude's imports and a
/// call finds prelude functions only.
struct PreludeScope {
  std::map<std::string, const ast::FunctionDef *> functions;
  std::map<std::string, const ast::ClassDef *> classes;
  std::map<std::string, std::string> imports;
  std::map<std::string, const ast::SkippedItem *> skipped;
};

namespace {
/// Swaps the prelude's names in for its lifetime, unless they already are.
class ScopeSwap {
public:
  ScopeSwap(ModuleLowering &m, bool needed) : m(m), needed(needed) {
    if (!needed)
      return;
    if (!m.preludeScope) {
      const ParsedPrelude &p = parsed();
      m.preludeScope = std::make_shared<PreludeScope>(
          PreludeScope{p.globals.functions, p.globals.classes,
                       p.globals.imports, p.skipped});
    }
    swap();
  }
  ~ScopeSwap() {
    if (needed)
      swap();
  }

private:
  void swap() {
    PreludeScope &s = *m.preludeScope;
    std::swap(m.functions, s.functions);
    std::swap(m.classes, s.classes);
    std::swap(m.imports, s.imports);
    std::swap(m.skipped, s.skipped);
  }
  ModuleLowering &m;
  bool needed;
};

} // namespace

Attribute foldToConstant(Value v, unsigned depth) {
  Operation *op = v.getDefiningOp();
  if (!op || depth > 16)
    return {};
  if (auto c = llvm::dyn_cast<arith::ConstantOp>(op))
    return c.getValue();
  SmallVector<Attribute> operands;
  for (Value o : op->getOperands()) {
    Attribute a = foldToConstant(o, depth + 1);
    if (!a)
      return {};
    operands.push_back(a);
  }
  SmallVector<OpFoldResult> results;
  if (failed(op->fold(operands, results)) || results.empty())
    return {};
  OpFoldResult r = results[llvm::cast<OpResult>(v).getResultNumber()];
  if (auto a = llvm::dyn_cast<Attribute>(r))
    return a;
  return foldToConstant(llvm::cast<Value>(r), depth + 1);
}

namespace {

/// The value of a constant scalar (`float(2)` too), or null.
Attribute constantOf(Value v) {
  if (!v.getType().isIntOrFloat())
    return {};
  return llvm::dyn_cast_or_null<TypedAttr>(foldToConstant(v));
}
bool isConstantList(Value v) {
  auto ctor = v.getDefiningOp<ListConstructOp>();
  return ctor && llvm::all_of(ctor->getOperands(),
                              [](Value e) { return bool(constantOf(e)); });
}

void keyOfAttr(Attribute a, llvm::raw_ostream &os) {
  if (auto f = llvm::dyn_cast<FloatAttr>(a)) {
    // Hexadecimal, so that 1e-5 and the float nearest it never collide.
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", f.getValueAsDouble());
    os << buf;
  } else if (auto i = llvm::dyn_cast<IntegerAttr>(a)) {
    if (i.getType().isInteger(1))
      os << (i.getValue().isZero() ? "False" : "True");
    else
      os << i.getValue().getSExtValue();
  }
}

/// Appends `v`'s part of a specialization key: a constant's value, a
/// run-time value's type. False for what cannot be passed.
bool keyOf(const PyValue &v, llvm::raw_ostream &os) {
  switch (v.kind) {
  case PyValue::Kind::Value:
    if (Attribute a = constantOf(v.value))
      keyOfAttr(a, os);
    else if (isConstantList(v.value)) {
      os << "[";
      for (Value e : v.value.getDefiningOp()->getOperands()) {
        keyOfAttr(constantOf(e), os);
        os << ",";
      }
      os << "]";
    } else {
      os << v.value.getType();
    }
    return true;
  case PyValue::Kind::None:
    os << "None";
    return true;
  case PyValue::Kind::Str:
    os << "'" << v.str << "'";
    return true;
  case PyValue::Kind::Global:
    os << v.str;
    return true;
  case PyValue::Kind::Optional: // tested at run time inside
    os << "Optional[" << v.payload().getType() << "]";
    return true;
  case PyValue::Kind::Tuple:
    os << "(";
    for (const PyValue &e : v.elems) {
      if (!keyOf(e, os))
        return false;
      os << ",";
    }
    os << ")";
    return true;
  default:
    return false;
  }
}

} // namespace

bool keyOfScalarConstant(Value v, llvm::raw_ostream &os) {
  Attribute a = constantOf(v);
  if (a)
    keyOfAttr(a, os);
  return bool(a);
}

PyValue bindParam(OpBuilder &b, Location loc, const PyValue &arg,
                  ArrayRef<Value> &blockArgs, bool listsAsTuples) {
  if (arg.kind == PyValue::Kind::Tuple || arg.isDict()) {
    // A dict's keys and a NamedTuple's fields stay as they were.
    PyValue r = arg;
    for (PyValue &e : r.elems)
      e = bindParam(b, loc, e, blockArgs, listsAsTuples);
    return r;
  }
  if (arg.isOptional()) { // its presence flag, then its tensor
    PyValue r = PyValue::optional(blockArgs[0], blockArgs[1]);
    blockArgs = blockArgs.drop_front(2);
    return r;
  }
  if (!arg.isValue())
    return arg;
  Value inner = blockArgs.front();
  blockArgs = blockArgs.drop_front();
  auto fresh = [&](Value c) {
    return b
        .create<arith::ConstantOp>(loc, llvm::cast<TypedAttr>(constantOf(c)))
        .getResult();
  };
  if (constantOf(arg.value))
    return PyValue::ofValue(fresh(arg.value));
  if (listsAsTuples && isConstantList(arg.value)) {
    // A literal list of ints (`dim=[0, 1]`) is a tuple inside, which every
    // op taking int[] accepts.
    std::vector<PyValue> elems;
    for (Value e : arg.value.getDefiningOp()->getOperands())
      elems.push_back(PyValue::ofValue(fresh(e)));
    return PyValue::tuple(std::move(elems));
  }
  return PyValue::ofValue(inner);
}

bool isPreludeFunction(const ast::FunctionDef &def) {
  return parsed().fileOf.count(&def) != 0;
}

const ast::FunctionDef *preludeMethod(llvm::StringRef cls,
                                     llvm::StringRef name) {
  auto it = parsed().globals.classes.find(cls.str());
  if (it == parsed().globals.classes.end())
    return nullptr;
  for (const ast::StmtPtr &s : it->second->body)
    if (auto *f = llvm::dyn_cast<ast::FunctionDef>(s.get()))
      if (f->name == name) {
        assert(parsed().fileOf.count(f) && "methods are in fileOf too");
        return f;
      }
  return nullptr;
}

std::string preludeFileOf(const ast::FunctionDef &def) {
  auto it = parsed().fileOf.find(&def);
  return it == parsed().fileOf.end() ? std::string() : it->second;
}

const ast::Module *preludeModule(llvm::StringRef file) {
  const ParsedPrelude &p = parsed();
  for (size_t i = 0; i < p.files.size(); ++i)
    if (p.files[i]->path() == file)
      return p.modules[i].get();
  return nullptr;
}

std::vector<std::pair<std::string, std::string>> preludeSources() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const PreludeFileText &f : kPreludeFiles)
    out.emplace_back(f.name, f.text);
  return out;
}

std::optional<func::FuncOp> ModuleLowering::getOrLowerPrelude(
    const ast::FunctionDef &def, ArrayRef<PyValue> args, SourceRange callSite,
    const ModuleObject *self) {
  // Inside prelude code, the call that matters is still the user's.
  SourceRange site = activePrelude ? activePrelude->callSite : callSite;
  std::string key;
  llvm::raw_string_ostream os(key);
  os << "prelude " << def.name << "@" << site.begin.line << ":"
     << site.begin.col << "(";
  if (self) // a module's attributes are constants of its forward
    os << "self@" << static_cast<const void *>(self) << ";";
  SmallVector<Type> types;
  for (const PyValue &a : args) {
    SmallVector<Value> leaves;
    flattenValues(a, leaves);
    for (Value v : leaves)
      types.push_back(v.getType());
    if (!keyOf(a, os)) {
      Diagnostic &d = diags.error(
          site, "cannot pass this value to kiln's prelude function '" +
                    def.name + "'");
      d.notes.push_back({{},
                         "prelude functions take tensors, numbers, "
                         "strings, dtypes, None and tuples of them"});
      return std::nullopt;
    }
    os << ";";
  }
  os << ")";
  if (auto it = specializations.find(key); it != specializations.end())
    return it->second;
  if (inProgress.count({&def, nullptr})) {
    diags.error(site, "internal error: kiln's prelude function '" + def.name +
                          "' calls itself");
    return std::nullopt;
  }
  DepthGuard guard(*this, site);
  if (!guard.ok())
    return std::nullopt;

  // A module's forward is "Linear.forward" to errors and is named after
  // its state_dict() prefix in the IR, as a user module's is.
  std::string qualified = self ? self->typeName + "." + def.name : def.name;
  std::string base = self && !self->prefix.empty()
                         ? self->prefix + def.name
                         : "prelude_" + qualified,
              name = base;
  for (int i = 1; module.lookupSymbol(name); ++i)
    name = base + "_" + std::to_string(i);
  OpBuilder b(&context);
  b.setInsertionPointToEnd(module.getBody());
  Location siteLoc =
      FileLineColLoc::get(fileName, site.begin.line, site.begin.col);
  auto func =
      b.create<func::FuncOp>(siteLoc, name, b.getFunctionType(types, {}));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  OpBuilder fb(&context);
  fb.setInsertionPointToStart(entry);
  SmallVector<Value> blockArgs(entry->getArguments().begin(),
                               entry->getArguments().end());
  ArrayRef<Value> rest(blockArgs);
  std::vector<PyValue> params;
  if (self)
    params.push_back(PyValue::ofObject(self));
  for (const PyValue &a : args)
    params.push_back(bindParam(fb, siteLoc, a, rest));

  PreludeFrame frame{site, qualified, preludeFileOf(def), activePrelude};
  ScopeSwap scope(*this, activePrelude == nullptr);
  const PreludeFrame *outer = activePrelude;
  activePrelude = &frame;
  FunctionLowering fl(*this, fb);
  fl.prelude = &frame;
  inProgress.insert({&def, nullptr});
  std::optional<PyValue> result = fl.lowerBody(def, std::move(params));
  inProgress.erase({&def, nullptr});
  activePrelude = outer;
  if (!result)
    return std::nullopt;
  resultShapes[name] = *result;
  specializations[key] = func;
  return func;
}

//===----------------------------------------------------------------------===//
// Static ifs
//===----------------------------------------------------------------------===//

namespace {

/// Past this many iterations a loop over constants stays a loop; the
/// prelude's loops run over dims and output bins, far fewer.
constexpr size_t kMaxUnrolledIterations = 1024;

bool hasReturn(const ast::Block &block);

bool hasReturn(const ast::Stmt &s) {
  if (llvm::isa<ast::ReturnStmt>(s))
    return true;
  if (auto *i = llvm::dyn_cast<ast::IfStmt>(&s))
    return hasReturn(i->body) || hasReturn(i->orelse);
  if (auto *f = llvm::dyn_cast<ast::ForStmt>(&s))
    return hasReturn(f->body);
  if (auto *w = llvm::dyn_cast<ast::WhileStmt>(&s))
    return hasReturn(w->body);
  return false;
}

bool hasReturn(const ast::Block &block) {
  return llvm::any_of(block,
                      [](const ast::StmtPtr &s) { return hasReturn(*s); });
}

enum class Flow { Failed, Next, Returned };

/// Whether `test` is decided while compiling, and how; `and`/`or` fold
/// when the side that decides them does. False in `failed` after an error.
std::optional<bool> staticTest(FunctionLowering &fl, const ast::Expr &test,
                               bool &failed) {
  if (auto *op = llvm::dyn_cast<ast::BoolOpExpr>(&test)) {
    bool isAnd = op->op == ast::BoolOpKind::And;
    std::optional<bool> l = staticTest(fl, *op->lhs, failed);
    if (failed || !l)
      return std::nullopt;
    if (*l != isAnd) // False and ..., True or ...
      return *l;
    return staticTest(fl, *op->rhs, failed);
  }
  MaybeValue c = fl.lowerExpr(test);
  if (!c) {
    failed = true;
    return std::nullopt;
  }
  return staticTruth(*c);
}

Flow lowerStatic(FunctionLowering &fl, const ast::Block &block);

/// The values a `for` over `range(...)` of constants, or over a tuple,
/// takes: such a loop is unrolled, so that its variable is a constant in
/// each copy of the body (dims, bins) and the ifs inside still fold.
/// nullopt when the loop runs at run time; `failed` is set after an error.
std::optional<std::vector<PyValue>>
staticIterations(FunctionLowering &fl, const ast::ForStmt &f, bool &failed) {
  std::set<std::string> names;
  bool hasBreak = false, hasContinue = false, hasReturn = false;
  collectAssigned(f.body, names, hasBreak, hasContinue, hasReturn, false);
  if (hasBreak || hasContinue)
    return std::nullopt;
  auto *call = llvm::dyn_cast<ast::CallExpr>(f.iter.get());
  auto *callee = call ? llvm::dyn_cast<ast::NameExpr>(call->func.get())
                      : nullptr;
  if (callee && callee->id == "range") {
    SmallVector<int64_t, 3> bounds;
    for (const ast::ExprPtr &a : call->args) {
      MaybeValue v = fl.lowerExpr(*a);
      if (!v) {
        failed = true;
        return std::nullopt;
      }
      std::optional<int64_t> c =
          v->isValue() ? fl.constIntValue(v->value) : std::nullopt;
      if (!c || !call->keywords.empty() || call->args.size() > 3)
        return std::nullopt; // lowerFor reports or lowers it
      bounds.push_back(*c);
    }
    if (bounds.empty() || (bounds.size() == 3 && bounds[2] == 0))
      return std::nullopt;
    int64_t start = bounds.size() == 1 ? 0 : bounds[0];
    int64_t stop = bounds.size() == 1 ? bounds[0] : bounds[1];
    int64_t step = bounds.size() == 3 ? bounds[2] : 1;
    std::vector<PyValue> out;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
      if (out.size() == kMaxUnrolledIterations)
        return std::nullopt;
      out.push_back(PyValue::ofValue(fl.constInt(i, f.iter->range)));
    }
    return out;
  }
  if (!llvm::isa<ast::TupleExpr, ast::NameExpr>(*f.iter))
    return std::nullopt;
  MaybeValue iter = fl.lowerExpr(*f.iter);
  if (!iter) {
    failed = true;
    return std::nullopt;
  }
  if (iter->kind == PyValue::Kind::Tuple)
    return iter->elems;
  return std::nullopt;
}

Flow lowerStatic(FunctionLowering &fl, const ast::Block &block) {
  for (const ast::StmtPtr &s : block) {
    if (auto *f = llvm::dyn_cast<ast::ForStmt>(s.get())) {
      bool failed = false;
      std::optional<std::vector<PyValue>> items =
          staticIterations(fl, *f, failed);
      if (failed)
        return Flow::Failed;
      if (items) {
        for (const PyValue &item : *items) {
          if (!fl.lowerAssign(*f->target, item, f->target->range))
            return Flow::Failed;
          Flow body = lowerStatic(fl, f->body);
          if (body != Flow::Next)
            return body;
        }
        continue;
      }
    }
    if (auto *i = llvm::dyn_cast<ast::IfStmt>(s.get())) {
      bool failed = false;
      std::optional<bool> taken = staticTest(fl, *i->test, failed);
      if (failed)
        return Flow::Failed;
      if (taken) {
        Flow f = lowerStatic(fl, *taken ? i->body : i->orelse);
        if (f != Flow::Next)
          return f;
        continue;
      }
    }
    if (auto *r = llvm::dyn_cast<ast::RaiseStmt>(s.get())) {
      // Reached under no run-time condition (those ifs go to lowerStmt), a
      // raise fails whatever the inputs: the call is wrong, and says so now.
      if (std::optional<RaisedException> raised = raisedException(fl, *r))
        fl.error(s->range, raised->message.empty() ? raised->type
                                                   : raised->message);
      return Flow::Failed;
    }
    // A return under a run-time condition would need the `$return` flag,
    // which prelude code does without (lowerBody); write it as a where().
    if (!llvm::isa<ast::ReturnStmt>(*s) && hasReturn(*s)) {
      fl.error(s->range,
               "this call needs constant arguments: kiln's prelude decides "
               "this condition while compiling, but it depends on a value "
               "known only at run time");
      return Flow::Failed;
    }
    if (!fl.lowerStmt(*s))
      return Flow::Failed;
    if (llvm::isa<ast::ReturnStmt>(*s))
      return Flow::Returned;
  }
  return Flow::Next;
}
} // namespace

bool lowerPreludeBody(FunctionLowering &fl, const ast::Block &body) {
  return lowerStatic(fl, body) != Flow::Failed;
}

std::optional<MaybeValue> lowerPreludeIntrinsic(FunctionLowering &fl,
                                                llvm::StringRef path,
                                                const ast::CallExpr &call) {
  bool isDescribe = path == "kiln_table.describe";
  if ((!isDescribe && path != "kiln_table.known") || call.args.size() != 1 ||
      !call.keywords.empty())
    return std::nullopt;
  MaybeValue v = fl.lowerExpr(*call.args[0]);
  if (!v)
    return MaybeValue();
  // describe(x): the text kiln's own errors use for a value ("a Tensor[f32,
  // 2x5]"), so that a decomposition's checks say what a C++ builder's would.
  if (isDescribe)
    return MaybeValue(PyValue::ofStr(fl.describe(*v)));
  // known(n): whether a number is known while compiling (a static dim), so
  // that a decomposition can choose a cheaper form for static sizes;
  // always True in eager Python, where every size is known.
  bool known = !v->isValue() || bool(constantOf(v->value));
  return MaybeValue(PyValue::ofValue(fl.constBool(known, call.range)));
}

//===----------------------------------------------------------------------===//
// Op-table rows
//===----------------------------------------------------------------------===//

namespace ops {

std::optional<Value> lowerViaPrelude(OpArgs &a) {
  const ast::FunctionDef &def = *a.row.impl;
  const std::vector<Param> &params = a.row.schema().params;
  // The row's schema is the function's signature: the same parameters in
  // the same order (`self` is the prelude's `input`).
  bool same = def.params.size() == params.size();
  for (size_t i = 0; same && i < params.size(); ++i)
    same = params[i].name == "self" || params[i].name == def.params[i].name;
  if (!same) {
    a.fl.error(a.where, "internal error: kiln's prelude function '" +
                            def.name +
                            "' does not take the parameters of its schema " +
                            a.row.schema().text());
    return std::nullopt;
  }
  // The schema's parameters only: F.X's `inplace=` changes nothing here.
  std::vector<PyValue> args;
  for (size_t i = 0; i < params.size(); ++i)
    args.push_back(a.args[i].value);
  std::optional<func::FuncOp> callee =
      a.fl.module.getOrLowerPrelude(def, args, a.where);
  if (!callee)
    return std::nullopt;
  PyValue r = a.fl.emitHelperCall(*callee, args, a.where);
  // split() and its kind return a tuple of tensors, size() one of ints
  // (none for a 0-d tensor); the binder passes the tuple on.
  if (r.kind == PyValue::Kind::Tuple &&
      llvm::all_of(r.elems, [](const PyValue &e) { return e.isValue(); })) {
    a.tupleResult = r;
    return r.elems.empty() ? a.fl.constInt(0, a.where) : r.elems.front().value;
  }
  if (!r.isValue()) {
    a.fl.error(a.where, "internal error: kiln's prelude function '" +
                            def.name + "' returns " + a.fl.describe(r));
    return std::nullopt;
  }
  return r.value;
}

} // namespace ops

} // namespace kiln
