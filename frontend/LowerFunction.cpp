//===- LowerFunction.cpp - Function bodies and shared lowering helpers ----===//
//
// FunctionLowering's body lowering (parameters bound, the block lowered,
// early returns made flag variables, the result checked), the small helpers
// that every lowering file uses (locations, constants, errors, describing a
// value), and the PyValue helpers that compare, flatten and rebuild values.
// What to compile and with which types is Lowering.cpp's.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"

#include "frontend/AstPrinter.h"
#include "frontend/EntryPoints.h"
#include "frontend/Prelude.h"
#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace kiln {

//===----------------------------------------------------------------------===//
// PyValue helpers
//===----------------------------------------------------------------------===//

bool samePyValue(const PyValue &a, const PyValue &b) {
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case PyValue::Kind::Value:
    return a.value == b.value;
  case PyValue::Kind::None:
    return true;
  case PyValue::Kind::Str:
  case PyValue::Kind::Global:
  case PyValue::Kind::Undefined:
    return a.str == b.str;
  case PyValue::Kind::Function:
    return a.func == b.func;
  case PyValue::Kind::Object:
    return a.object == b.object;
  case PyValue::Kind::Tuple:
  case PyValue::Kind::Dict:
  case PyValue::Kind::Method:
  case PyValue::Kind::Optional:
    if (a.elems.size() != b.elems.size() || a.str != b.str || a.keys != b.keys)
      return false;
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (!samePyValue(a.elems[i], b.elems[i]))
        return false;
    return true;
  }
  return false;
}

bool flattenValues(const PyValue &v, SmallVectorImpl<Value> &out) {
  if (v.kind == PyValue::Kind::Value) {
    out.push_back(v.value);
    return true;
  }
  if (v.kind == PyValue::Kind::Tuple || v.kind == PyValue::Kind::Optional ||
      v.isDict()) {
    // Every SSA leaf is collected even past one that is not, so that a
    // prelude call passing (1, None) flattens as unflattenValues expects.
    bool all = true;
    for (const PyValue &e : v.elems)
      all &= flattenValues(e, out);
    return all;
  }
  return false;
}

bool containsOptional(const PyValue &v) {
  return v.isOptional() || llvm::any_of(v.elems, [](const PyValue &e) {
           return e.kind != PyValue::Kind::Object && containsOptional(e);
         });
}

bool containsDict(const PyValue &v) {
  return v.isDict() || (v.kind == PyValue::Kind::Tuple &&
                        llvm::any_of(v.elems, [](const PyValue &e) {
                          return containsDict(e);
                        }));
}

PyValue unflattenValues(const PyValue &shape, ArrayRef<Value> &values) {
  if (shape.kind == PyValue::Kind::Value) {
    PyValue r = PyValue::ofValue(values.front());
    values = values.drop_front();
    return r;
  }
  if (shape.kind == PyValue::Kind::Tuple || shape.isDict()) {
    // A dict's keys and a NamedTuple's fields are known while compiling.
    PyValue r = shape;
    for (PyValue &e : r.elems)
      e = unflattenValues(e, values);
    return r;
  }
  if (shape.kind == PyValue::Kind::Optional) {
    PyValue r = PyValue::optional(values[0], values[1]);
    values = values.drop_front(2);
    return r;
  }
  return shape;
}
//===----------------------------------------------------------------------===//
// FunctionLowering: the body
//===----------------------------------------------------------------------===//

static bool containsReturn(const ast::Block &block);

static bool stmtContainsReturn(const ast::Stmt &s) {
  if (llvm::isa<ast::ReturnStmt>(s))
    return true;
  if (auto *i = llvm::dyn_cast<ast::IfStmt>(&s))
    return containsReturn(i->body) || containsReturn(i->orelse);
  if (auto *f = llvm::dyn_cast<ast::ForStmt>(&s))
    return containsReturn(f->body);
  if (auto *w = llvm::dyn_cast<ast::WhileStmt>(&s))
    return containsReturn(w->body);
  return false;
}

static bool containsReturn(const ast::Block &block) {
  return llvm::any_of(
      block, [](const ast::StmtPtr &s) { return stmtContainsReturn(*s); });
}

/// True if every path through `block` ends in a return or a raise.
static bool alwaysReturns(const ast::Block &block) {
  for (const ast::StmtPtr &s : block) {
    // A raise ends its path too: no value is needed after it.
    if (llvm::isa<ast::ReturnStmt, ast::RaiseStmt>(*s))
      return true;
    if (auto *i = llvm::dyn_cast<ast::IfStmt>(s.get()))
      if (alwaysReturns(i->body) && alwaysReturns(i->orelse))
        return true;
  }
  return false;
}

