//===- OpBinder.cpp - Binding calls to the op table's schemas -------------===//
//
// Every call the op table answers is bound here, the way Python binds a
// call to a signature: the receiver fills `self`, positional arguments fill
// the other positional parameters in order, keywords fill parameters by
// name (`input=` is `self`, as PyTorch's Python bindings accept), and
// defaults fill the rest. Each argument is then converted by its declared
// type. Every mistake is reported in one format, naming the spelling the
// user wrote and the schema, at the argument that is wrong.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"
#include "frontend/OpTable.h"
#include "frontend/Prelude.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

namespace {
/// The parameters a spelling binds: the schema's, plus `inplace` for the
/// F.X spellings that take it (it changes aliasing only, which values in
/// the IR do not have).
std::vector<ops::Param> paramsFor(const ops::Row &row, ops::Spelling s) {
  std::vector<ops::Param> params = row.schema().params;
  if (s == ops::Functional && (row.spellings & ops::FInplaceArg))
    params.push_back({"inplace", ops::ParamType::Bool, "False", false});
  return params;
}

std::string schemaText(const ops::Row &row, ops::Spelling s) {
  ops::Schema schema = row.schema();
  schema.params = paramsFor(row, s);
  return schema.text();
}

bool isScalarValue(const PyValue &v) {
  return v.isValue() && isScalarType(v.value.getType());
}
bool isTensorValue(const PyValue &v) {
  return v.isValue() && llvm::isa<RankedTensorType>(v.value.getType());
}

/// The value a schema default's text denotes.
PyValue defaultValue(FunctionLowering &fl, const std::string &text,
                     SourceRange where) {
  llvm::StringRef t(text);
  if (t == "None")
    return PyValue::none();
  if (t == "[]")
    return PyValue::tuple({});
  if (t == "True" || t == "False")
    return PyValue::ofValue(fl.constBool(t == "True", where));
  if (t.size() >= 2 && t.front() == '\'' && t.back() == '\'')
    return PyValue::ofStr(t.drop_front().drop_back().str());
  int64_t i;
  if (!t.getAsInteger(10, i))
    return PyValue::ofValue(fl.constInt(i, where));
  double d = 0;
  bool bad = t.getAsDouble(d);
  assert(!bad && "a schema default is None, a bool, a string or a number");
  (void)bad;
  return PyValue::ofValue(fl.constFloat(d, where));
}
} // namespace

/// Whether `v` can bind a parameter of type `t`; converts it in place
/// (an int for a float parameter becomes a float).
static bool convertArg(FunctionLowering &fl, ops::ParamType t, PyValue &v,
                       bool firstTensor, SourceRange where) {
  using ops::ParamType;
  Type type = v.isValue() ? v.value.getType() : Type();
  switch (t) {
  case ParamType::OptTensor:
    // An Optional is checked by the row (optionalArgRefused).
    if (v.isNone() || v.isOptional())
      return true;
    [[fallthrough]];
  case ParamType::Tensor:
    return isTensorValue(v) || (!firstTensor && isScalarValue(v));
  case ParamType::OptScalar:
    if (v.isNone())
      return true;
    [[fallthrough]];
  case ParamType::Scalar:
    return isScalarValue(v);
  case ParamType::OptInt:
    if (v.isNone())
      return true;
    [[fallthrough]];
  case ParamType::Int:
    return type && type.isInteger(64);
  case ParamType::Float:
    if (type && type.isInteger(64))
      v = PyValue::ofValue(fl.castScalar(v.value, fl.b.getF64Type(), where));
    return v.isValue() && v.value.getType().isF64();
  case ParamType::Bool:
    return type && type.isInteger(1);
  case ParamType::OptIntList:
    if (v.isNone())
      return true;
    [[fallthrough]];
  case ParamType::IntList:
    return v.kind == PyValue::Kind::Tuple ||
           (type && (llvm::isa<ListType>(type) || type.isInteger(64)));
  case ParamType::OptDtype:
    return v.isNone() || dtypeFromGlobal(fl.b, v);
  case ParamType::OptStr:
    if (v.isNone())
      return true;
    [[fallthrough]];
  case ParamType::Str:
    return v.kind == PyValue::Kind::Str;
  case ParamType::OptTensorList:
    // None stands for a whole dim (index_put's `x[:, i]` is (None, i)).
    if (v.kind == PyValue::Kind::Tuple)
      return llvm::all_of(v.elems, [](const PyValue &e) {
        return e.isNone() || isTensorValue(e);
      });
    [[fallthrough]];
  case ParamType::TensorList:
    if (v.kind == PyValue::Kind::Tuple)
      return llvm::all_of(v.elems, isTensorValue);
    if (auto l = llvm::dyn_cast_or_null<ListType>(type))
      return llvm::isa<RankedTensorType>(l.getElementType());
    return false;
  case ParamType::OptIntPair:
    if (v.isNone())
      return true;
    [[fallthrough]];
  case ParamType::IntPair:
    return v.kind == PyValue::Kind::Tuple ||
           (type && (llvm::isa<ListType>(type) || type.isInteger(64)));
  case ParamType::OptBool:
    return v.isNone() || (type && type.isInteger(1));
  case ParamType::OptDevice:
    return v.isNone();
  case ParamType::OptLayout:
    return v.isNone() ||
           (v.kind == PyValue::Kind::Global && v.str == "torch.strided");
  }
  return false;
}

