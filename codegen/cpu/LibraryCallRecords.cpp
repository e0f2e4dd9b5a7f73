//===- LibraryCallRecords.cpp - The kernel library calls known at compile time -===//
//
// oneDNN builds a primitive, JIT-compiling its kernel, the first time it
// sees a product's or a convolution's shapes, and packs a model's weight
// the first time a product reads it: together 20 to 400 times a warm
// call. For a call whose shapes, strides and parameters are static, all of
// that is known here, so this pass writes it down, and the runtime does it
// while it loads the archive, before any call (runtime/src/
// PreparedCalls.cpp, docs/runtime.md "Prepared at load"). Nothing of the
// user's code runs at load: the records describe calls, they are not
// calls.
//
// Each operand of a call is traced back through the views that made it
// (cast, transpose, subview, expand and collapse_shape, reinterpret_cast)
// to a buffer whose layout is known: an allocation, a public function's
// dense argument, or a weight. Only a weight's data is ever read at load,
// so only its operands need a static offset; a call whose operands cannot
// all be traced, or whose parameters are not constants, is not recorded
// and keeps its first-call cost. A record that does not match what the
// call later hands the library only costs the prepared work: the library
// keys its plans by what it is handed.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

#include <optional>

using namespace mlir;

namespace {

/// A buffer view with static sizes and strides, in elements. `offset` is
/// from the start of the traced buffer, where known; `weight` is that
/// buffer's weight index (kiln.weight), or -1 for any other buffer.
struct StaticView {
  SmallVector<int64_t> sizes, strides;
  std::optional<int64_t> offset;
  int64_t weight = -1;
};

StaticView denseView(ArrayRef<int64_t> sizes, int64_t weight) {
  StaticView view;
  view.sizes.assign(sizes.begin(), sizes.end());
  view.strides.resize(sizes.size());
  int64_t step = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    view.strides[d] = step;
    step *= std::max<int64_t>(sizes[d], 1);
  }
  view.offset = 0;
  view.weight = weight;
  return view;
}

bool allStatic(ArrayRef<int64_t> values) {
  return llvm::none_of(values, ShapedType::isDynamic);
}

std::optional<StaticView> traceView(Value value);

/// A function's argument: a weight (dense, whatever the function's layout
/// says) or a public function's identity-layout argument.
std::optional<StaticView> argumentView(BlockArgument arg) {
  auto type = dyn_cast<MemRefType>(arg.getType());
  auto fn = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!type || !type.hasStaticShape() || !fn ||
      arg.getOwner() != &fn.getBody().front())
    return std::nullopt;
  if (auto weight =
          fn.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "kiln.weight"))
    return denseView(type.getShape(), weight.getInt());
  if (fn.isPublic() && type.getLayout().isIdentity())
    return denseView(type.getShape(), -1);
  return std::nullopt;
}

std::optional<StaticView> subviewView(memref::SubViewOp subview) {
  std::optional<StaticView> source = traceView(subview.getSource());
  if (!source || !allStatic(subview.getStaticSizes()) ||
      !allStatic(subview.getStaticStrides()))
    return std::nullopt;
  ArrayRef<int64_t> offsets = subview.getStaticOffsets();
  if (source->offset && allStatic(offsets)) {
    int64_t offset = *source->offset;
    for (auto [at, stride] : llvm::zip(offsets, source->strides))
      offset += at * stride;
    source->offset = offset;
  } else {
    source->offset.reset();
  }
  llvm::SmallBitVector dropped = subview.getDroppedDims();
  StaticView view = {{}, {}, source->offset, source->weight};
  for (auto [d, size, step] : llvm::enumerate(subview.getStaticSizes(),
                                              subview.getStaticStrides())) {
    if (dropped.test(d))
      continue;
    view.sizes.push_back(size);
    view.strides.push_back(source->strides[d] * step);
  }
  return view;
}

