//===- LowerKilnToLinalg.cpp - The kiln-to-linalg conversion pass ---------===//
//
// One dialect conversion: every kiln op is illegal afterwards. Types stay as
// they are except !kiln.list, which becomes an opaque pointer to a runtime
// list, so function signatures, calls and scf regions are converted along.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/lowering/EntryBoundary.h"
#include "codegen/lowering/LoweringSupport.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace kiln::codegen {
namespace {

struct LowerKilnToLinalgPass
    : public PassWrapper<LowerKilnToLinalgPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerKilnToLinalgPass)

  LowerKilnToLinalgPass() = default;
  LowerKilnToLinalgPass(const LowerKilnToLinalgPass &other)
      : PassWrapper(other) {}
  explicit LowerKilnToLinalgPass(bool gpu) { gpu_ = gpu; }

  Option<bool> gpu_{
      *this, "gpu",
      llvm::cl::desc("Lower for GPU kernels: fuse a producer into each "
                     "linalg op that reads it, whatever it costs (memory "
                     "traffic costs more than recomputation), and check "
                     "each index where a kernel reads it (the host cannot "
                     "read tensor values)"),
      llvm::cl::init(false)};

  StringRef getArgument() const final { return "kiln-lower-to-linalg"; }
  StringRef getDescription() const final {
    return "Lower kiln ops to linalg/tensor/arith/math/scf and runtime calls";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, bufferization::BufferizationDialect,
                    func::FuncDialect, linalg::LinalgDialect,
                    LLVM::LLVMDialect, math::MathDialect,
                    memref::MemRefDialect, scf::SCFDialect,
                    tensor::TensorDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    passWeightsAsArguments(module);
    rewriteEntryBoundaries(module);
    declareRuntimeFunctions(module);
    markInPlaceAppends(module);
    sinkConstantInputs(module);

    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([context](ListType) -> Type {
      return LLVM::LLVMPointerType::get(context);
    });

    ConversionTarget target(*context);
    target.addIllegalDialect<KilnDialect>();
    // Groups stay until their lowered bodies are fused.
    target.addLegalOp<FusionGroupOp, YieldOp>();
    target.addLegalDialect<arith::ArithDialect,
                           bufferization::BufferizationDialect,
                           linalg::LinalgDialect, LLVM::LLVMDialect,
                           math::MathDialect, memref::MemRefDialect,
                           tensor::TensorDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp fn) {
      return converter.isSignatureLegal(fn.getFunctionType()) &&
             converter.isLegal(&fn.getBody());
    });
    target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp>(
        [&](Operation *op) { return converter.isLegal(op); });

    LoweringState state;
    state.gpu = gpu_;
    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    populateElementwisePatterns(patterns, converter, state);
    populateShapePatterns(patterns, converter, state);
    populateReductionPatterns(patterns, converter, state);
    populateMatmulPatterns(patterns, converter, state);
    populateIndexingPatterns(patterns, converter, state);
    populateScanPatterns(patterns, converter, state);
    populatePoolingPatterns(patterns, converter, state);
    populateConvolutionPatterns(patterns, converter, state);
    populateRandomPatterns(patterns, converter, state);
    populateRuntimeCallPatterns(patterns, converter, state);

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    fuseAndInlineGroups(module, /*recompute=*/gpu_);
    eraseUnreadTransposes(module);
    eraseUnusedRuntimeFunctions(module);
    copyViewResults(module);
    state.tables.store(module);
  }
};

} // namespace
} // namespace kiln::codegen

std::unique_ptr<mlir::Pass> kiln::createLowerKilnToLinalgPass(bool gpu) {
  return std::make_unique<codegen::LowerKilnToLinalgPass>(gpu);
}
