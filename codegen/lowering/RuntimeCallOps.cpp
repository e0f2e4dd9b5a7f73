//===- RuntimeCallOps.cpp - print, assert and Python lists ----------------===//
//
// These ops need the runtime: print writes through it, assert raises
// through it, and a list whose length is only known at run time lives in
// it (kiln/abi.h). A !kiln.list value becomes an opaque pointer.
//
// kiln lists are functional (list_append returns a new list) but the
// runtime's lists are mutable, so an append mutates in place only when no
// one else can still see the old list; otherwise it clones first.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringSupport.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace kiln::codegen {
namespace {

enum ListResult : int32_t { GetElement = 0, Stack = 1, Cat = 2 };

/// Doubles braces so that user text survives the runtime's {0} expansion.
std::string escapeBraces(StringRef text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '{' || c == '}')
      out += c;
  }
  return out;
}

constexpr llvm::StringLiteral inPlaceAttr = "kiln.append_in_place";

/// True when `list` is seen by nothing but its one user, following loop
/// arguments back to the values that initialize them, and the results of
/// loops and ifs back to the values they may pass through: a loop that
/// runs no iteration returns its init, so appending in place to its result
/// would change the init's list for its other users.
bool isUniquelyOwned(Value list) {
  if (!list.hasOneUse())
    return false;
  auto arg = dyn_cast<BlockArgument>(list);
  if (!arg) {
    auto result = cast<OpResult>(list);
    unsigned n = result.getResultNumber();
    Operation *def = result.getOwner();
    auto yielded = [n](Region &r) {
      return isUniquelyOwned(r.front().getTerminator()->getOperand(n));
    };
    if (auto forOp = dyn_cast<scf::ForOp>(def))
      return isUniquelyOwned(forOp.getInitArgs()[n]) &&
             yielded(forOp.getRegion());
    if (auto ifOp = dyn_cast<scf::IfOp>(def))
      return yielded(ifOp.getThenRegion()) && yielded(ifOp.getElseRegion());
    if (auto whileOp = dyn_cast<scf::WhileOp>(def))
      return isUniquelyOwned(whileOp.getInits()[n]) &&
             isUniquelyOwned(whileOp.getConditionOp().getArgs()[n]);
    // A list_construct or a list_append: a list of its own.
    return !isa<RegionBranchOpInterface>(def);
  }
  Operation *parent = arg.getOwner()->getParentOp();
  if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
    if (arg.getArgNumber() == 0)
      return false;
    return isUniquelyOwned(forOp.getInitArgs()[arg.getArgNumber() - 1]);
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
    if (arg.getOwner() == &whileOp.getBefore().front())
      return isUniquelyOwned(whileOp.getInits()[arg.getArgNumber()]);
    return isUniquelyOwned(
        whileOp.getConditionOp().getArgs()[arg.getArgNumber()]);
  }
  return false; // a function argument: the caller may still hold it
}

/// A tensor (or a scalar, as a rank-0 tensor) as the runtime sees it.
Value asUnranked(OpBuilder &b, Location loc, Value value) {
  if (!isa<RankedTensorType>(value.getType()))
    value = b.create<tensor::FromElementsOp>(
        loc, RankedTensorType::get({}, value.getType()), value);
  return viewAsUnrankedMemref(b, loc, value);
}

void appendToList(OpBuilder &b, Location loc, Value list, Value element) {
  Type elementType = kiln::getElementTypeOrSelf(element.getType());
  callRuntime(b, loc, "kiln_rt_list_append_" + elementSuffix(elementType), {},
              {list, asUnranked(b, loc, element)});
}

/// Asks the runtime for a list-derived result (an element, or a stack or
/// cat of all elements) of type `type`, a tensor or a scalar.
Value materialize(OpBuilder &b, Location loc, LoweringState &state,
                  Value list, ListResult what, Value axis, Type type) {
  // The runtime knows what went wrong (which element, which dim) and writes
  // the message itself; the site only gives the location.
  int64_t site = state.tables.addSite(loc, "");
  Value siteValue = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(site));
  Value op = b.create<arith::ConstantOp>(loc, b.getI32IntegerAttr(what));
  auto tensorType = dyn_cast<RankedTensorType>(type);
  RankedTensorType shaped =
      tensorType ? tensorType : RankedTensorType::get({}, type);
  Type i64 = b.getI64Type();
  // Always ask once: it validates the index and the element shapes even
  // when every dim is static.
  Value check = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(-1));
  if (what != GetElement)
    check = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(0));
  Value first = callRuntime(b, loc, "kiln_rt_list_result_dim", {i64},
                            {list, op, axis, check, siteValue})[0];
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < shaped.getRank(); ++d) {
    if (!shaped.isDynamicDim(d))
      continue;
    Value size = d == 0 && what != GetElement
                     ? first
                     : callRuntime(b, loc, "kiln_rt_list_result_dim", {i64},
                                   {list, op, axis,
                                    b.create<arith::ConstantOp>(
                                        loc, b.getI64IntegerAttr(d)),
                                    siteValue})[0];
    dynamicSizes.push_back(toIndex(b, loc, size));
  }
  auto memrefType =
      MemRefType::get(shaped.getShape(), shaped.getElementType());
  Value buffer = b.create<memref::AllocOp>(loc, memrefType, dynamicSizes);
  Value unranked = b.create<memref::CastOp>(
      loc, UnrankedMemRefType::get(shaped.getElementType(), 0), buffer);
  callRuntime(b, loc,
              "kiln_rt_list_materialize_" +
                  elementSuffix(shaped.getElementType()),
              {}, {list, op, axis, unranked, siteValue});
  if (!tensorType)
    return b.create<memref::LoadOp>(loc, buffer, ValueRange{});
  return b.create<bufferization::ToTensorOp>(loc, buffer, /*restrict=*/true,
                                             /*writable=*/true);
}