static const char *expected(ops::ParamType t, bool firstTensor) {
  using ops::ParamType;
  switch (t) {
  case ParamType::Tensor:
    return firstTensor ? "a Tensor" : "a Tensor or a number";
  case ParamType::OptTensor:
    return "a Tensor or None";
  case ParamType::Scalar:
    return "a number";
  case ParamType::OptScalar:
    return "a number or None";
  case ParamType::Int:
    return "an int";
  case ParamType::OptInt:
    return "an int or None";
  case ParamType::OptIntList:
    return "a list of ints or None";
  case ParamType::Float:
    return "a float";
  case ParamType::Bool:
    return "a bool";
  case ParamType::IntList:
    return "a list of ints";
  case ParamType::OptDtype:
    return "a dtype such as torch.float32, or None";
  case ParamType::Str:
    return "a string";
  case ParamType::OptStr:
    return "a string or None";
  case ParamType::TensorList:
    return "a list of Tensors";
  case ParamType::OptTensorList:
    return "a tuple or list of Tensors and Nones";
  case ParamType::IntPair:
    return "an int or a pair of ints";
  case ParamType::OptIntPair:
    return "an int, a pair of ints or None";
  case ParamType::OptBool:
    return "a bool or None";
  case ParamType::OptDevice:
    return "a device or None";
  case ParamType::OptLayout:
    return "torch.strided or None";
  }
  return "?";
}

namespace {
/// A call's arguments, lowered once in source order, so that trying the
/// overloads of a name does not lower (or report errors in) them twice.
struct LoweredCall {
  std::vector<ops::BoundArg> positional;
  std::vector<std::pair<const ast::Keyword *, ops::BoundArg>> keywords;
  SourceRange selfRange;
};

/// Why a call does not bind an overload: where, and the message.
struct BindError {
  SourceRange at;
  std::string what;
};

bool isIntList(ops::ParamType t) {
  return t == ops::ParamType::IntList || t == ops::ParamType::OptIntList;
}
} // namespace

