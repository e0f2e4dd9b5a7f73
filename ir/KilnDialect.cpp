//===- KilnDialect.cpp - the kiln dialect ---------------------------------===//

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace kiln;

#include "ir/KilnDialect.cpp.inc"

namespace {
/// Every kiln op may be inlined: none refers to its enclosing function.
struct KilnInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void KilnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ir/KilnOps.cpp.inc"
      >();
  registerTypes();
  addInterfaces<KilnInlinerInterface>();
}

/// Folded scalars become arith.constant; folded tensors become kiln.constant.
Operation *KilnDialect::materializeConstant(OpBuilder &builder,
                                            Attribute value, Type type,
                                            Location loc) {
  if (llvm::isa<RankedTensorType>(type)) {
    auto elements = llvm::dyn_cast<ElementsAttr>(value);
    if (!elements || elements.getType() != type)
      return nullptr;
    return builder.create<ConstantOp>(loc, elements);
  }
  auto typed = llvm::dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type ||
      !arith::ConstantOp::isBuildableWith(typed, type))
    return nullptr;
  return builder.create<arith::ConstantOp>(loc, type, typed);
}

void kiln::registerDialects(DialectRegistry &registry) {
  registry.insert<KilnDialect, arith::ArithDialect, func::FuncDialect,
                  scf::SCFDialect, tensor::TensorDialect>();
  func::registerInlinerExtension(registry);
}
