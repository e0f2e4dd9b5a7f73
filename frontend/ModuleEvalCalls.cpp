//===- ModuleEvalCalls.cpp - Calls inside a compile-time __init__ --------===//
//
// Calls in __init__: argument binding, Python builtins, the file's plain
// functions, a base class's __init__, torch tensor creation, tensor
// methods, nn.Parameter and self.register_buffer/register_parameter. The
// tensors __init__ computes (arithmetic, math, torch functions, subscript
// assignment) live in ModuleEvalTensors.cpp.
//
//===----------------------------------------------------------------------===//

#include "frontend/ModuleEvalImpl.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;

namespace kiln::moduleeval {

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

bool InitEvaluator::initOfBase(const ast::CallExpr &call,
                               const ast::AttributeExpr &a, Frame &frame,
                               std::optional<CV> &out) {
  auto *inner = llvm::dyn_cast<ast::CallExpr>(a.value.get());
  auto *name =
      inner ? llvm::dyn_cast<ast::NameExpr>(inner->func.get()) : nullptr;
  std::string path = globalPath(*a.value, frame);
  bool viaSuper = name && name->id == "super";
  if (!viaSuper && path != "torch.nn.Module" &&
      !llvm::StringRef(path).starts_with("class."))
    return false;
  out = CV();
  if (!frame.self || !frame.cls) {
    error(call.range, "__init__ of a base class can be called only from "
                      "__init__");
    out = std::nullopt;
    return true;
  }
  const ast::ClassDef *from = frame.cls;
  if (viaSuper && inner->args.size() == 2)
    if (auto *c = llvm::dyn_cast<ast::NameExpr>(inner->args[0].get()))
      if (auto it = m.classes.find(c->id); it != m.classes.end())
        from = it->second;
  const ast::ClassDef *base = nullptr;
  if (viaSuper) {
    std::optional<const ast::ClassDef *> b = checkBases(*from);
    if (!b) {
      out = std::nullopt;
      return true;
    }
    base = *b;
  } else if (path != "torch.nn.Module") {
    base = m.classes.at(path.substr(6));
  }
  if (!base)
    return true; // nn.Module.__init__
  Args args;
  args.range = call.range;
  for (size_t i = 0; i < call.args.size(); ++i) {
    if (!viaSuper && i == 0)
      continue; // Base.__init__(self, ...): self is the object already
    std::optional<CV> v = eval(*call.args[i], frame);
    if (!v) {
      out = std::nullopt;
      return true;
    }
    args.positional.push_back(*v);
    args.positionalRanges.push_back(call.args[i]->range);
  }
  for (const ast::Keyword &k : call.keywords) {
    std::optional<CV> v = eval(*k.value, frame);
    if (!v) {
      out = std::nullopt;
      return true;
    }
    args.keywords.emplace_back(k.name, *v);
  }
  if (!runInit(*base, frame.self, args))
    out = std::nullopt;
  return true;
}

std::optional<CV> InitEvaluator::evalCall(const ast::CallExpr &call,
                                          Frame &frame) {
  // super().__init__(...), super(C, self).__init__(...) and
  // Base.__init__(self, ...): nothing to do for nn.Module, whose object
  // exists already; a base class of the file runs its __init__ on it.
  if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(call.func.get()))
    if (a->attr == "__init__")
      if (std::optional<CV> r; initOfBase(call, *a, frame, r))
        return r;

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
    // A local naming a class or function: `norm_layer = nn.BatchNorm2d`
    // then `norm_layer(planes)`, as torchvision writes it.
    if (auto *n = llvm::dyn_cast<ast::NameExpr>(call.func.get()))
      if (auto it = frame.locals.find(n->id);
          it != frame.locals.end() && it->second.kind == CV::Kind::Global)
        return callGlobal(it->second.str, args);
    error(call.func->range, "this call is not supported in __init__");
    return std::nullopt;
  }
  return callGlobal(path, args);
}

std::optional<CV> InitEvaluator::callFunction(const ast::FunctionDef &def,
                                              const Args &args) {
  // A method whose body the parser deferred (AST.h) has no body to run.
  if (def.unsupported) {
    error(def.unsupported->range, def.unsupported->message);
    return std::nullopt;
  }
  // Defaults are evaluated as Python does at the def, in the file's scope.
  Frame empty;
  std::vector<Param> params;
  for (const ast::Param &p : def.params) {
    std::optional<CV> dflt;
    if (p.defaultValue) {
      dflt = eval(*p.defaultValue, empty);
      if (!dflt)
        return std::nullopt;
    }
    params.push_back({p.name.c_str(), dflt});
  }
  std::optional<std::vector<CV>> bound = bind(def.name, params, args);
  if (!bound)
    return std::nullopt;
  Frame frame;
  frame.isFunction = true;
  for (size_t i = 0; i < params.size(); ++i)
    frame.locals[params[i].name] = (*bound)[i];
  if (!exec(def.body, frame))
    return std::nullopt;
  return frame.returned ? *frame.returned : CV();
}