std::optional<PyValue>
FunctionLowering::lowerBody(const ast::FunctionDef &fn,
                            std::vector<PyValue> params) {
  def = &fn;
  if (fn.unsupported) {
    error(fn.unsupported->range, fn.unsupported->message,
          {{fn.nameRange, "in '" + fn.name + "', which is compiled because "
                          "an entry point calls it"}});
    return std::nullopt;
  }
  // A prelude function reached by another path than getOrLowerPrelude
  // (another kind of specialization) still reports at the user's call.
  std::optional<PreludeFrame> adopted;
  if (!prelude && module.activePrelude && isPreludeFunction(fn)) {
    adopted = PreludeFrame{module.activePrelude->callSite, fn.name,
                           preludeFileOf(fn), module.activePrelude};
    prelude = &*adopted;
  }
  auto forget = llvm::make_scope_exit([&] {
    if (adopted)
      prelude = nullptr;
  });
  if (params.size() != fn.params.size()) {
    error(fn.nameRange, "internal error: parameter count mismatch");
    return std::nullopt;
  }
  for (size_t i = 0; i < params.size(); ++i)
    env[fn.params[i].name] = Binding{std::move(params[i]), fn.params[i].range};

  // A return anywhere but as the last statement needs the `$return` flag.
  const ast::Block &body = fn.body;
  bool tailOnly = true;
  for (size_t i = 0; i < body.size(); ++i) {
    bool last = i + 1 == body.size();
    if (last && llvm::isa<ast::ReturnStmt>(*body[i]))
      continue;
    if (stmtContainsReturn(*body[i]))
      tailOnly = false;
  }
  earlyReturn = !tailOnly;
  bool returnsValue = false;
  std::function<void(const ast::Block &)> scan = [&](const ast::Block &blk) {
    for (const ast::StmtPtr &s : blk) {
      if (auto *r = llvm::dyn_cast<ast::ReturnStmt>(s.get()))
        returnsValue |= r->value != nullptr;
      else if (auto *i = llvm::dyn_cast<ast::IfStmt>(s.get())) {
        scan(i->body);
        scan(i->orelse);
      } else if (auto *f = llvm::dyn_cast<ast::ForStmt>(s.get()))
        scan(f->body);
      else if (auto *w = llvm::dyn_cast<ast::WhileStmt>(s.get()))
        scan(w->body);
    }
  };
  scan(body);
  if (returnsValue && !alwaysReturns(body)) {
    error(fn.nameRange, "not every path through '" + fn.name +
                            "' returns a value; add a return at the end");
    return std::nullopt;
  }
  SourceRange start = fn.nameRange;
  // The prelude folds its static ifs and returns only at their ends, where
  // nothing follows, so it needs no `$return` flag.
  if (prelude)
    earlyReturn = false;
  if (earlyReturn) {
    env[kReturnVar] = Binding{PyValue::ofValue(constBool(false, start)), start};
    env[kRetvalVar] = Binding{PyValue::undefined("no return yet", {}), start};
  }

  if (!(prelude ? lowerPreludeBody(*this, body) : lowerFunctionBlock(body)))
    return std::nullopt;

  PyValue result = PyValue::none();
  std::optional<SourceRange> returnRange;
  if (auto it = env.find(kRetvalVar); it != env.end()) {
    result = it->second.value;
    returnRange = it->second.where;
  }
  if (!checkReturnAnnotation(fn, result, returnRange))
    return std::nullopt;
  auto func = llvm::cast<func::FuncOp>(b.getBlock()->getParentOp());
  // The manifest describes an entry's results as tensors and scalars; an
  // Optional would cross the boundary as a bare flag and tensor.
  if (func->hasAttr("kiln.entry") && containsOptional(result)) {
    error(env[kRetvalVar].where, "an entry point cannot return " +
                                     describe(result) +
                                     "; return a tensor in every case");
    return std::nullopt;
  }
  // A list's elements are results of their own, as a tuple's are.
  if (func->hasAttr("kiln.entry")) {
    std::optional<PyValue> leaves =
        entryResultLeaves(*this, result, returnRange.value_or(fn.nameRange));
    if (!leaves)
      return std::nullopt;
    result = std::move(*leaves);
  }
  // A dict of tensors and scalars (Hugging Face's outputs) is its values,
  // in order, each result named by its key in the manifest.
  bool namedResults =
      result.isDict() &&
      llvm::all_of(result.elems, [](const PyValue &e) { return e.isValue(); });
  if (func->hasAttr("kiln.entry") && containsDict(result) && !namedResults) {
    error(env[kRetvalVar].where,
          "an entry point cannot return " + describe(result) +
              "; it may return a dict whose values are tensors and scalars, "
              "or its values as a tuple");
    return std::nullopt;
  }
  if (func->hasAttr("kiln.entry") && namedResults) {
    SmallVector<Attribute> names;
    for (const std::string &key : result.keys)
      names.push_back(b.getStringAttr(key));
    func->setAttr("kiln.result_names", b.getArrayAttr(names));
  }
  SmallVector<Value> results;
  if (!result.isNone() && !flattenValues(result, results)) {
    error(env[kRetvalVar].where,
          "cannot return " + describe(result) +
              "; functions return tensors, scalars, lists and tuples of them");
    return std::nullopt;
  }
  b.create<func::ReturnOp>(loc(fn.range), results);
  SmallVector<Type> resultTypes;
  for (Value v : results)
    resultTypes.push_back(v.getType());
  func.setType(
      b.getFunctionType(func.getFunctionType().getInputs(), resultTypes));
  return result;
}