/// Each group of result dims splits one source dim, outermost first.
std::optional<StaticView> expandView(memref::ExpandShapeOp expand) {
  std::optional<StaticView> source = traceView(expand.getSrc());
  ArrayRef<int64_t> shape = expand.getResultType().getShape();
  if (!source || !allStatic(shape))
    return std::nullopt;
  StaticView view = {{}, {}, source->offset, source->weight};
  view.sizes.assign(shape.begin(), shape.end());
  view.strides.resize(shape.size());
  for (auto [d, group] : llvm::enumerate(expand.getReassociationIndices())) {
    int64_t step = source->strides[d];
    for (int64_t r = static_cast<int64_t>(group.size()) - 1; r >= 0; --r) {
      view.strides[group[r]] = step;
      step *= shape[group[r]];
    }
  }
  return view;
}

/// Each group of source dims becomes one dim; the group must be contiguous
/// (size-1 dims, which never move the address, aside).
std::optional<StaticView> collapseView(memref::CollapseShapeOp collapse) {
  std::optional<StaticView> source = traceView(collapse.getSrc());
  if (!source)
    return std::nullopt;
  StaticView view = {{}, {}, source->offset, source->weight};
  for (const ReassociationIndices &group :
       collapse.getReassociationIndices()) {
    int64_t size = 1, stride = 1;
    std::optional<int64_t> next; // the stride the next inner dim must have
    for (int64_t r = static_cast<int64_t>(group.size()) - 1; r >= 0; --r) {
      int64_t d = group[r];
      if (source->sizes[d] == 1)
        continue;
      if (next && source->strides[d] != *next)
        return std::nullopt;
      if (!next)
        stride = source->strides[d];
      next = source->strides[d] * source->sizes[d];
      size *= source->sizes[d];
    }
    view.sizes.push_back(size);
    view.strides.push_back(stride);
  }
  return view;
}

std::optional<StaticView> reinterpretView(memref::ReinterpretCastOp cast) {
  std::optional<StaticView> source = traceView(cast.getSource());
  if (!source || !allStatic(cast.getStaticSizes()) ||
      !allStatic(cast.getStaticStrides()) ||
      !allStatic(cast.getStaticOffsets()))
    return std::nullopt;
  // The offset counts from the buffer's start, not the source view's.
  return StaticView{SmallVector<int64_t>(cast.getStaticSizes()),
                    SmallVector<int64_t>(cast.getStaticStrides()),
                    cast.getStaticOffsets().front(), source->weight};
}

/// `value`'s sizes, strides and root, or nothing where they are not static
/// or its buffer cannot be traced.
std::optional<StaticView> traceView(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return argumentView(arg);
  Operation *op = value.getDefiningOp();
  if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return std::nullopt;
    return denseView(type.getShape(), -1);
  }
  if (auto cast = dyn_cast<memref::CastOp>(op)) {
    std::optional<StaticView> source = traceView(cast.getSource());
    auto type = dyn_cast<MemRefType>(cast.getType());
    if (!source || !type || !type.hasStaticShape() ||
        ArrayRef<int64_t>(source->sizes) != type.getShape())
      return std::nullopt;
    return source;
  }
  if (auto transpose = dyn_cast<memref::TransposeOp>(op)) {
    std::optional<StaticView> source = traceView(transpose.getIn());
    if (!source)
      return std::nullopt;
    StaticView view = *source;
    AffineMap permutation = transpose.getPermutation();
    for (unsigned d = 0; d < permutation.getNumResults(); ++d) {
      unsigned from = permutation.getDimPosition(d);
      view.sizes[d] = source->sizes[from];
      view.strides[d] = source->strides[from];
    }
    return view;
  }
  if (auto subview = dyn_cast<memref::SubViewOp>(op))
    return subviewView(subview);
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(op))
    return expandView(expand);
  if (auto collapse = dyn_cast<memref::CollapseShapeOp>(op))
    return collapseView(collapse);
  if (auto cast = dyn_cast<memref::ReinterpretCastOp>(op))
    return reinterpretView(cast);
  return std::nullopt;
}