/// Binds a lowered call to one row's schema, filling `args`; the error,
/// if it does not bind.
static std::optional<BindError> bindRow(FunctionLowering &fl, ops::Spelling s,
                                        std::optional<PyValue> self,
                                        const LoweredCall &call,
                                        ops::OpArgs &args) {
  const ops::Row &row = args.row;
  std::vector<ops::Param> params = paramsFor(row, s);
  int selfIndex = self ? row.schema().find("self") : -1;
  assert((!self || selfIndex >= 0) && "a method row has a self parameter");
  std::vector<int> open; // the positional parameters the receiver left
  for (size_t i = 0; i < params.size(); ++i)
    if (static_cast<int>(i) != selfIndex && !params[i].keywordOnly)
      open.push_back(i);
  std::vector<std::optional<ops::BoundArg>> bound(params.size());
  std::vector<ops::BoundArg> positional = call.positional;
  // PyTorch's varargs int lists: x.view(2, 3) is x.view((2, 3)) when the
  // list is the only positional parameter.
  if (open.size() == 1 && isIntList(params[open[0]].type) &&
      positional.size() > 1) {
    std::vector<PyValue> items;
    for (const ops::BoundArg &a : positional)
      items.push_back(a.value);
    SourceRange r =
        SourceRange::cover(positional.front().range, positional.back().range);
    positional = {{PyValue::tuple(std::move(items)), r, true}};
  }
  // PyTorch's varargs tensors: einsum('ij,jk', a, b) is einsum('ij,jk',
  // (a, b)) when the Tensor[] is the last positional parameter.
  if (!open.empty() &&
      params[open.back()].type == ops::ParamType::TensorList &&
      (positional.size() > open.size() ||
       (positional.size() == open.size() &&
        isTensorValue(positional.back().value)))) {
    size_t first = open.size() - 1;
    std::vector<PyValue> items;
    for (size_t i = first; i < positional.size(); ++i)
      items.push_back(positional[i].value);
    SourceRange r =
        SourceRange::cover(positional[first].range, positional.back().range);
    positional.resize(first);
    positional.push_back({PyValue::tuple(std::move(items)), r, true});
  }
  if (positional.size() > open.size())
    return BindError{positional[open.size()].range,
                     "takes " + std::to_string(open.size()) +
                         " positional arguments but " +
                         std::to_string(positional.size()) + " were given"};
  for (size_t i = 0; i < positional.size(); ++i)
    bound[open[i]] = positional[i];
  for (const auto &[k, v] : call.keywords) {
    int i = row.schema().find(k->name == "input" && !self ? "self" : k->name);
    if (i < 0 && k->name == "inplace" && params.back().name == "inplace")
      i = params.size() - 1;
    if (i < 0 || i == selfIndex)
      return BindError{k->range,
                       "got an unexpected keyword argument '" + k->name + "'"};
    if (bound[i])
      return BindError{k->range,
                       "got multiple values for argument '" + k->name + "'"};
    bound[i] = v;
  }
  int firstTensor = -1;
  for (size_t i = 0; i < params.size(); ++i) {
    const ops::Param &p = params[i];
    bool isFirst = false;
    if (firstTensor < 0 && p.type == ops::ParamType::Tensor)
      firstTensor = i, isFirst = true;
    ops::BoundArg arg;
    if (static_cast<int>(i) == selfIndex)
      arg = {*self, call.selfRange, true};
    else if (bound[i])
      arg = *bound[i];
    else if (!p.defaultText.empty())
      arg = {defaultValue(fl, p.defaultText, args.where), args.where, false};
    else
      return BindError{args.where, "is missing the argument '" + p.name + "'"};
    if (!convertArg(fl, p.type, arg.value, isFirst, arg.range))
      return BindError{arg.range, "argument '" + p.name + "' must be " +
                                      expected(p.type, isFirst) + ", got " +
                                      fl.describe(arg.value)};
    args.args.push_back(std::move(arg));
  }
  return std::nullopt;
}

/// Whether a bound call passes an Optional[Tensor] known only at run time
/// to a row that cannot take one, reporting it. A prelude decomposition
/// tests it at run time (`if weight is not None:` becomes a run-time
/// branch); a C++ builder or a kiln op needs to know while compiling
/// whether the tensor is there.
static bool optionalArgRefused(FunctionLowering &fl, const ops::OpArgs &args) {
  if (args.row.build == ops::lowerViaPrelude)
    return false;
  for (size_t i = 0; i < args.args.size(); ++i) {
    const ops::BoundArg &a = args.args[i];
    if (!a.value.isOptional())
      continue;
    fl.error(a.range, args.spelling + "() cannot take " + fl.describe(a.value) +
                          " for '" + args.row.schema().params[i].name +
                          "': its lowering needs to know while compiling "
                          "whether the tensor is there");
    return true;
  }
  return false;
}

/// An argument as the binder reads it. A list literal is read as its
/// items, as a tuple is: a Python list need not have one element type, so
/// `torch.einsum(eq, [x, m])` may mix ranks that a kiln list cannot hold.
static MaybeValue lowerArg(FunctionLowering &fl, const ast::Expr &e) {
  auto *list = llvm::dyn_cast<ast::ListExpr>(&e);
  if (!list || list->elts.empty())
    return fl.lowerExpr(e);
  std::vector<PyValue> items;
  for (const ast::ExprPtr &x : list->elts) {
    MaybeValue v = fl.lowerExpr(*x);
    if (!v)
      return std::nullopt;
    items.push_back(*v);
  }
  return PyValue::tuple(std::move(items));
}

