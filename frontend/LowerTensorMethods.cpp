//===- LowerTensorMethods.cpp - Tensor methods and torch.X(tensor, ...) ---===//
//
// `x.sum(1)`, `torch.sum(x, 1)` and `x.sum(dim=1)` are one operation: calls
// arrive here with the receiver split off and the rest bound by PyTorch's
// parameter names. Result types are computed here (with ir/ShapeInference
// where the verifier checks the same rule) so errors point at the call.
//
//===----------------------------------------------------------------------===//

#include "frontend/LoweringImpl.h"
#include "frontend/OpTable.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace kiln {

static bool isTensorType(Type t) { return llvm::isa<RankedTensorType>(t); }

bool isKnownTensorMethod(llvm::StringRef name) {
  static const char *const methods[] = {
      "matmul", "mm", "sum", "mean", "var", "amax", "amin", "max", "min",
      "size", "dim", "numel", "item", "contiguous", "clone", "detach",
      "float", "double", "half", "bfloat16", "int", "long", "bool", "to",
      "view", "reshape", "expand", "flatten", "unsqueeze", "squeeze",
      "transpose", "t", "permute", "zeros_like", "ones_like", "rand_like",
      "randn_like", "full_like"};
  return ops::lookup(ops::Method, name) || llvm::is_contained(methods, name) ||
         isNNTensorMethod(name);
}

