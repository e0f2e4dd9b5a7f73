//===- LoweringSupport.h - Shared pieces of the kiln-to-linalg lowering ---===//
//
// Private to codegen/lowering. The op families (elementwise, shapes,
// reductions, runtime calls) each live in their own file and share:
// - RuntimeTables, which numbers the run-time check sites and print strings
//   that end up in the archive's manifest;
// - small builders for scalar conversions, run-time checks and calls into
//   the runtime (kiln/abi.h).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_LOWERING_LOWERINGSUPPORT_H
#define KILN_CODEGEN_LOWERING_LOWERINGSUPPORT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace kiln::codegen {

/// The "sites" and "strings" tables of the manifest, built while lowering and
/// stored on the module as `kiln.sites` and `kiln.strings`.
class RuntimeTables {
public:
  /// A run-time check at `loc` whose failure reports `message`; {0} to {3}
  /// in it are filled with the four integers passed to raise().
  int64_t addSite(mlir::Location loc, llvm::StringRef message);
  /// A print format string; equal strings share one index.
  int64_t addString(llvm::StringRef text);
  /// Appends the tables to the module's attributes.
  void store(mlir::ModuleOp module) const;
  /// The tables a previous store() left on `module`, for a later pass that
  /// adds sites of its own.
  static RuntimeTables load(mlir::ModuleOp module);

private:
  std::vector<mlir::Attribute> sites;
  std::vector<std::string> strings;
  llvm::StringMap<int64_t> stringIndex;
};

/// The user-facing position of `loc`: after inlining a location may be a
/// CallSiteLoc or FusedLoc around the FileLineColLoc we want. Null if there
/// is none.
mlir::FileLineColLoc findFileLoc(mlir::Location loc);

/// Context handed to every lowering pattern.
struct LoweringState {
  RuntimeTables tables;
  /// The code runs as GPU kernels, whose host code cannot read a tensor's
  /// values: a check on them goes inside the kernel that reads them.
  bool gpu = false;
  /// The next id of a group of one op that fusion left alone but the CPU's
  /// tiling should take (a max pool): below zero, where no fusion group's
  /// id is.
  int64_t nextLoneGroup = -1;
};

/// Converts a scalar between element types with PyTorch's rules: float to
/// int truncates toward zero, anything to bool compares with zero, bool to
/// a number gives 0 or 1.
mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value value, mlir::Type to);

/// PyTorch's float maximum (or minimum) of two scalars: NaN if either is
/// NaN, and, as in PyTorch's vectorized kernels, either zero when they
/// are -0 and +0. Saying so (nsz) lets LLVM's x86 lowering skip the
/// signed-zero ordering of arith.maximumf, which is half its six
/// instructions per vector.
mlir::Value floatExtremum(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value x, mlir::Value y, bool max);

/// Emits `if (failed) raise(site, a, b, c, d)`. Integer operands are
/// widened to i64; missing ones are 0.
void emitCheck(mlir::OpBuilder &b, mlir::Location loc, mlir::Value failed,
               int64_t site, mlir::ValueRange operands = {});
/// The same with the site chosen at run time (an i64 value).
void emitCheck(mlir::OpBuilder &b, mlir::Location loc, mlir::Value failed,
               mlir::Value site, mlir::ValueRange operands = {});

/// Calls runtime function `name` (declared by declareRuntimeFunctions).
mlir::ValueRange callRuntime(mlir::OpBuilder &b, mlir::Location loc,
                             llvm::StringRef name, mlir::TypeRange results,
                             mlir::ValueRange args);
/// Declares every kiln_rt_* function the lowering may call; unused ones are
/// removed after lowering by eraseUnusedRuntimeFunctions.
void declareRuntimeFunctions(mlir::ModuleOp module);
void eraseUnusedRuntimeFunctions(mlir::ModuleOp module);

/// A read-only view of `tensor` as an unranked memref (any layout), for
/// passing to the runtime. With a `permutation`, dim i of the view is dim
/// permutation[i] of `tensor`: a transposed view, with no copy.
mlir::Value viewAsUnrankedMemref(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value tensor,
                                 llvm::ArrayRef<int64_t> permutation = {});