std::optional<std::vector<CV>> InitEvaluator::bind(const std::string &fn,
                                                   llvm::ArrayRef<Param> params,
                                                   const Args &args) {
  std::vector<std::optional<CV>> bound(params.size());
  if (args.positional.size() > params.size()) {
    error(args.range, fn + "() takes at most " + std::to_string(params.size()) +
                          " arguments (" +
                          std::to_string(args.positional.size()) + " given)");
    return std::nullopt;
  }
  for (size_t i = 0; i < args.positional.size(); ++i)
    bound[i] = args.positional[i];
  for (const auto &[name, value] : args.keywords) {
    // A lambda may capture a structured binding only from C++20 on.
    const auto &key = name;
    auto it =
        llvm::find_if(params, [&](const Param &p) { return key == p.name; });
    if (it == params.end()) {
      error(args.range,
            fn + "() got an unexpected keyword argument '" + name + "'");
      return std::nullopt;
    }
    if (bound[it - params.begin()]) {
      error(args.range,
            fn + "() got multiple values for argument '" + name + "'");
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
      error(args.range, "torch." + name +
                            "() got an unsupported keyword "
                            "argument '" +
                            k + "' in __init__");
      return std::nullopt;
    }
  }
  if (name == "full" && !sizeArgs.positional.empty() &&
      !llvm::any_of(args.keywords,
                    [](auto &k) { return k.first == "fill_value"; }))
    sizeArgs.positional.pop_back();
  if (name == "eye") {
    std::optional<int64_t> n = args.positional.empty()
                                   ? std::nullopt
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
    const CV &d =
        args.positional.empty() ? args.keywords[0].second : args.positional[0];
    std::optional<Type> t = toDtype(d, args.range);
    if (!t)
      return std::nullopt;
    out.elementType = *t;
    return out;
  }
  if (name == "tril" || name == "triu" || name == "clone" || name == "detach" ||
      name == "contiguous")
    return out;
  {
    // x.exp() is torch.exp(x).
    Args withSelf = args;
    withSelf.positional.insert(withSelf.positional.begin(), self);
    withSelf.positionalRanges.insert(withSelf.positionalRanges.begin(),
                                     args.range);
    bool handled = false;
    std::optional<CV> r = callTensorFunction(name, withSelf, handled);
    if (handled)
      return r;
  }
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
  error(args.range,
        "the tensor method '" + name + "' is not supported in __init__");
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
                        "'" +
                            attr.str + "' as persistent");
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
      error(args.range,
            name + "() needs a tensor or None, got " + describeConst(value));
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
      error(args.range,
            "nn.Parameter() needs a tensor, got " + describeConst(t));
      return std::nullopt;
    }
    t.role = CV::TensorRole::Parameter;
    return t;
  }
  if (p.consume_front("func."))
    return callFunction(*m.functions.at(p.str()), args);
  if (p.consume_front("torch.nn."))
    return constructNN(p.str(), args);
  if (p.starts_with("math.") || p.starts_with("torch.")) {
    bool handled = false;
    std::optional<CV> r = p.starts_with("math.")
                              ? callMath(p.drop_front(5).str(), args, handled)
                              : callTensorFunction(p.drop_front(6).str(),
                                                   args, handled);
    if (handled)
      return r;
  }
  if (p.consume_front("torch.")) {
    if (llvm::is_contained(
            {"zeros", "ones", "empty", "randn", "rand", "full", "eye"}, p))
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
    // The length first, in unsigned arithmetic that cannot wrap, so that
    // the budget refuses range(10**10) before anything is built.
    uint64_t span = step > 0 ? (stop > start ? uint64_t(stop) - uint64_t(start) : 0)
                             : (start > stop ? uint64_t(start) - uint64_t(stop) : 0);
    uint64_t magnitude = step > 0 ? uint64_t(step) : 0 - uint64_t(step);
    uint64_t length = span == 0 ? 0 : (span - 1) / magnitude + 1;
    if (!charge(length, args.range))
      return std::nullopt;
    std::vector<CV> out;
    for (uint64_t i = 0; i < length; ++i)
      out.push_back(makeInt(int64_t(uint64_t(start) + i * uint64_t(step))));
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
  error(args.range, "'" + path +
                        "' cannot be called in __init__, which kiln "
                        "runs at compile time");
  return std::nullopt;
}

} // namespace kiln::moduleeval