MaybeValue FunctionLowering::callMethod(PyValue self, const std::string &name,
                                        const CallArgs &call) {
  SourceRange where = call.range;
  Location l = loc(where);
  if (self.isValue() && llvm::isa<ListType>(self.value.getType())) {
    error(where, "the list method '" + name + "' is not supported");
    return std::nullopt;
  }
  if (const ops::Row *row = ops::lookup(ops::Method, name))
    return callOp(*row, ops::Method, "Tensor." + name, self, call);
  if (isNNTensorMethod(name))
    return callNNMethod(self, name, call);
  std::optional<Value> xs =
      requireTensor(self, where, "the receiver of ." + name + "()");
  if (!xs)
    return std::nullopt;
  Value x = *xs;
  auto tt = llvm::cast<RankedTensorType>(x.getType());
  int64_t rank = tt.getRank();
  std::string fn = "Tensor." + name;

  auto arg = [&](const ast::Expr *e) -> MaybeValue {
    if (!e)
      return std::nullopt;
    return lowerExpr(*e);
  };

  if (name == "matmul" || name == "mm") {
    auto bound = bindArgs(call, fn, {{"self"}, {"other"}}, true);
    if (!bound)
      return std::nullopt;
    MaybeValue other = arg((*bound)[1]);
    if (!other)
      return std::nullopt;
    if (name == "mm") {
      bool ok =
          rank == 2 && other->isValue() &&
          isTensorType(other->value.getType()) &&
          llvm::cast<RankedTensorType>(other->value.getType()).getRank() == 2;
      if (!ok) {
        error(where, "mm() multiplies two 2-D tensors; got " + describe(self) +
                         " and " + describe(*other));
        return std::nullopt;
      }
    }
    return applyBinOp(ast::BinOpKind::MatMul, self, *other, where,
                      call.selfRange, (*bound)[1]->range);
  }
  // Reductions.
  if (name == "sum" || name == "mean" || name == "amax" || name == "amin" ||
      name == "var" || name == "max" || name == "min") {
    bool isVar = name == "var";
    SmallVector<BuiltinParam> params = {{"self"}, {"dim", false}};
    if (isVar)
      params.push_back({"unbiased", false});
    params.push_back({"keepdim", false});
    if (name == "sum" || name == "mean")
      params.push_back({"dtype", false});
    if (name == "max" || name == "min") {
      params = {{"self"}, {"dim", false}, {"keepdim", false}};
    }
    auto bound = bindArgs(call, fn, params, true);
    if (!bound)
      return std::nullopt;
    bool keepdim = false;
    const ast::Expr *keepExpr = (*bound)[isVar ? 3 : 2];
    if (keepExpr) {
      auto *bl = llvm::dyn_cast<ast::BoolLitExpr>(keepExpr);
      if (!bl) {
        error(keepExpr->range, "keepdim must be True or False");
        return std::nullopt;
      }
      keepdim = bl->value;
    }
    int64_t correction = 1;
    if (isVar && (*bound)[2]) {
      auto *bl = llvm::dyn_cast<ast::BoolLitExpr>((*bound)[2]);
      if (!bl) {
        error((*bound)[2]->range, "unbiased must be True or False");
        return std::nullopt;
      }
      correction = bl->value ? 1 : 0;
    }
    if ((name == "sum" || name == "mean") && (*bound)[3]) {
      error((*bound)[3]->range, "dtype= on reductions is not supported yet");
      return std::nullopt;
    }
    if ((name == "max" || name == "min") && (*bound)[1]) {
      // x.max(other) is elementwise; x.max(dim) returns (values, indices).
      MaybeValue d = lowerExpr(*(*bound)[1]);
      if (!d)
        return std::nullopt;
      if (d->isValue() && isTensorType(d->value.getType())) {
        std::optional<Value> r =
            emitElementwise(name == "max" ? "kiln.maximum" : "kiln.minimum", x,
                            d->value, where, where, (*bound)[1]->range);
        return r ? MaybeValue(PyValue::ofValue(*r)) : std::nullopt;
      }
      if (name == "min") {
        error(where, "min(dim) is not supported yet; use amin(dim)");
        return std::nullopt;
      }
      std::optional<int64_t> dim = lowerConstInt(*(*bound)[1], "dim");
      if (!dim)
        return std::nullopt;
      std::optional<int64_t> nd = normalizeDim(*dim, rank, (*bound)[1]->range);
      if (!nd)
        return std::nullopt;
      std::string why;
      Type vt = inferReduceType(tt, {*nd}, keepdim, false, &why);
      if (!vt) {
        error(where, userMessage(why));
        return std::nullopt;
      }
      auto vtt = llvm::cast<RankedTensorType>(vt);
      Type it = RankedTensorType::get(vtt.getShape(), b.getI64Type());
      auto op = b.create<MaxDimOp>(l, vt, it, x, b.getI64IntegerAttr(*nd),
                                   b.getBoolAttr(keepdim));
      return PyValue::tuple({PyValue::ofValue(op->getResult(0)),
                             PyValue::ofValue(op->getResult(1))});
    }
    SmallVector<int64_t> dims;
    if ((*bound)[1]) {
      std::optional<std::vector<int64_t>> ds =
          lowerConstInts(*(*bound)[1], "dim");
      if (!ds)
        return std::nullopt;
      for (int64_t d : *ds) {
        std::optional<int64_t> nd = normalizeDim(d, rank, (*bound)[1]->range);
        if (!nd)
          return std::nullopt;
        if (!llvm::is_contained(dims, *nd))
          dims.push_back(*nd);
      }
      llvm::sort(dims);
    }
    if ((name == "mean" || isVar) &&
        !llvm::isa<FloatType>(tt.getElementType())) {
      error(where, name + "() needs a floating tensor, got " + describe(self));
      return std::nullopt;
    }
    std::string why;
    Type rt = inferReduceType(tt, dims, keepdim, name == "sum", &why);
    if (!rt) {
      error(where, userMessage(why));
      return std::nullopt;
    }
    auto dimsAttr = b.getDenseI64ArrayAttr(dims);
    auto keepAttr = b.getBoolAttr(keepdim);
    Value r;
    if (name == "sum")
      r = b.create<SumOp>(l, rt, x, dimsAttr, keepAttr);
    else if (name == "mean")
      r = b.create<MeanOp>(l, rt, x, dimsAttr, keepAttr);
    else if (name == "amax" || name == "max")
      r = b.create<AMaxOp>(l, rt, x, dimsAttr, keepAttr);
    else if (name == "amin" || name == "min")
      r = b.create<AMinOp>(l, rt, x, dimsAttr, keepAttr);
    else
      r = b.create<VarOp>(l, rt, x, dimsAttr, keepAttr,
                          b.getI64IntegerAttr(correction));
    return PyValue::ofValue(r);
  }

  // Shape queries.
  if (name == "size") {
    auto bound = bindArgs(call, fn, {{"self"}, {"dim", false}}, true);
    if (!bound)
      return std::nullopt;
    if (!(*bound)[1]) {
      std::vector<PyValue> items;
      for (Value d : dimValues(x, where))
        items.push_back(PyValue::ofValue(d));
      return PyValue::tuple(std::move(items));
    }
    std::optional<int64_t> d = lowerConstInt(*(*bound)[1], "dim");
    if (!d)
      return std::nullopt;
    if (rank == 0) {
      error(where, "size(dim) of a 0-d tensor");
      return std::nullopt;
    }
    std::optional<int64_t> nd = normalizeDim(*d, rank, (*bound)[1]->range);
    if (!nd)
      return std::nullopt;
    if (!tt.isDynamicDim(*nd))
      return PyValue::ofValue(constInt(tt.getDimSize(*nd), where));
    return PyValue::ofValue(
        b.create<DimOp>(l, b.getI64Type(), x, b.getI64IntegerAttr(*nd)));
  }
  if (name == "dim") {
    if (!bindArgs(call, fn, {{"self"}}, true))
      return std::nullopt;
    return PyValue::ofValue(constInt(rank, where));
  }
  if (name == "numel") {
    if (!bindArgs(call, fn, {{"self"}}, true))
      return std::nullopt;
    Value n = constInt(1, where);
    for (Value d : dimValues(x, where))
      n = b.create<MulOp>(l, b.getI64Type(), n, d);
    return PyValue::ofValue(n);
  }
  if (name == "item") {
    if (!bindArgs(call, fn, {{"self"}}, true))
      return std::nullopt;
    Type et = tt.getElementType();
    Type scalar = et.isInteger(1)            ? b.getI1Type()
                  : llvm::isa<FloatType>(et) ? Type(b.getF64Type())
                                             : Type(b.getI64Type());
    if (tt.hasStaticShape() && tt.getNumElements() != 1) {
      error(where, "item() needs a one-element tensor, got " + describe(self));
      return std::nullopt;
    }
    return PyValue::ofValue(b.create<ItemOp>(l, scalar, x));
  }
  if (name == "contiguous" || name == "clone" || name == "detach") {
    if (!bindArgs(call, fn, {{"self"}}, true))
      return std::nullopt;
    return self; // values are immutable in the IR
  }

  // Casts.
  Type castTo = llvm::StringSwitch<Type>(name)
                    .Case("float", b.getF32Type())
                    .Case("double", b.getF64Type())
                    .Case("half", b.getF16Type())
                    .Case("bfloat16", b.getBF16Type())
                    .Case("int", b.getI32Type())
                    .Case("long", b.getI64Type())
                    .Case("bool", b.getI1Type())
                    .Default(Type());
  if (name == "to") {
    auto bound = bindArgs(call, fn, {{"self"}, {"dtype"}}, true);
    if (!bound)
      return std::nullopt;
    MaybeValue d = lowerExpr(*(*bound)[1]);
    if (!d)
      return std::nullopt;
    castTo = dtypeFromGlobal(b, *d);
    if (!castTo) {
      error((*bound)[1]->range,
            "to() takes a dtype such as torch.float32, got " + describe(*d));
      return std::nullopt;
    }
  } else if (castTo && !bindArgs(call, fn, {{"self"}}, true)) {
    return std::nullopt;
  }
  if (castTo) {
    if (castTo == tt.getElementType())
      return self;
    return PyValue::ofValue(
        b.create<CastOp>(l, RankedTensorType::get(tt.getShape(), castTo), x));
  }

  // Reshapes.
  if (name == "view" || name == "reshape" || name == "expand") {
    std::vector<const ast::Expr *> sizeArgs;
    for (const ast::Expr *a : call.args)
      sizeArgs.push_back(a);
    for (const ast::Keyword *k : call.keywords) {
      if (k->name != "shape" && k->name != "size") {
        error(k->range,
              fn + "() got an unexpected keyword argument '" + k->name + "'");
        return std::nullopt;
      }
      sizeArgs.push_back(k->value.get());
    }
    if (sizeArgs.empty()) {
      error(where, fn + "() needs the new shape");
      return std::nullopt;
    }
    std::optional<std::vector<Value>> sizes = lowerSizes(sizeArgs, where);
    if (!sizes)
      return std::nullopt;
    SmallVector<int64_t> shape;
    int inferred = -1;
    for (size_t i = 0; i < sizes->size(); ++i) {
      std::optional<int64_t> c = constIntValue((*sizes)[i]);
      if (c && *c == -1) {
        if (name == "expand") {
          int64_t off = static_cast<int64_t>(i) -
                        (static_cast<int64_t>(sizes->size()) - rank);
          shape.push_back(off >= 0 ? tt.getDimSize(off) : ShapedType::kDynamic);
          continue;
        }
        if (inferred >= 0) {
          error(where, "only one dimension can be inferred (-1)");
          return std::nullopt;
        }
        inferred = i;
      }
      shape.push_back(c && *c >= 0 ? *c : ShapedType::kDynamic);
    }
    if (inferred >= 0 && tt.hasStaticShape()) {
      int64_t known = 1;
      bool allStatic = true;
      for (size_t i = 0; i < shape.size(); ++i)
        if (static_cast<int>(i) != inferred) {
          if (shape[i] == ShapedType::kDynamic)
            allStatic = false;
          else
            known *= shape[i];
        }
      if (allStatic && known > 0) {
        if (tt.getNumElements() % known != 0) {
          error(where, "shape is invalid for a tensor of " +
                           std::to_string(tt.getNumElements()) + " elements");
          return std::nullopt;
        }
        shape[inferred] = tt.getNumElements() / known;
      }
    }
    auto rt = RankedTensorType::get(shape, tt.getElementType());
    if (name == "expand")
      return PyValue::ofValue(b.create<ExpandOp>(l, rt, x, *sizes));
    if (rt.hasStaticShape() && tt.hasStaticShape() &&
        rt.getNumElements() != tt.getNumElements()) {
      error(where, "cannot reshape " + describe(self) + " to " +
                       describeType(rt) + ": the element counts differ");
      return std::nullopt;
    }
    return PyValue::ofValue(b.create<ReshapeOp>(l, rt, x, *sizes));
  }
  if (name == "flatten") {
    auto bound = bindArgs(
        call, fn, {{"self"}, {"start_dim", false}, {"end_dim", false}}, true);
    if (!bound)
      return std::nullopt;
    int64_t s = 0, e = -1;
    if ((*bound)[1]) {
      auto v = lowerConstInt(*(*bound)[1], "start_dim");
      if (!v)
        return std::nullopt;
      s = *v;
    }
    if ((*bound)[2]) {
      auto v = lowerConstInt(*(*bound)[2], "end_dim");
      if (!v)
        return std::nullopt;
      e = *v;
    }
    if (rank == 0)
      return PyValue::ofValue(b.create<ReshapeOp>(
          l, RankedTensorType::get({1}, tt.getElementType()), x,
          ValueRange{constInt(1, where)}));
    auto ns = normalizeDim(s, rank, where), ne = normalizeDim(e, rank, where);
    if (!ns || !ne)
      return std::nullopt;
    std::vector<Value> dims = dimValues(x, where);
    SmallVector<Value> sizes;
    SmallVector<int64_t> shape;
    for (int64_t i = 0; i < rank;) {
      if (i == *ns) {
        Value n = dims[i];
        int64_t sn = tt.getDimSize(i);
        for (int64_t j = i + 1; j <= *ne; ++j) {
          n = b.create<MulOp>(l, b.getI64Type(), n, dims[j]);
          sn = (sn == ShapedType::kDynamic || tt.isDynamicDim(j))
                   ? ShapedType::kDynamic
                   : sn * tt.getDimSize(j);
        }
        sizes.push_back(n);
        shape.push_back(sn);
        i = *ne + 1;
      } else {
        sizes.push_back(dims[i]);
        shape.push_back(tt.getDimSize(i));
        ++i;
      }
    }
    return PyValue::ofValue(b.create<ReshapeOp>(
        l, RankedTensorType::get(shape, tt.getElementType()), x, sizes));
  }
  if (name == "unsqueeze" || name == "squeeze") {
    auto bound = bindArgs(call, fn, {{"self"}, {"dim"}}, true);
    if (!bound)
      return std::nullopt;
    std::optional<int64_t> d = lowerConstInt(*(*bound)[1], "dim");
    if (!d)
      return std::nullopt;
    SmallVector<int64_t> shape(tt.getShape());
    if (name == "unsqueeze") {
      if (*d < -(rank + 1) || *d > rank) {
        error((*bound)[1]->range,
              "unsqueeze dimension " + std::to_string(*d) +
                  " is out of range for a tensor of rank " +
                  std::to_string(rank) + " (expected " +
                  std::to_string(-(rank + 1)) + " to " + std::to_string(rank) +
                  ")");
        return std::nullopt;
      }
      std::optional<int64_t> nd = *d < 0 ? *d + rank + 1 : *d;
      shape.insert(shape.begin() + *nd, 1);
      return PyValue::ofValue(b.create<UnsqueezeOp>(
          l, RankedTensorType::get(shape, tt.getElementType()), x,
          b.getI64IntegerAttr(*nd)));
    }
    std::optional<int64_t> nd = normalizeDim(*d, rank, (*bound)[1]->range);
    if (!nd)
      return std::nullopt;
    if (rank == 0 || (shape[*nd] != 1 && shape[*nd] != ShapedType::kDynamic))
      return self; // PyTorch leaves a dim that is not 1 alone
    shape.erase(shape.begin() + *nd);
    return PyValue::ofValue(b.create<SqueezeOp>(
        l, RankedTensorType::get(shape, tt.getElementType()), x,
        b.getI64IntegerAttr(*nd)));
  }
  if (name == "transpose" || name == "t") {
    int64_t d0 = 0, d1 = 1;
    if (name == "t") {
      if (!bindArgs(call, fn, {{"self"}}, true))
        return std::nullopt;
      if (rank < 2)
        return self;
      if (rank > 2) {
        error(where,
              "t() expects a tensor of rank 2 or less, got " + describe(self));
        return std::nullopt;
      }
    } else {
      auto bound = bindArgs(call, fn, {{"self"}, {"dim0"}, {"dim1"}}, true);
      if (!bound)
        return std::nullopt;
      auto a = lowerConstInt(*(*bound)[1], "dim0");
      auto c = lowerConstInt(*(*bound)[2], "dim1");
      if (!a || !c)
        return std::nullopt;
      auto na = normalizeDim(*a, rank, (*bound)[1]->range);
      auto nc = normalizeDim(*c, rank, (*bound)[2]->range);
      if (!na || !nc)
        return std::nullopt;
      d0 = *na;
      d1 = *nc;
    }
    SmallVector<int64_t> shape(tt.getShape());
    std::swap(shape[d0], shape[d1]);
    return PyValue::ofValue(b.create<TransposeOp>(
        l, RankedTensorType::get(shape, tt.getElementType()), x,
        b.getI64IntegerAttr(d0), b.getI64IntegerAttr(d1)));
  }
  if (name == "permute") {
    std::vector<int64_t> dims;
    if (call.args.size() == 1) {
      auto ds = lowerConstInts(*call.args[0], "dims");
      if (!ds)
        return std::nullopt;
      dims = *ds;
    } else {
      for (const ast::Expr *a : call.args) {
        auto d = lowerConstInt(*a, "dims");
        if (!d)
          return std::nullopt;
        dims.push_back(*d);
      }
    }
    if (static_cast<int64_t>(dims.size()) != rank) {
      error(where, "permute() needs " + std::to_string(rank) + " dims, got " +
                       std::to_string(dims.size()));
      return std::nullopt;
    }
    SmallVector<int64_t> perm, shape;
    for (int64_t d : dims) {
      auto nd = normalizeDim(d, rank, where);
      if (!nd)
        return std::nullopt;
      if (llvm::is_contained(perm, *nd)) {
        error(where, "permute() dims repeat dimension " + std::to_string(*nd));
        return std::nullopt;
      }
      perm.push_back(*nd);
      shape.push_back(tt.getDimSize(*nd));
    }
    return PyValue::ofValue(b.create<PermuteOp>(
        l, RankedTensorType::get(shape, tt.getElementType()), x,
        b.getDenseI64ArrayAttr(perm)));
  }
  // Creation from another tensor.
  if (name == "zeros_like" || name == "ones_like" || name == "rand_like" ||
      name == "randn_like" || name == "full_like") {
    SmallVector<BuiltinParam> params = {{"self"}};
    if (name == "full_like")
      params.push_back({"fill_value"});
    params.push_back({"dtype", false});
    auto bound = bindArgs(call, "torch." + name, params, true);
    if (!bound)
      return std::nullopt;
    Type et = tt.getElementType();
    if (const ast::Expr *d = bound->back()) {
      MaybeValue dv = lowerExpr(*d);
      if (!dv)
        return std::nullopt;
      et = dtypeFromGlobal(b, *dv);
      if (!et) {
        error(d->range, "unknown dtype " + describe(*dv));
        return std::nullopt;
      }
    }
    auto rt = RankedTensorType::get(tt.getShape(), et);
    std::vector<Value> sizes = dimValues(x, where);
    if (name == "rand_like")
      return PyValue::ofValue(b.create<RandOp>(l, rt, sizes));
    if (name == "randn_like")
      return PyValue::ofValue(b.create<RandnOp>(l, rt, sizes));
    Value fill;
    if (name == "full_like") {
      std::optional<Value> f = lowerValue(*(*bound)[1]);
      if (!f)
        return std::nullopt;
      fill = *f;
    } else {
      fill = constFloat(name == "ones_like" ? 1 : 0, where);
    }
    return PyValue::ofValue(b.create<FullOp>(l, rt, fill, sizes));
  }
  error(where, "the Tensor method '" + name + "' is not supported");
  return std::nullopt;
}

} // namespace kiln
