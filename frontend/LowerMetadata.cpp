//===- LowerMetadata.cpp - Tensor metadata, dtypes and JIT queries --------===//
//
// A tensor's dtype, rank, element count and device are static in kiln (one
// compiled program per input signature, on the CPU), so `x.dtype`,
// `x.is_floating_point()`, `torch.finfo(x.dtype).eps` and
// `torch.jit.is_scripting()` are compile-time values: they fold into
// constants, and an `if` on them lowers only the branch taken (LowerIf.cpp).
// A dtype is the Global that names it ("torch.float32"), as a `dtype=`
// argument is; finfo/iinfo results are Globals spelled as their call.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"
#include "frontend/LowerConstructs.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace kiln {

namespace {

/// Canonical names of the dtypes kiln has, spelled as PyTorch prints them.
constexpr const char *kDtypeNames[] = {
    "torch.float32", "torch.float64", "torch.float16", "torch.bfloat16",
    "torch.int32",   "torch.int64",   "torch.bool"};

constexpr const char *kFinfo = "torch.finfo(";
constexpr const char *kIinfo = "torch.iinfo(";
constexpr const char *kCpu = "torch.device('cpu')";

} // namespace

PyValue dtypeGlobal(OpBuilder &b, Type element) {
  for (const char *n : kDtypeNames)
    if (dtypeFromGlobal(b, PyValue::global(n)) == element)
      return PyValue::global(n);
  return PyValue::global("torch.unknown_dtype");
}

std::optional<bool> staticEqual(OpBuilder &b, const PyValue &l,
                                const PyValue &r) {
  auto compileTime = [](const PyValue &v) {
    return v.kind == PyValue::Kind::Str || v.kind == PyValue::Kind::Global ||
           v.isNone();
  };
  if (!compileTime(l) && !compileTime(r))
    return std::nullopt;
  if (!compileTime(l) || !compileTime(r))
    return l.isOptional() || r.isOptional() ? std::nullopt
                                            : std::optional<bool>(false);
  if (l.kind != r.kind)
    return false;
  // torch.float and torch.float32 are one dtype.
  if (Type lt = dtypeFromGlobal(b, l))
    return lt == dtypeFromGlobal(b, r);
  return l.str == r.str;
}

std::optional<PyValue> tensorMetadata(FunctionLowering &fl, Value x,
                                      const std::string &attr,
                                      SourceRange where) {
  auto tt = llvm::cast<RankedTensorType>(x.getType());
  if (attr == "dtype")
    return dtypeGlobal(fl.b, tt.getElementType());
  if (attr == "device")
    return PyValue::global(kCpu);
  if (attr == "is_cuda")
    return PyValue::ofValue(fl.constBool(false, where));
  return std::nullopt;
}

/// The number of bytes of one element, as Tensor.element_size() reports.
static int64_t elementSize(Type et) {
  return et.isInteger(1) ? 1 : et.getIntOrFloatBitWidth() / 8;
}

bool lowerMetadataMethod(FunctionLowering &fl, const PyValue &self,
                         const std::string &name, const ast::CallExpr &call,
                         MaybeValue &out) {
  if (!self.isValue() || !llvm::isa<RankedTensorType>(self.value.getType()))
    return false;
  if (name != "is_floating_point" && name != "element_size" &&
      name != "is_complex")
    return false;
  out = std::nullopt;
  if (!call.args.empty() || !call.keywords.empty()) {
    fl.error(call.range, "Tensor." + name + "() takes no arguments");
    return true;
  }
  Type et = llvm::cast<RankedTensorType>(self.value.getType()).getElementType();
  if (name == "element_size")
    out = PyValue::ofValue(fl.constInt(elementSize(et), call.range));
  else
    out = PyValue::ofValue(fl.constBool(
        name == "is_floating_point" && llvm::isa<FloatType>(et), call.range));
  return true;
}

/// torch.device("cpu"): the only device kiln compiles for, which is what
/// `x.device` is too.
static bool lowerDevice(FunctionLowering &fl, const ast::CallExpr &call,
                        MaybeValue &out) {
  out = std::nullopt;
  MaybeValue d = call.args.size() == 1 && call.keywords.empty()
                     ? fl.lowerExpr(*call.args[0])
                     : std::nullopt;
  if (d && d->kind == PyValue::Kind::Str && d->str == "cpu")
    out = PyValue::global(kCpu);
  else if (d || call.args.size() != 1 || !call.keywords.empty())
    fl.error(call.range, "kiln compiles for the CPU only: the device must "
                         "be torch.device(\"cpu\")");
  return true;
}

