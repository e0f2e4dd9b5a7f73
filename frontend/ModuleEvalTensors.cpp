//===- ModuleEvalTensors.cpp - Tensors computed by a compile-time __init__ ===//
//
// Tensor arithmetic and dtype promotion, math on tensors, torch tensor
// functions, and subscripting and slice assignment, all on shapes and
// dtypes only: the values come from the weights.
//
//===----------------------------------------------------------------------===//

#include "frontend/ModuleEvalImpl.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;

namespace kiln::moduleeval {

//===----------------------------------------------------------------------===//
// Tensors computed by __init__
//===----------------------------------------------------------------------===//
//
// A tensor that __init__ computes (torch.arange, exp, slicing assignment,
// arithmetic) ends up as a buffer or a parameter, and its value comes from
// the weights file like every other weight: state_dict() holds it. Here only
// its shape and dtype are followed, with PyTorch's rules, so that a wrong
// weight is caught by shape and the module's attributes have their types.

namespace {

unsigned floatRank(Type t) {
  if (t.isF64())
    return 3;
  if (t.isF32())
    return 2;
  return t.isF16() || t.isBF16() ? 1 : 0;
}

/// PyTorch's promotion of two tensor dtypes (a number operand does not
/// change a tensor's category's dtype).
Type promote(Builder &b, Type a, Type c) {
  if (a == c)
    return a;
  unsigned fa = floatRank(a), fc = floatRank(c);
  if (fa || fc) {
    if (fa == 1 && fc == 1)
      return b.getF32Type(); // f16 with bf16
    return fa >= fc ? a : c;
  }
  return a.getIntOrFloatBitWidth() >= c.getIntOrFloatBitWidth() ? a : c;
}

} // namespace

std::optional<CV> InitEvaluator::tensorBinOp(ast::BinOpKind op, const CV &l,
                                             const CV &r, SourceRange where) {
  using K = ast::BinOpKind;
  if (!llvm::is_contained({K::Add, K::Sub, K::Mul, K::Div, K::Pow}, op)) {
    error(where, "this operator is not supported on tensors in __init__; "
                 "use + - * / or **");
    return std::nullopt;
  }
  Type dtype;
  std::vector<int64_t> shape;
  if (l.kind == CV::Kind::Tensor && r.kind == CV::Kind::Tensor) {
    dtype = promote(b, l.elementType, r.elementType);
    size_t rank = std::max(l.shape.size(), r.shape.size());
    shape.assign(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
      int64_t a = i < rank - l.shape.size() ? 1 : l.shape[i - (rank - l.shape.size())];
      int64_t c = i < rank - r.shape.size() ? 1 : r.shape[i - (rank - r.shape.size())];
      if (a != c && a != 1 && c != 1) {
        error(where, "the size of tensor a (" + std::to_string(a) +
                         ") must match the size of tensor b (" +
                         std::to_string(c) + ") at non-singleton dimension " +
                         std::to_string(i));
        return std::nullopt;
      }
      shape[i] = a == 1 ? c : a;
    }
  } else {
    const CV &t = l.kind == CV::Kind::Tensor ? l : r;
    const CV &n = l.kind == CV::Kind::Tensor ? r : l;
    dtype = t.elementType;
    shape = t.shape;
    // An int or bool tensor with a float number becomes the default float
    // dtype; a bool tensor with an int becomes int64.
    if (!floatRank(dtype) && n.kind == CV::Kind::Float)
      dtype = b.getF32Type();
    else if (dtype.isInteger(1) && n.kind == CV::Kind::Int)
      dtype = b.getI64Type();
  }
  if (op == K::Div && !floatRank(dtype))
    dtype = b.getF32Type(); // true division
  CV out = makeTensor(dtype, std::move(shape), where);
  return out;
}

std::optional<CV> InitEvaluator::callMath(const std::string &name,
                                          const Args &args, bool &handled) {
  double (*fn)(double) = llvm::StringSwitch<double (*)(double)>(name)
                             .Case("log", [](double x) { return std::log(x); })
                             .Case("log2", [](double x) { return std::log2(x); })
                             .Case("log10", [](double x) { return std::log10(x); })
                             .Case("exp", [](double x) { return std::exp(x); })
                             .Case("sqrt", [](double x) { return std::sqrt(x); })
                             .Case("sin", [](double x) { return std::sin(x); })
                             .Case("cos", [](double x) { return std::cos(x); })
                             .Case("tanh", [](double x) { return std::tanh(x); })
                             .Default(nullptr);
  bool rounding = name == "floor" || name == "ceil";
  if (!fn && !rounding)
    return std::nullopt;
  handled = true;
  if (args.positional.size() != 1 || !args.keywords.empty() ||
      !args.positional[0].isNumber()) {
    error(args.range, "math." + name + "() takes one number");
    return std::nullopt;
  }
  double x = asDouble(args.positional[0]);
  if (rounding) // Python's math.floor/ceil return ints
    return makeInt(static_cast<int64_t>(name == "floor" ? std::floor(x)
                                                        : std::ceil(x)));
  // Python raises ValueError ("math domain error") where C returns NaN.
  if ((name.rfind("log", 0) == 0 && x <= 0) || (name == "sqrt" && x < 0)) {
    error(args.range, "math domain error in math." + name + "()");
    return std::nullopt;
  }
  return makeFloat(fn(x));
}

std::optional<CV> InitEvaluator::callTensorFunction(const std::string &name,
                                                    const Args &args,
                                                    bool &handled) {
  static const char *const floating[] = {
      "exp", "log", "sin", "cos", "tan", "tanh", "sigmoid", "sqrt", "rsqrt",
      "log1p", "expm1", "erf", "log2", "log10", "reciprocal"};
  static const char *const keeping[] = {"abs", "neg", "relu", "floor", "ceil",
                                        "round", "square"};
  bool isFloating = llvm::is_contained(floating, name);
  bool isKeeping = llvm::is_contained(keeping, name);
  if (name == "arange") {
    handled = true;
    Type dtype;
    for (const auto &[k, v] : args.keywords) {
      if (k == "dtype") {
        std::optional<Type> t = toDtype(v, args.range);
        if (!t)
          return std::nullopt;
        dtype = *t;
      } else if (k != "device" && k != "requires_grad") {
        error(args.range, "torch.arange() got an unsupported keyword "
                          "argument '" + k + "' in __init__");
        return std::nullopt;
      }
    }
    const std::vector<CV> &a = args.positional;
    if (a.empty() || a.size() > 3 ||
        !llvm::all_of(a, [](const CV &v) { return v.isNumber(); })) {
      error(args.range, "torch.arange() takes 1 to 3 numbers in __init__");
      return std::nullopt;
    }
    double start = a.size() > 1 ? asDouble(a[0]) : 0;
    double end = asDouble(a.size() > 1 ? a[1] : a[0]);
    double step = a.size() > 2 ? asDouble(a[2]) : 1;
    if (step == 0 || (end - start) / step < 0) {
      error(args.range, "torch.arange(): the step must be non-zero and point "
                        "from start to end");
      return std::nullopt;
    }
    bool anyFloat = llvm::any_of(
        a, [](const CV &v) { return v.kind == CV::Kind::Float; });
    if (!dtype)
      dtype = anyFloat ? Type(b.getF32Type()) : Type(b.getI64Type());
    return makeTensor(dtype, {int64_t(std::ceil((end - start) / step))},
                      args.range);
  }
  if (name == "transpose" || name == "t") {
    handled = true;
    if (args.positional.empty() || args.positional[0].kind != CV::Kind::Tensor) {
      error(args.range, name + "() needs a tensor");
      return std::nullopt;
    }
    CV out = args.positional[0];
    out.role = CV::TensorRole::Plain;
    out.where = args.range;
    int64_t rank = out.shape.size();
    int64_t d0 = 0, d1 = 1;
    if (name == "transpose") {
      std::optional<int64_t> a0 =
          args.positional.size() == 3
              ? toInt(args.positional[1], "dim0", args.range)
              : std::nullopt;
      std::optional<int64_t> a1 =
          a0 ? toInt(args.positional[2], "dim1", args.range) : std::nullopt;
      if (!a1) {
        if (args.positional.size() != 3)
          error(args.range, "transpose() takes two dims");
        return std::nullopt;
      }
      d0 = *a0 < 0 ? *a0 + rank : *a0;
      d1 = *a1 < 0 ? *a1 + rank : *a1;
    } else if (rank < 2) {
      return out;
    }
    if (d0 < 0 || d0 >= rank || d1 < 0 || d1 >= rank) {
      error(args.range, "dimension out of range for a tensor of rank " +
                            std::to_string(rank));
      return std::nullopt;
    }
    std::swap(out.shape[d0], out.shape[d1]);
    return out;
  }
  if (!isFloating && !isKeeping)
    return std::nullopt;
  handled = true;
  if (args.positional.size() != 1 || !args.keywords.empty() ||
      args.positional[0].kind != CV::Kind::Tensor) {
    error(args.range, "torch." + name + "() takes one tensor in __init__");
    return std::nullopt;
  }
  CV out = args.positional[0];
  out.role = CV::TensorRole::Plain;
  out.where = args.range;
  if (isFloating && !floatRank(out.elementType))
    out.elementType = b.getF32Type();
  return out;
}

std::optional<std::vector<int64_t>>
InitEvaluator::subscriptShape(const std::vector<int64_t> &shape,
                              const std::vector<ast::ExprPtr> &indices,
                              Frame &frame) {
  size_t consumed = 0;
  for (const ast::ExprPtr &i : indices)
    if (!llvm::isa<ast::NoneLitExpr, ast::EllipsisLitExpr>(*i))
      ++consumed;
  if (consumed > shape.size()) {
    error(indices.back()->range, "too many indices for a tensor of rank " +
                                     std::to_string(shape.size()));
    return std::nullopt;
  }
  std::vector<int64_t> out;
  size_t dim = 0;
  auto constant = [&](const ast::ExprPtr &e,
                      int64_t dflt) -> std::optional<int64_t> {
    if (!e)
      return dflt;
    std::optional<CV> v = eval(*e, frame);
    return v ? toInt(*v, "a slice bound", e->range) : std::nullopt;
  };
  for (const ast::ExprPtr &i : indices) {
    if (llvm::isa<ast::NoneLitExpr>(*i)) {
      out.push_back(1);
      continue;
    }
    if (llvm::isa<ast::EllipsisLitExpr>(*i)) {
      for (size_t n = shape.size() - consumed; n > 0; --n)
        out.push_back(shape[dim++]);
      continue;
    }
    int64_t size = shape[dim++];
    if (auto *sl = llvm::dyn_cast<ast::SliceExpr>(i.get())) {
      std::optional<int64_t> step = constant(sl->step, 1);
      std::optional<int64_t> lo = step ? constant(sl->lower, 0) : std::nullopt;
      std::optional<int64_t> hi = lo ? constant(sl->upper, size) : std::nullopt;
      if (!hi)
        return std::nullopt;
      if (*step <= 0) {
        error(i->range, "slices in __init__ need a positive step");
        return std::nullopt;
      }
      // Python's clamping of slice bounds.
      auto clamp = [&](int64_t v) {
        v = v < 0 ? v + size : v;
        return std::min(std::max<int64_t>(v, 0), size);
      };
      int64_t a = clamp(*lo), c = clamp(*hi);
      out.push_back(c > a ? (c - a + *step - 1) / *step : 0);
      continue;
    }
    std::optional<int64_t> k = constant(i, 0);
    if (!k)
      return std::nullopt;
    if (*k < -size || *k >= size) {
      error(i->range, "index " + std::to_string(*k) +
                          " is out of bounds for a dimension of size " +
                          std::to_string(size));
      return std::nullopt;
    }
  }
  for (; dim < shape.size(); ++dim)
    out.push_back(shape[dim]);
  return out;
}

bool InitEvaluator::assignSubscript(const ast::SubscriptExpr &target,
                                    const CV &value, Frame &frame) {
  auto *base = llvm::dyn_cast<ast::NameExpr>(target.value.get());
  auto it = base ? frame.locals.find(base->id) : frame.locals.end();
  if (it == frame.locals.end() || it->second.kind != CV::Kind::Tensor)
    return error(target.range, "__init__ can assign to slices of a local "
                               "tensor only");
  std::optional<std::vector<int64_t>> region =
      subscriptShape(it->second.shape, target.indices, frame);
  if (!region)
    return false;
  if (value.isNumber())
    return true;
  if (value.kind != CV::Kind::Tensor)
    return error(target.range,
                 "cannot store " + describeConst(value) + " into a tensor");
  // The value must broadcast to the region, as copy_ requires.
  const std::vector<int64_t> &v = value.shape;
  bool fits = v.size() <= region->size();
  for (size_t i = 0; fits && i < v.size(); ++i) {
    int64_t want = (*region)[region->size() - v.size() + i];
    fits = v[i] == want || v[i] == 1;
  }
  if (!fits) {
    auto str = [](const std::vector<int64_t> &s) {
      std::string out = "[";
      for (size_t i = 0; i < s.size(); ++i)
        out += (i ? ", " : "") + std::to_string(s[i]);
      return out + "]";
    };
    return error(target.range, "a tensor of shape " + str(v) +
                                   " cannot be assigned to a region of "
                                   "shape " + str(*region));
  }
  return true;
}

} // namespace kiln::moduleeval