//===----------------------------------------------------------------------===//
// Small helpers shared by all lowering files
//===----------------------------------------------------------------------===//

std::string FunctionLowering::userMessage(const std::string &why) {
  std::string out;
  size_t i = 0;
  while (i < why.size()) {
    size_t start = why.find("tensor<", i);
    if (start == std::string::npos)
      break;
    size_t depth = 0, end = start;
    for (; end < why.size(); ++end) {
      if (why[end] == '<')
        ++depth;
      else if (why[end] == '>' && --depth == 0)
        break;
    }
    if (end == why.size())
      break;
    std::string spelled = why.substr(start, end + 1 - start);
    out += why.substr(i, start - i);
    Type t = mlir::parseType(spelled, b.getContext());
    out += t ? describeType(t) : spelled;
    i = end + 1;
  }
  return out + why.substr(i);
}

Location FunctionLowering::loc(SourceRange range) {
  // Prelude code is located at the user's call, so that a failed run-time
  // check there names a line the user wrote.
  if (prelude)
    range = prelude->callSite;
  return FileLineColLoc::get(module.fileName, range.begin.line,
                             range.begin.col);
}

bool FunctionLowering::error(SourceRange range, std::string message,
                             std::vector<DiagnosticNote> notes) {
  if (prelude) {
    // The notes point into the prelude, which the user's file cannot
    // show; one note names the prelude functions and the line instead.
    std::string chain = "'" + prelude->function + "'";
    for (const PreludeFrame *f = prelude->parent; f; f = f->parent)
      chain += ", called by '" + f->function + "'";
    notes = {{SourceRange(),
              "in " + chain + ", kiln's prelude decomposition of this call "
              "(frontend/prelude/" + prelude->file + ":" +
              std::to_string(range.begin.line) + ")"}};
    range = prelude->callSite;
  }
  Diagnostic &d = module.diags.error(range, std::move(message));
  d.notes = std::move(notes);
  return false;
}

Value FunctionLowering::constInt(int64_t v, SourceRange where) {
  return b.create<arith::ConstantOp>(loc(where), b.getI64IntegerAttr(v));
}

Value FunctionLowering::constFloat(double v, SourceRange where) {
  return b.create<arith::ConstantOp>(loc(where), b.getF64FloatAttr(v));
}

Value FunctionLowering::constBool(bool v, SourceRange where) {
  return b.create<arith::ConstantOp>(loc(where), b.getBoolAttr(v));
}

std::optional<int64_t> FunctionLowering::constIntValue(Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    if (auto i = llvm::dyn_cast<IntegerAttr>(c.getValue()))
      if (i.getType().isInteger(64))
        return i.getInt();
  return std::nullopt;
}

std::string FunctionLowering::describe(const PyValue &v) {
  switch (v.kind) {
  case PyValue::Kind::Value: {
    Type t = v.value.getType();
    if (t.isInteger(64))
      return "an int";
    if (t.isF64())
      return "a float";
    if (t.isInteger(1))
      return "a bool";
    return "a " + describeType(t);
  }
  case PyValue::Kind::None:
    return "None";
  case PyValue::Kind::Str:
    return "a str";
  case PyValue::Kind::Dict: {
    std::string s = "a dict {";
    for (size_t i = 0; i < v.elems.size(); ++i)
      s += (i ? ", '" : "'") + v.keys[i] + "': " + describe(v.elems[i]);
    return s + "}";
  }
  case PyValue::Kind::Tuple: {
    std::string s = v.isNamedTuple() ? "a NamedTuple '" + v.str + "' ("
                                     : "a tuple (";
    for (size_t i = 0; i < v.elems.size(); ++i)
      s += (i ? ", " : "") + describe(v.elems[i]);
    return s + ")";
  }
  case PyValue::Kind::Global:
    if (llvm::StringRef(v.str).starts_with("builtins."))
      return "the builtin '" + v.str.substr(9) + "'";
    return "'" + v.str + "'";
  case PyValue::Kind::Function:
    return "the function '" + v.func->name + "'";
  case PyValue::Kind::Method:
    return "the method '" + v.str + "'";
  case PyValue::Kind::Undefined:
    return "an undefined value";
  case PyValue::Kind::Object:
    return "the module '" + v.object->typeName + "'";
  case PyValue::Kind::Optional:
    // TorchScript's spelling, and what to do about it: the tensor is only
    // usable where `is not None` has refined it.
    return std::string("an Optional[") +
           (isa<TensorType>(v.payload().getType())
                ? "Tensor"
                : describeType(v.payload().getType())) +
           "] (" + describeType(v.payload().getType()) +
           " or None; test it with 'is not None' first)";
  }
  return "a value";
}

} // namespace kiln