struct PrintLowering : KilnLowering<PrintOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    for (Type type : op.getArgs().getTypes())
      if (isa<ListType>(type))
        return rewriter.notifyMatchFailure(op, "printing a list");
    int64_t format = state.tables.addString(op.getFormat());
    callRuntime(rewriter, loc, "kiln_rt_print_begin", {},
                {rewriter.create<arith::ConstantOp>(
                    loc, rewriter.getI64IntegerAttr(format))});
    for (Value arg : adaptor.getArgs()) {
      Type type = arg.getType();
      if (isa<RankedTensorType>(type)) {
        Type element = cast<RankedTensorType>(type).getElementType();
        callRuntime(rewriter, loc,
                    "kiln_rt_print_tensor_" + elementSuffix(element), {},
                    {viewAsUnrankedMemref(rewriter, loc, arg)});
      } else if (type.isInteger(1)) {
        callRuntime(rewriter, loc, "kiln_rt_print_bool", {},
                    {rewriter.create<arith::ExtUIOp>(
                        loc, rewriter.getI32Type(), arg)});
      } else if (type.isInteger(64)) {
        callRuntime(rewriter, loc, "kiln_rt_print_i64", {}, {arg});
      } else {
        callRuntime(rewriter, loc, "kiln_rt_print_f64", {}, {arg});
      }
    }
    callRuntime(rewriter, loc, "kiln_rt_print_end", {}, {});
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertLowering : KilnLowering<AssertOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The message is the whole error text, exception class included
    // ("AssertionError: ...", "ValueError: ..." for a raise).
    std::string message = op.getMessage().empty()
                              ? std::string("AssertionError")
                              : escapeBraces(op.getMessage());
    int64_t site = state.tables.addSite(loc, message);
    Value failed = rewriter.create<arith::XOrIOp>(
        loc, adaptor.getCondition(),
        rewriter.create<arith::ConstantOp>(loc, rewriter.getBoolAttr(true)));
    emitCheck(rewriter, loc, failed, site);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ListConstructLowering : KilnLowering<ListConstructOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(ListConstructOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type ptr = getTypeConverter()->convertType(op.getResult().getType());
    Value list = callRuntime(rewriter, loc, "kiln_rt_list_new", {ptr}, {})[0];
    for (Value element : adaptor.getElements())
      appendToList(rewriter, loc, list, element);
    rewriter.replaceOp(op, list);
    return success();
  }
};

struct ListAppendLowering : KilnLowering<ListAppendOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(ListAppendOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value list = adaptor.getList();
    if (!op->hasAttr(inPlaceAttr))
      list = callRuntime(rewriter, loc, "kiln_rt_list_clone", {list.getType()},
                         {list})[0];
    appendToList(rewriter, loc, list, adaptor.getValue());
    rewriter.replaceOp(op, list);
    return success();
  }
};

struct ListLenLowering : KilnLowering<ListLenOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(ListLenOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, callRuntime(rewriter, op.getLoc(),
                                       "kiln_rt_list_len",
                                       {rewriter.getI64Type()},
                                       {adaptor.getList()}));
    return success();
  }
};

struct ListGetLowering : KilnLowering<ListGetOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(ListGetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value result = materialize(rewriter, op.getLoc(), state,
                               adaptor.getList(), GetElement,
                               adaptor.getIndex(), op.getResult().getType());
    rewriter.replaceOp(op, result);
    return success();
  }
};

template <typename Op, ListResult What>
struct JoinLowering : KilnLowering<Op> {
  using KilnLowering<Op>::KilnLowering;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value axis = rewriter.create<arith::ConstantOp>(
        loc, rewriter.getI64IntegerAttr(op.getDim()));
    Value result = materialize(rewriter, loc, this->state, adaptor.getList(),
                               What, axis, op.getResult().getType());
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void markInPlaceAppends(ModuleOp module) {
  // Decided before the conversion starts: converting an scf.for moves its
  // body, after which the original block arguments no longer lead back to
  // the loop.
  module.walk([](ListAppendOp op) {
    if (isUniquelyOwned(op.getList()))
      op->setAttr(inPlaceAttr, UnitAttr::get(op.getContext()));
  });
}

void populateRuntimeCallPatterns(RewritePatternSet &patterns,
                                 TypeConverter &converter,
                                 LoweringState &state) {
  patterns.add<PrintLowering, AssertLowering, ListConstructLowering,
               ListAppendLowering, ListLenLowering, ListGetLowering,
               JoinLowering<StackOp, Stack>, JoinLowering<CatOp, Cat>>(
      converter, patterns.getContext(), state);
}

} // namespace kiln::codegen