MaybeValue FunctionLowering::callOp(const ops::Row &row, ops::Spelling s,
                                    const std::string &spelled,
                                    std::optional<PyValue> self,
                                    const CallArgs &call) {
  LoweredCall lowered;
  lowered.selfRange = call.selfRange;
  for (const ast::Expr *a : call.args) {
    MaybeValue v = lowerArg(*this, *a);
    if (!v)
      return std::nullopt;
    lowered.positional.push_back({*v, a->range, true});
  }
  int device = row.schema().find("device");
  for (const ast::Keyword *k : call.keywords) {
    // kiln has no device values (x.device, torch.device('cpu')), and a
    // Device? argument is not used: it is bound without being lowered.
    if (k->name == "device" && device >= 0 &&
        row.schema().params[device].type == ops::ParamType::OptDevice) {
      lowered.keywords.push_back({k, {PyValue::none(), k->value->range, true}});
      continue;
    }
    MaybeValue v = lowerArg(*this, *k->value);
    if (!v)
      return std::nullopt;
    lowered.keywords.push_back({k, {*v, k->value->range, true}});
  }
  std::optional<BindError> first;
  for (const ops::Row *r : ops::overloads(row, s)) {
    ops::OpArgs args(*this, *r, spelled, call.range);
    std::optional<BindError> e = bindRow(*this, s, self, lowered, args);
    if (!e) {
      if (optionalArgRefused(*this, args))
        return std::nullopt;
      std::optional<Value> v = ops::lowerRow(args);
      if (!v)
        return std::nullopt;
      return args.tupleResult ? *args.tupleResult : PyValue::ofValue(*v);
    }
    if (!first)
      first = e;
  }
  error(first->at, spelled + "() " + first->what + "; the schema is " +
                       schemaText(row, s));
  return std::nullopt;
}

bool FunctionLowering::callInPlace(const ast::CallExpr &call, MaybeValue &out) {
  auto *attr = llvm::dyn_cast<ast::AttributeExpr>(call.func.get());
  auto *name =
      attr ? llvm::dyn_cast<ast::NameExpr>(attr->value.get()) : nullptr;
  if (!name || !llvm::StringRef(attr->attr).ends_with("_"))
    return false;
  std::string op = attr->attr.substr(0, attr->attr.size() - 1);
  const ops::Row *row = ops::lookup(ops::InPlace, op);
  if (!row)
    return false;
  out = inPlace(*row, *name, "Tensor." + attr->attr, CallArgs::of(call));
  return true;
}

MaybeValue FunctionLowering::inPlace(const ops::Row &row,
                                     const ast::NameExpr &receiver,
                                     const std::string &spelled,
                                     const CallArgs &call) {
  MaybeValue self = lowerName(receiver);
  if (!self)
    return std::nullopt;
  if (!isTensorValue(*self)) {
    error(receiver.range, "the receiver of " + spelled +
                              "() must be a Tensor, got " + describe(*self));
    return std::nullopt;
  }
  MaybeValue r = callOp(row, ops::Method, spelled, *self, call);
  if (!r)
    return std::nullopt;
  // In place, the result keeps the receiver's dtype and shape: PyTorch
  // refuses a float result into an int tensor and a broadcast that grows it.
  auto selfType = llvm::cast<RankedTensorType>(self->value.getType());
  auto rType = llvm::cast<RankedTensorType>(r->value.getType());
  bool floatIntoInt = llvm::isa<FloatType>(rType.getElementType()) &&
                      !llvm::isa<FloatType>(selfType.getElementType());
  bool grows = rType.getRank() != selfType.getRank();
  for (int64_t i = 0; !grows && i < rType.getRank(); ++i)
    grows = !selfType.isDynamicDim(i) && !rType.isDynamicDim(i) &&
            rType.getDimSize(i) != selfType.getDimSize(i);
  if (floatIntoInt || grows) {
    error(call.range, spelled + "() cannot store its result " +
                          describeType(rType) + " into " +
                          describeType(selfType) + " in place");
    return std::nullopt;
  }
  Value v = r->value;
  if (rType.getElementType() != selfType.getElementType())
    v = b.create<CastOp>(loc(call.range),
                         withElementType(rType, selfType.getElementType()), v);
  if (v.getType() != selfType)
    v = *castForMerge(v, selfType, call.range);
  env[receiver.id] = Binding{PyValue::ofValue(v), call.range};
  return PyValue::ofValue(v);
}