bool lowerStaticGlobalCall(FunctionLowering &fl, const std::string &path,
                           const ast::CallExpr &call, MaybeValue &out) {
  if (path == "torch.device")
    return lowerDevice(fl, call, out);
  bool isInfo = path == "torch.finfo" || path == "torch.iinfo";
  if (!isInfo && path != "torch.jit.is_scripting" &&
      path != "torch.jit.is_tracing")
    return false;
  out = std::nullopt;
  if (!isInfo) {
    // Compiled code is scripted code, and never traced.
    if (!call.args.empty() || !call.keywords.empty())
      fl.error(call.range, path + "() takes no arguments");
    else
      out = PyValue::ofValue(
          fl.constBool(path == "torch.jit.is_scripting", call.range));
    return true;
  }
  if (call.args.size() != 1 || !call.keywords.empty()) {
    fl.error(call.range, path + "() takes one dtype");
    return true;
  }
  MaybeValue d = fl.lowerExpr(*call.args[0]);
  if (!d)
    return true;
  Type et = dtypeFromGlobal(fl.b, *d);
  bool isFloat = et && llvm::isa<FloatType>(et);
  if (!et || et.isInteger(1) || isFloat != (path == "torch.finfo")) {
    fl.error(call.args[0]->range,
             path + "() needs " +
                 (path == "torch.finfo" ? "a floating-point" : "an integer") +
                 " dtype, not " + fl.describe(*d));
    return true;
  }
  out = PyValue::global(path + "(" + dtypeGlobal(fl.b, et).str + ")");
  return true;
}

/// finfo's fields for a float type, as Python floats.
static std::optional<double> finfoField(Type et, llvm::StringRef field) {
  const llvm::fltSemantics &s = llvm::cast<FloatType>(et).getFloatSemantics();
  if (field == "eps")
    return std::ldexp(1.0, 1 - int(llvm::APFloat::semanticsPrecision(s)));
  if (field == "max")
    return llvm::APFloat::getLargest(s).convertToDouble();
  if (field == "min")
    return llvm::APFloat::getLargest(s, /*Negative=*/true).convertToDouble();
  if (field == "tiny" || field == "smallest_normal")
    return llvm::APFloat::getSmallestNormalized(s).convertToDouble();
  if (field == "bits")
    return double(llvm::APFloat::getSizeInBits(s));
  return std::nullopt;
}

bool lowerInfoAttribute(FunctionLowering &fl, const PyValue &info,
                        const ast::AttributeExpr &e, MaybeValue &out) {
  llvm::StringRef s(info.str);
  bool isF = s.starts_with(kFinfo);
  if (!isF && !s.starts_with(kIinfo))
    return false;
  out = std::nullopt;
  std::string dtype = s.drop_front(12).drop_back(1).str();
  Type et = dtypeFromGlobal(fl.b, PyValue::global(dtype));
  if (isF) {
    if (std::optional<double> v = finfoField(et, e.attr)) {
      out = PyValue::ofValue(e.attr == "bits"
                                 ? fl.constInt(int64_t(*v), e.range)
                                 : fl.constFloat(*v, e.range));
      return true;
    }
  } else if (e.attr == "min" || e.attr == "max" || e.attr == "bits") {
    unsigned w = et.getIntOrFloatBitWidth();
    int64_t v = e.attr == "bits"  ? int64_t(w)
                : e.attr == "min" ? llvm::APInt::getSignedMinValue(w).getSExtValue()
                                  : llvm::APInt::getSignedMaxValue(w).getSExtValue();
    out = PyValue::ofValue(fl.constInt(v, e.range));
    return true;
  }
  fl.error(e.attrRange, info.str + " has no attribute '" + e.attr +
                            "' that kiln knows; it has " +
                            (isF ? "eps, min, max, tiny and bits"
                                 : "min, max and bits"));
  return true;
}

} // namespace kiln