/// The size of every dim of a ranked tensor as index values (constants for
/// static dims).
llvm::SmallVector<mlir::Value> tensorSizes(mlir::OpBuilder &b,
                                           mlir::Location loc,
                                           mlir::Value tensor);
/// tensor.empty of `type` whose dynamic dims take their sizes from `sizes`
/// (one index value per dim; entries for static dims are ignored).
mlir::Value emptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type,
                        mlir::ValueRange sizes);
mlir::Value indexValue(mlir::OpBuilder &b, mlir::Location loc, int64_t value);
mlir::Value toIndex(mlir::OpBuilder &b, mlir::Location loc, mlir::Value i64);
mlir::Value toI64(mlir::OpBuilder &b, mlir::Location loc, mlir::Value index);

/// The suffix of the typed runtime functions for an element type, e.g.
/// kiln_rt_print_tensor_f32.
std::string elementSuffix(mlir::Type elementType);
/// The kiln_dtype number (kiln/abi.h) of an element type.
int32_t abiDType(mlir::Type elementType);

/// Marks each kiln.list_append whose input list nobody else can see, so
/// that its lowering appends in place instead of cloning. Runs before the
/// conversion.
void markInPlaceAppends(mlir::ModuleOp module);

/// Runs after the conversion, which lowers the ops inside each
/// kiln.fusion_group but keeps the group: fuses the group's linalg ops into
/// one loop nest with MLIR's elementwise fusion, then replaces the group by
/// its body. With `recompute`, a costly producer that two linalg ops of the
/// group read is fused into both (FusionGroups.cpp says when that pays).
void fuseAndInlineGroups(mlir::ModuleOp module, bool recompute);

/// Runs before the conversion: each group's constant inputs (a Python
/// float such as GELU's 0.7071067811865476) are cloned into its body, so
/// that the lowering of the ops that read them sees constants and converts
/// them at compile time (convertScalar) rather than in every call.
void sinkConstantInputs(mlir::ModuleOp module);

/// Runs after the conversion: erases the copies of kiln.transpose and
/// kiln.permute that nothing reads because every user (a matmul that calls
/// the kernel library) reads the permuted tensor through a strided view.
/// Without -O there is no canonicalization to drop them.
void eraseUnreadTransposes(mlir::ModuleOp module);

/// Pattern registration, one per op family.
void populateElementwisePatterns(mlir::RewritePatternSet &patterns,
                                 mlir::TypeConverter &converter,
                                 LoweringState &state);
void populateShapePatterns(mlir::RewritePatternSet &patterns,
                           mlir::TypeConverter &converter,
                           LoweringState &state);
void populateReductionPatterns(mlir::RewritePatternSet &patterns,
                               mlir::TypeConverter &converter,
                               LoweringState &state);
void populateMatmulPatterns(mlir::RewritePatternSet &patterns,
                            mlir::TypeConverter &converter,
                            LoweringState &state);
void populateIndexingPatterns(mlir::RewritePatternSet &patterns,
                              mlir::TypeConverter &converter,
                              LoweringState &state);
void populateScanPatterns(mlir::RewritePatternSet &patterns,
                          mlir::TypeConverter &converter,
                          LoweringState &state);
void populatePoolingPatterns(mlir::RewritePatternSet &patterns,
                             mlir::TypeConverter &converter,
                             LoweringState &state);
void populateConvolutionPatterns(mlir::RewritePatternSet &patterns,
                                 mlir::TypeConverter &converter,
                                 LoweringState &state);
void populateRandomPatterns(mlir::RewritePatternSet &patterns,
                            mlir::TypeConverter &converter,
                            LoweringState &state);
void populateRuntimeCallPatterns(mlir::RewritePatternSet &patterns,
                                 mlir::TypeConverter &converter,
                                 LoweringState &state);

/// Base for kiln op lowerings: carries the shared state.
template <typename Op>
struct KilnLowering : public mlir::OpConversionPattern<Op> {
  KilnLowering(mlir::TypeConverter &converter, mlir::MLIRContext *context,
               LoweringState &state)
      : mlir::OpConversionPattern<Op>(converter, context), state(state) {}
  LoweringState &state;
};

} // namespace kiln::codegen

#endif // KILN_CODEGEN_LOWERING_LOWERINGSUPPORT_H