std::optional<Value> FunctionLowering::emitActivation(llvm::StringRef name,
                                                      Value x,
                                                      SourceRange where) {
  // nn.Module activations share the rows of F.X; "gelu_tanh" is
  // F.gelu(approximate='tanh').
  bool tanh = name == "gelu_tanh";
  const ops::Row *row = ops::lookup(ops::Functional, tanh ? "gelu" : name);
  assert(row && "every nn.Module activation has a row");
  ops::OpArgs args(*this, *row, ("F." + name).str(), where);
  for (const ops::Param &p : row->schema().params) {
    PyValue v = args.args.empty() ? PyValue::ofValue(x)
                : tanh && p.name == "approximate"
                    ? PyValue::ofStr("tanh")
                    : defaultValue(*this, p.defaultText, where);
    args.args.push_back({v, where, args.args.empty()});
  }
  return ops::lowerRow(args);
}

} // namespace kiln

namespace kiln::ops {

const BoundArg &OpArgs::arg(llvm::StringRef name) const {
  int i = row.schema().find(name);
  assert(i >= 0 && "builders ask for parameters their schema declares");
  return args[i];
}

Value OpArgs::value(llvm::StringRef name) const {
  const BoundArg &a = arg(name);
  return a.value.isValue() ? a.value.value : Value();
}

bool OpArgs::isNone(llvm::StringRef name) const {
  return arg(name).value.isNone();
}

std::optional<double> OpArgs::constFloat(llvm::StringRef name) {
  Value v = value(name);
  if (v)
    if (auto c = v.getDefiningOp<arith::ConstantOp>()) {
      if (auto f = llvm::dyn_cast<FloatAttr>(c.getValue()))
        return f.getValueAsDouble();
      if (auto i = llvm::dyn_cast<IntegerAttr>(c.getValue()))
        return static_cast<double>(i.getType().isInteger(1)
                                       ? i.getValue().getZExtValue()
                                       : i.getValue().getSExtValue());
    }
  fl.error(range(name), spelling + "() argument '" + name.str() +
                            "' must be a constant here, got " +
                            fl.describe(arg(name).value));
  return std::nullopt;
}

std::string OpArgs::str(llvm::StringRef name) const {
  return arg(name).value.str;
}

std::optional<int64_t> OpArgs::constInt(llvm::StringRef name) {
  if (Value v = value(name))
    if (std::optional<int64_t> c = fl.constIntValue(v))
      return c;
  fl.error(range(name), spelling + "() argument '" + name.str() +
                            "' must be a constant int here, got " +
                            fl.describe(arg(name).value));
  return std::nullopt;
}

std::optional<int64_t> OpArgs::dim(llvm::StringRef name, int64_t rank) {
  std::optional<int64_t> d = constInt(name);
  if (!d)
    return std::nullopt;
  return fl.normalizeDim(*d, rank, range(name));
}

std::optional<bool> OpArgs::flag(llvm::StringRef name) {
  if (Value v = value(name))
    if (auto c = v.getDefiningOp<arith::ConstantOp>())
      if (auto i = llvm::dyn_cast<IntegerAttr>(c.getValue()))
        return i.getValue().getBoolValue();
  fl.error(range(name), spelling + "() argument '" + name.str() +
                            "' must be True or False here, got " +
                            fl.describe(arg(name).value));
  return std::nullopt;
}

std::optional<std::vector<Value>> OpArgs::intValues(llvm::StringRef name) {
  const PyValue &v = arg(name).value;
  std::vector<PyValue> items;
  if (v.kind == PyValue::Kind::Tuple) {
    items = v.elems;
  } else if (v.isValue() && llvm::isa<ListType>(v.value.getType())) {
    auto ctor = v.value.getDefiningOp<ListConstructOp>();
    if (!ctor) {
      fl.error(range(name), spelling + "() argument '" + name.str() +
                                "' must be a tuple or a list literal here");
      return std::nullopt;
    }
    for (Value x : ctor->getOperands())
      items.push_back(PyValue::ofValue(x));
  } else {
    items.push_back(v);
  }
  std::vector<Value> out;
  for (const PyValue &i : items) {
    if (!i.isValue() || !i.value.getType().isInteger(64)) {
      fl.error(range(name), spelling + "() argument '" + name.str() +
                                "' must be a list of ints, got " +
                                fl.describe(v));
      return std::nullopt;
    }
    out.push_back(i.value);
  }
  return out;
}

std::optional<std::vector<int64_t>> OpArgs::ints(llvm::StringRef name) {
  std::optional<std::vector<Value>> values = intValues(name);
  if (!values)
    return std::nullopt;
  std::vector<int64_t> out;
  for (Value v : *values) {
    std::optional<int64_t> c = fl.constIntValue(v);
    if (!c) {
      fl.error(range(name), spelling + "() argument '" + name.str() +
                                "' must be constant ints here, got " +
                                fl.describe(arg(name).value));
      return std::nullopt;
    }
    out.push_back(*c);
  }
  return out;
}

Type OpArgs::dtype(llvm::StringRef name) const {
  return dtypeFromGlobal(fl.b, arg(name).value);
}

std::optional<SmallVector<int64_t, 2>>
OpArgs::pair(llvm::StringRef name, ArrayRef<int64_t> fallback) {
  if (isNone(name))
    return SmallVector<int64_t, 2>(fallback);
  std::optional<std::vector<int64_t>> v = ints(name);
  if (!v)
    return std::nullopt;
  // [] is TorchScript's spelling of "the kernel size" for pool strides.
  if (v->empty() && !fallback.empty())
    return SmallVector<int64_t, 2>(fallback);
  if (v->size() == 1)
    return SmallVector<int64_t, 2>{(*v)[0], (*v)[0]};
  if (v->size() == 2)
    return SmallVector<int64_t, 2>{(*v)[0], (*v)[1]};
  fl.error(range(name), spelling + "() argument '" + name.str() +
                            "' must be an int or a pair of ints, got " +
                            std::to_string(v->size()) + " values");
  return std::nullopt;
}

std::optional<std::vector<Value>> OpArgs::tensors(llvm::StringRef name) {
  const PyValue &v = arg(name).value;
  std::vector<Value> out;
  if (v.kind == PyValue::Kind::Tuple) {
    for (const PyValue &e : v.elems)
      out.push_back(e.value);
    return out;
  }
  auto ctor = v.value.getDefiningOp<ListConstructOp>();
  if (!ctor) {
    fl.error(range(name), spelling + "() argument '" + name.str() +
                              "' must be a tuple or a list literal here");
    return std::nullopt;
  }
  // A list literal joined its elements to one type; each keeps its own.
  for (Value x : ctor->getOperands()) {
    if (auto cast = x.getDefiningOp<tensor::CastOp>())
      x = cast.getSource();
    out.push_back(x);
  }
  return out;
}

std::optional<Value> OpArgs::tensorList(llvm::StringRef name) {
  const PyValue &v = arg(name).value;
  if (v.isValue())
    return v.value;
  if (v.elems.empty()) {
    fl.error(range(name), spelling + "() argument '" + name.str() +
                              "' must be a non-empty list of Tensors");
    return std::nullopt;
  }
  // As in a list literal, sizes that differ become dynamic; the builder
  // recovers them from the elements.
  Type t = v.elems[0].value.getType();
  for (const PyValue &e : v.elems) {
    Type joined = joinTypes(t, e.value.getType());
    if (!joined) {
      fl.error(range(name), spelling + "() argument '" + name.str() +
                                "' must hold tensors of one dtype and rank, "
                                "got " +
                                describeType(t) + " and " +
                                describeType(e.value.getType()));
      return std::nullopt;
    }
    t = joined;
  }
  SmallVector<Value> elems;
  for (const PyValue &e : v.elems)
    elems.push_back(*fl.castForMerge(e.value, t, range(name)));
  return fl.b.create<ListConstructOp>(fl.loc(range(name)), ListType::get(t),
                                      elems)
      .getResult();
}

} // namespace kiln::ops