/// An operand of the library: its unranked memref traced through the cast
/// that erased its rank.
std::optional<StaticView> libraryOperand(Value unranked) {
  auto cast = unranked.getDefiningOp<memref::CastOp>();
  if (!cast)
    return std::nullopt;
  return traceView(cast.getSource());
}

/// The operand's record: sizes and strides, and for a weight (the only
/// data read at load) its index and offset; nothing for a weight whose
/// offset is not static.
std::optional<DictionaryAttr> operandRecord(Builder &b,
                                            const StaticView &view) {
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("sizes", b.getDenseI64ArrayAttr(view.sizes)),
      b.getNamedAttr("strides", b.getDenseI64ArrayAttr(view.strides))};
  if (view.weight >= 0) {
    if (!view.offset)
      return std::nullopt;
    fields.push_back(b.getNamedAttr("weight", b.getI64IntegerAttr(view.weight)));
    fields.push_back(b.getNamedAttr("offset", b.getI64IntegerAttr(*view.offset)));
  }
  return b.getDictionaryAttr(fields);
}

/// The library's entry points this pass records: the runtime function, the
/// record's op, how many memref operands lead its arguments, and how many
/// constant integer parameters follow them (before the site).
struct LibraryFunction {
  StringLiteral callee, op;
  unsigned memrefs, params;
};
constexpr LibraryFunction kLibraryFunctions[] = {
    {"kiln_rt_matmul_f32", "matmul", 3, 0},
    {"kiln_rt_matmul_epilogue_f32", "matmul", 4, 1}, // the activation
    {"kiln_rt_conv2d_f32", "conv2d", 3, 7}, // strides, pads, dilations, groups
};

std::optional<DictionaryAttr> callRecord(Builder &b, func::CallOp call) {
  const LibraryFunction *fn = llvm::find_if(kLibraryFunctions, [&](auto &f) {
    return f.callee == call.getCallee();
  });
  if (fn == std::end(kLibraryFunctions))
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : call.getOperands().take_front(fn->memrefs)) {
    std::optional<StaticView> view = libraryOperand(operand);
    std::optional<DictionaryAttr> record =
        view ? operandRecord(b, *view) : std::nullopt;
    if (!record)
      return std::nullopt;
    operands.push_back(*record);
  }
  SmallVector<int64_t> params;
  for (Value param : call.getOperands().slice(fn->memrefs, fn->params)) {
    APInt value;
    if (!matchPattern(param, m_ConstantInt(&value)))
      return std::nullopt;
    params.push_back(value.getSExtValue());
  }
  return b.getDictionaryAttr(
      {b.getNamedAttr("op", b.getStringAttr(fn->op)),
       b.getNamedAttr("operands", b.getArrayAttr(operands)),
       b.getNamedAttr("params", b.getDenseI64ArrayAttr(params))});
}

struct LibraryCallRecordsPass
    : public PassWrapper<LibraryCallRecordsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LibraryCallRecordsPass)

  StringRef getArgument() const final { return "kiln-record-library-calls"; }
  StringRef getDescription() const final {
    return "Record the kernel library calls whose shapes are static, for the "
           "runtime to prepare at load";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    // Each distinct call once, in the order the code makes them: a call in
    // a loop is prepared once, as the library caches it once.
    SmallVector<Attribute> records;
    llvm::DenseSet<Attribute> seen;
    module.walk([&](func::CallOp call) {
      if (std::optional<DictionaryAttr> record = callRecord(b, call))
        if (seen.insert(*record).second)
          records.push_back(*record);
    });
    if (records.empty())
      module->removeAttr(kiln::kLibraryCallsAttrName);
    else
      module->setAttr(kiln::kLibraryCallsAttrName, b.getArrayAttr(records));
    // The weights' marks have served their purpose, and LLVM refuses
    // argument attributes it does not know.
    for (auto fn : module.getOps<func::FuncOp>())
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        fn.removeArgAttr(i, "kiln.weight");
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createLibraryCallRecordsPass() {
  return std::make_unique<LibraryCallRecordsPass>();
}
